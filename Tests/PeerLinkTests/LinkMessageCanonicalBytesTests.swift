import Testing
@testable import PeerLinkCore

/// `sendMessage(_:canonicalBytes:…)` (the app hands over the message's canonical encoding)
/// behaves exactly as `sendMessage(_:…)`: the same ids, frames on the wire, events on both
/// sides and pending messages, in success and in every failure (readiness, not reachable, too
/// large, not a dictionary).
@Suite("Messages with their canonical bytes")
struct LinkMessageCanonicalBytesTests {
    /// Everything the watch's sends caused, to compare the two ways of sending.
    struct Trace: Equatable {
        struct Sent: Equatable {
            var to: DeviceRole
            var frame: Frame
        }
        var ids: [MessageID] = []
        var frames: [Sent] = []
        var phoneEvents: [LinkEvent] = []
        var watchEvents: [LinkEvent] = []
        var pending: [PendingMessage] = []
        var nextID: MessageID = 0
    }

    /// A step of a script: a message to send (and whether it expects a reply), or something
    /// done to the pair between sends.
    enum Step {
        case send(PlistValue, replyExpected: Bool)
        case other((inout SessionPair) -> Void)
    }

    /// Runs `steps` on `pair`, sending through the canonical-bytes API when `canonical`,
    /// delivering every frame put on the wire (each recorded) after each step.
    static func trace(_ pair: SessionPair, _ steps: [Step], canonical: Bool) -> Trace {
        var p = pair
        var t = Trace()
        for step in steps {
            switch step {
            case .send(let m, let replyExpected):
                t.ids.append(canonical
                    ? p.watch.sendMessage(m, canonicalBytes: CanonicalEncoding.encode(m), replyExpected: replyExpected, now: p.now)
                    : p.watch.sendMessage(m, replyExpected: replyExpected, now: p.now))
            case .other(let f):
                f(&p)
            }
            p.collect()
            while !p.wire.isEmpty {
                let (to, frame) = p.wire.removeFirst()
                t.frames.append(Trace.Sent(to: to, frame: frame))
                p.deliver(to, frame)
            }
        }
        p.advance(60_000)  // timeouts and receipts
        t.phoneEvents = p.phoneEvents
        t.watchEvents = p.watchEvents
        t.pending = p.watch.pendingMessages
        t.nextID = p.watch.nextMessageID
        return t
    }

    /// Both ways of sending give the same trace; returns it.
    @discardableResult
    static func expectSame(_ pair: SessionPair, _ steps: [Step], _ note: Comment) -> Trace {
        let old = trace(pair, steps, canonical: false)
        let new = trace(pair, steps, canonical: true)
        #expect(new == old, note)
        return old
    }

    /// A dictionary whose canonical encoding is `n` bytes: ["b": data(n - 8)] (5 bytes, a
    /// 3-byte varint and the data, for n in 16_391...2_097_159).
    static func payload(canonicalBytes n: Int) -> PlistValue {
        let d: PlistValue = .dictionary(["b": .data([UInt8](repeating: 1, count: n - 8))])
        #expect(CanonicalEncoding.encodedSize(d) == n)
        return d
    }

    static let live: PlistValue = [
        "type": "workout.liveMetrics", "workoutID": "w1", "atMs": .int(1_234_567), "energyKcal": .double(12.5),
        "heartRateBpm": .double(141), "hrCount": 17, "elapsedMs": .int(-3), "startMs": .int(1 << 40),
    ]

    @Test func connectedMessagesRepliesAndReceiptsAreTheSame() {
        var pair = SessionPair.connected { $0.messageReplyTimeoutMs = 5_000 }
        pair.phoneReplies = { m in m.payload == .dictionary(["q": 2]) ? nil : .dictionary(["ok": true]) }
        let t = Self.expectSame(pair, [
            .send(Self.live, replyExpected: false),
            .send(["q": 1], replyExpected: true),
            .send(["q": 2], replyExpected: true),  // not answered: times out
            .send([:], replyExpected: false),
            .send(Self.live, replyExpected: true),
            .send(["nested": ["a": [1, 2, "x"], "b": .data([0, 1])], "é": .double(-.infinity)], replyExpected: false),
        ], "connected")
        #expect(t.ids == [1, 2, 3, 4, 5, 6])
        #expect(t.frames.filter { $0.frame.kind == .message }.count == 6)
        #expect(failCodes(t.watchEvents) == [.messageReplyTimedOut])
    }

    @Test func largeIDsGiveTheSameFrames() {
        // Ids whose varints take 1, 2 and 3 bytes.
        var steps: [Step] = []
        for i in 0..<130 { steps.append(.send(["i": .int(Int64(i))], replyExpected: i % 3 == 0)) }
        let t = Self.expectSame(.connected(), steps, "ids 1...130")
        #expect(t.ids.last == 130)
    }

    @Test func payloadsAtAndOverTheLimitAreDecidedTheSame() {
        let t = Self.expectSame(.connected(), [
            .send(Self.payload(canonicalBytes: PayloadLimits.messageBytes), replyExpected: false),
            .send(Self.payload(canonicalBytes: PayloadLimits.messageBytes + 1), replyExpected: true),
            .send(Self.payload(canonicalBytes: PayloadLimits.messageBytes + 1), replyExpected: false),
            .send(["after": true], replyExpected: false),
        ], "limit")
        #expect(failCodes(t.watchEvents) == [.payloadTooLarge, .payloadTooLarge])
        #expect(t.ids == [1, 2, 3, 4])
    }

    @Test func unreachableFailuresAreTheSame() {
        // Not connected: notReachable, nothing on the wire; too large wins over not reachable.
        let t = Self.expectSame(SessionPair(), [
            .send(["q": 1], replyExpected: true),
            .send(["q": 1], replyExpected: false),
            .send(Self.payload(canonicalBytes: PayloadLimits.messageBytes + 1), replyExpected: true),
        ], "not connected")
        #expect(t.frames.isEmpty)
        #expect(failCodes(t.watchEvents) == [.notReachable, .notReachable, .payloadTooLarge])
        // The phone app not running in the foreground, then the link going down with messages pending.
        Self.expectSame(.connected(), [
            .send(["q": 1], replyExpected: true),
            .other { $0.phone.setLocalAppState(AppState(isRunning: false, isForeground: false)) },
            .send(["q": 2], replyExpected: false),
            .other { $0.watch.setLocalAppState(AppState(isRunning: true, isForeground: false)) },
            .send(["q": 3], replyExpected: true),
            .other { $0.watch.setLocalAppState(AppState(isRunning: true, isForeground: true)) },
            .send(["q": 4], replyExpected: true),
            .other { $0.disconnect() },
            .send(["q": 5], replyExpected: true),
        ], "app states and a disconnect")
    }

    @Test func readinessFailuresAreTheSame() {
        // Not paired.
        let unpaired = Self.expectSame(SessionPair(watchSecret: nil), [.send(["q": 1], replyExpected: true)], "not paired")
        #expect(failCodes(unpaired.watchEvents) == [.deviceNotPaired])
        // Not activated: a session alone.
        func alone(canonical: Bool) -> (MessageID, [LinkAction]) {
            var s = LinkSession(config: LinkConfig(role: .watch, pairingSecret: [7]), persistent: LinkPersistent(incarnation: 3), seed: 4)
            let m: PlistValue = ["q": 1]
            let id = canonical ? s.sendMessage(m, canonicalBytes: CanonicalEncoding.encode(m), now: 5) : s.sendMessage(m, now: 5)
            return (id, s.drainActions())
        }
        let (oldID, oldActions) = alone(canonical: false)
        let (newID, newActions) = alone(canonical: true)
        #expect(newID == oldID && newActions == oldActions)
        #expect(oldActions.contains { if case .deliver(.messageDidFail(_, let e)) = $0 { e.code == .sessionNotActivated } else { false } })
    }

    @Test func aPayloadThatIsNotADictionaryFailsTheSame() {
        let t = Self.expectSame(.connected(), [
            .send(.int(5), replyExpected: true),
            .send(.array([1, 2]), replyExpected: false),
            .send(["ok": 1], replyExpected: false),
        ], "scalars")
        #expect(failCodes(t.watchEvents) == [.payloadUnsupportedTypes, .payloadUnsupportedTypes])
    }

    /// The body made from the bytes is the one `Message.encode()` makes, for ids of every varint length.
    @Test func theBodyMadeFromTheBytesIsTheEncodedBody() {
        let payloads: [PlistValue] = [[:], Self.live, ["k": .data([UInt8](repeating: 9, count: 300))]]
        for shift in 0...63 {
            for id: MessageID in [1 << UInt64(shift), (1 << UInt64(shift)) &- 1, 0] {
                for p in payloads {
                    for replyExpected in [false, true] {
                        let reference = FrameBodies.Message(id: id, payload: .dictionary(p.dictionaryValue!), replyExpected: replyExpected).encode()
                        let made = FrameBodies.Message.encode(id: id, replyExpected: replyExpected, canonicalDictionary: CanonicalEncoding.encode(p))
                        #expect(made == reference, "id \(id)")
                    }
                }
            }
        }
    }
}
