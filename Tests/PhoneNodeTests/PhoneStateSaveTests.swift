import PeerLinkCore
@testable import PhoneNode
import Testing

/// `save` rewrites only the parts that changed since the last save; after every event the
/// local table must still decode to exactly the app's state, or a crash would lose the rest.
@Suite("Phone state saving")
struct PhoneStateSaveTests {
    typealias F = PhoneFixture

    static func expectStoredStateMatches(_ p: PhoneHarness, after step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let local = p.engine.ctx.local.dictionary
        let stored = local.filter { PhoneState.Key.all.contains($0.key) }
        #expect(stored == p.engine.app.state.encoded(), "after \(step): the local table differs from the state", sourceLocation: sourceLocation)
        #expect(PhoneState.decode(local).1.isEmpty, "after \(step)", sourceLocation: sourceLocation)
    }

    @Test func theLocalTableHoldsTheWholeStateAfterEveryEvent() throws {
        let p = try PhoneHarness(start: F.local("Asia/Tokyo", 2026, 6, 7, 10))
        Self.expectStoredStateMatches(p, after: "launch")
        let steps = [
            "authorize grant all", "app foreground", "settings step-goal 12000",
            "steps 1000 --from 2026-06-07T01:00:00Z --to 2026-06-07T01:10:00Z", "hr 72 --at 2026-06-07T01:05:00Z",
            "goal add \"Marathon\" --date 2026-12-01", "profile birth-date 1990-02-28", "goal add Forty --age 40",
            "goal delete goal-1", "goal delete goal-1 --confirm", "app background",
            "export csv", "settings notifications off",
        ]
        for line in steps {
            #expect(p.run(line).isOK, "\(line)")
            Self.expectStoredStateMatches(p, after: line)
        }
        for hours in [1, 6, 24, 48] {
            p.advance(by: Int64(hours) * 3_600_000)
            Self.expectStoredStateMatches(p, after: "advancing \(hours) h")
        }
        try p.restart()
        Self.expectStoredStateMatches(p, after: "restart")
    }

    /// The same through the watch's traffic, which the phone saves from `onLinkEvent` (the
    /// live workout and the link counters after every message) and `onReplicaMerged`.
    @Test func theLocalTableHoldsTheWholeStateAfterEveryLinkEvent() throws {
        let net = try makePhoneNetwork(seed: 31, start: F.local("Asia/Tokyo", 2026, 6, 1, 8))
        func expectStoredStateMatches(after step: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let local = net.phone.ctx.local.dictionary
            let stored = local.filter { PhoneState.Key.all.contains($0.key) }
            #expect(stored == net.phone.app.state.encoded(), "after \(step): the local table differs from the state", sourceLocation: sourceLocation)
            #expect(PhoneState.decode(local).1.isEmpty, "after \(step)", sourceLocation: sourceLocation)
        }
        expectStoredStateMatches(after: "launch")
        let steps = [
            "session on",
            #"message {"type": "workout.liveMetrics", "workoutID": "w1", "state": "running", "heartRateBpm": 150, "startMs": 1}"#,
            #"message {"type": "workout.liveMetrics", "workoutID": "w1", "state": "running", "heartRateBpm": 151, "hrCount": 2, "energyKcal": 1.5, "elapsedMs": 2000, "atMs": 3, "location": "outdoor", "activity": "cycling", "startMs": 1}"#,
            #"message {"type": "workout.liveMetrics", "workoutID": "w1", "state": "paused", "startMs": 1}"#,
            #"message {"type": "workout.liveMetrics", "state": "nonsense"}"#,
            #"message {"type": "something else"}"#,
            #"message {"type": "workout.mirroringStopped", "workoutID": "w1"}"#,
            "sample steps 500 1 2", "sample heartRate 70 3 4", "workout w1 ended 1", "samplefile w1 3",
            #"message {"type": "workout.liveMetrics", "workoutID": "w2", "state": "running"}"#,
            "session off",
        ]
        for line in steps {
            net.onWatch(line)
            expectStoredStateMatches(after: line)
        }
        let live = net.phone.app.state.live, link = net.phone.app.state.link
        try net.crash(.phone)
        #expect(net.runUntilQuiet())
        #expect(net.phone.app.state.live == live, "the live workout survives a crash")
        #expect(net.phone.app.state.link.messagesReceived == link.messagesReceived, "the link counters survive a crash")
        expectStoredStateMatches(after: "crash")
        for line in [#"message {"type": "workout.liveMetrics", "workoutID": "w3", "state": "running", "heartRateBpm": 99}"#, "session off"] {
            net.onWatch(line)
            expectStoredStateMatches(after: "crash, then \(line)")
        }
    }

    /// Every part has its bit, in `Key.all`'s order, and writing a part marks its bit only.
    @Test func everyPartHasItsTouchedBit() {
        #expect(PhoneState.Parts.all.rawValue == (1 << PhoneState.Key.all.count) - 1)
        let writes: [(String, (inout PhoneState) -> Void)] = [
            (PhoneState.Key.ids, { $0.ids.sample += 1 }), (PhoneState.Key.auth, { $0.auth.requestedMs = 1 }),
            (PhoneState.Key.app, { $0.app.recomputes += 1 }), (PhoneState.Key.notifications, { $0.notifications.deliveredTotal += 1 }),
            (PhoneState.Key.motion, { $0.motion = [] }), (PhoneState.Key.widgets, { $0.widgets.entryMs = 1 }),
            (PhoneState.Key.countdownWidget, { $0.countdownWidget.entryMs = 1 }), (PhoneState.Key.observer, { $0.observer.deliveries += 1 }),
            (PhoneState.Key.exports, { $0.exports = [] }), (PhoneState.Key.effects, { $0.effects.removeAll() }),
            (PhoneState.Key.live, { $0.live = nil }), (PhoneState.Key.link, { $0.link.messagesReceived += 1 }),
        ]
        #expect(writes.map(\.0) == PhoneState.Key.all)
        for (i, (key, write)) in writes.enumerated() {
            var s = PhoneState()
            #expect(s.touched.parts.isEmpty)
            write(&s)
            #expect(s.touched.parts == PhoneState.Parts(rawValue: 1 << i), "\(key)")
            var unmarked = s
            unmarked.clearTouched()
            #expect(unmarked == s, "the marks are no part of the value")
            s.clearTouched()
            #expect(s.touched.parts.isEmpty)
        }
    }

    @Test func equalBytesIsArrayEquality() {
        let cases: [([UInt8]?, [UInt8])] = [
            (nil, []), (nil, [1]), ([], []), ([1], []), ([], [1]), ([1, 2, 3], [1, 2, 3]), ([1, 2, 3], [1, 2, 4]),
            (Array(repeating: 7, count: 300), Array(repeating: 7, count: 300)), (Array(repeating: 7, count: 300) + [0], Array(repeating: 7, count: 300) + [1]),
        ]
        for (a, b) in cases { #expect(PhoneApp.equalBytes(a, b) == (a == b), "\(String(describing: a)) \(b)") }
    }
}
