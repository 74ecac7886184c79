import PeerLinkCore
import Testing

@testable import WatchNode

@Suite struct MirrorBudgetTests {
    @Test func exactlyOneHundredKilobytesIsAllowedAndOneByteMoreIsSkipped() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: 60_000, now: 0) == .send)
        #expect(b.consider(bytes: 40_000, now: 1_000) == .send, "exactly 100,000 bytes in the window")
        #expect(b.consider(bytes: 1, now: 2_000) == .skip(.overBudget(usedBytes: 100_000, retryAtMs: 10_000)))
        #expect(b.usedBytes(at: 2_000) == 100_000, "a skip records nothing")
    }

    @Test func singlePayloadAtTheLimitGoesAndOneByteMoreNever() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: MirrorBudget.maxBytesPerWindow + 1, now: 0) == .skip(.payloadTooLarge(bytes: 100_001)))
        #expect(b.consider(bytes: MirrorBudget.maxBytesPerWindow, now: 0) == .send)
    }

    @Test func windowSlidesAndFreesBudget() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: 60_000, now: 0) == .send)
        #expect(b.consider(bytes: 40_000, now: 5_000) == .send)
        #expect(!b.consider(bytes: 1, now: 9_999).isSend, "the first send is still in the window 1 ms before it leaves")
        #expect(b.consider(bytes: 60_000, now: 10_000) == .send, "the first send left the window at 10 s")
        #expect(b.consider(bytes: 1, now: 10_000) == .skip(.overBudget(usedBytes: 100_000, retryAtMs: 15_000)))
        #expect(b.consider(bytes: 40_000, now: 15_000) == .send)
    }

    @Test func slidingWindowRefusesABurstAcrossAFixedBoundary() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: 100_000, now: 9_999) == .send)
        #expect(!b.consider(bytes: 100_000, now: 10_000).isSend, "a fixed window would have let 200 KB through")
    }

    @Test func mirroringStopsWhenTheWorkoutEnds() {
        var b = MirrorBudget()
        b.stopMirroring()
        #expect(b.consider(bytes: 10, now: 0) == .skip(.notMirroring))
        b.startMirroring()
        #expect(b.consider(bytes: 10, now: 0) == .send)
    }

    @Test func clockSteppingBackDoesNotFreeBudget() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: 100_000, now: 50_000) == .send)
        #expect(!b.consider(bytes: 1, now: 0).isSend)
    }

    @Test func mirrorPayloadSizeIsItsCanonicalEncoding() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        guard let s = m.session, let bl = m.builder else {
            Issue.record("no session")
            return
        }
        let payload = MirrorPayload.make(session: s, builder: bl, at: 1_000)
        #expect(MirrorPayload.canonicalSize(payload) == CanonicalEncoding.encode(payload).count)
        #expect(payload["heartRateBpm"] == nil, "absent before the first sample")
        #expect(payload["elapsedMs"] == .int(1_000) && payload["state"] == "running")
    }

    /// The decisions of the budget equal those of the rule written plainly (every send checked
    /// against the window, not only a prefix), over a long irregular run with stray early times.
    @Test func decisionsEqualThePlainRule() {
        var b = MirrorBudget()
        var sends: [(atMs: EpochMs, bytes: Int)] = []
        var now: EpochMs = 0
        var state: UInt64 = 12_345
        for _ in 0..<3_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let r = Int(state >> 33)
            now += EpochMs(r % 900)
            let at = r % 13 == 0 ? now - 5_000 : now
            let bytes = r % 17 == 0 ? 40_000 : 200 + r % 3_000
            let t = max(at, sends.last?.atMs ?? at)
            sends.removeAll { $0.atMs + MirrorBudget.windowMs <= t }
            let used = sends.reduce(0) { $0 + $1.bytes }
            let expected: MirrorBudget.Decision
            if sends.count >= MirrorBudget.maxSendsPerWindow {
                expected = .skip(.tooManySends)
            } else if used + bytes > MirrorBudget.maxBytesPerWindow {
                expected = b.consider(bytes: bytes, now: at)  // the retry time is checked by the other tests
                #expect(!expected.isSend)
                continue
            } else {
                expected = .send
                sends.append((t, bytes))
            }
            #expect(b.consider(bytes: bytes, now: at) == expected)
            #expect(b.recentSends.map(\.atMs) == sends.map(\.atMs))
        }
    }
}
