import Testing
@testable import PeerLinkCore

/// `MessageChannel` alone: its inputs, and the actions it appends to a buffer of its own.
@Suite("MessageChannel")
struct MessageChannelTests {
    static let config = LinkConfig(role: .watch, pairingSecret: nil)

    static func failures(_ out: ActionBuffer) -> [(MessageID, WCErrorCode)] {
        out.actions.compactMap { if case .deliver(.messageDidFail(let id, let e)) = $0 { (id, e.code) } else { nil } }
    }

    static func sentFrames(_ out: ActionBuffer) -> [(ConnectionID, Frame)] {
        out.actions.compactMap { if case .send(let id, let f) = $0 { (id, f) } else { nil } }
    }

    @Test func aMessageGoesOutOnItsConnectionAndItsReplyComesBackOnce() throws {
        var m = MessageChannel(shared: SharedLinkConfig(Self.config))
        var out = ActionBuffer()
        let id = m.send(.dictionary(["q": 1]), replyExpected: true, replyTimeoutMs: nil, on: 4, now: 100, out: &out.messages)
        let sent = Self.sentFrames(out)
        #expect(sent.count == 1 && sent[0].0 == 4 && sent[0].1.kind == .message)
        #expect(try FrameBodies.Message.decode(sent[0].1.body).id == id)
        #expect(m.pending.map(\.deadlineMs) == [100 + Self.config.messageReplyTimeoutMs])

        let reply = Frame(.messageReply, FrameBodies.Message(id: id, payload: .dictionary(["a": 2]), replyExpected: false).encode())
        var back = ActionBuffer()
        try m.onReply(reply, on: 3, out: &back.messages)  // another connection: not the reply
        #expect(back.actions.isEmpty && m.pending.count == 1)
        try m.onReply(reply, on: 4, out: &back.messages)
        try m.onReply(reply, on: 4, out: &back.messages)  // a duplicate finds nothing pending
        #expect(back.actions == [.deliver(.didReceiveMessageReply(id, .dictionary(["a": 2])))])
        #expect(m.pending.isEmpty && m.nextDeadlineMs == nil)
    }

    @Test func withoutAConnectionAMessageFailsAtOnceAndNothingIsSent() {
        var m = MessageChannel(shared: SharedLinkConfig(Self.config))
        var out = ActionBuffer()
        let a = m.send(.data([1]), replyExpected: false, replyTimeoutMs: nil, on: nil, now: 0, out: &out.messages)
        let b = m.send(.data([UInt8](repeating: 0, count: PayloadLimits.messageBytes + 1)), replyExpected: true, replyTimeoutMs: nil, on: 1, now: 0, out: &out.messages)
        #expect(b == a + 1)
        #expect(Self.failures(out).map(\.1) == [.notReachable, .payloadTooLarge])
        #expect(Self.sentFrames(out).isEmpty && m.pending.isEmpty)
    }

    @Test func theReceiverDropsDuplicatesAndRefusesMessagesOvertakenInTransit() throws {
        var m = MessageChannel(shared: SharedLinkConfig(Self.config))
        var out = ActionBuffer()
        let five = FrameBodies.Message(id: 5, payload: .data([5]), replyExpected: false)
        #expect(m.receive(five, on: 1, out: &out.messages) == .fresh)
        #expect(m.receive(five, on: 1, out: &out.messages) == .duplicate)
        #expect(out.actions.isEmpty)
        let three = FrameBodies.Message(id: 3, payload: .data([3]), replyExpected: false)
        #expect(m.receive(three, on: 1, out: &out.messages) == .outOfOrder)
        let refusal = try FrameBodies.MessageError.decode(Self.sentFrames(out)[0].1.body)
        #expect(refusal.id == 3 && refusal.error.code == .deliveryFailed)
        // A new link starts the count again.
        m.linkUp()
        #expect(m.receive(three, on: 2, out: &out.messages) == .fresh)
    }

    /// The duplicate check covers exactly the last `recentMessageIDsKept` ids received, however
    /// many came before (the window's storage is trimmed many ids at a time): an earlier
    /// message seen again inside that window is a duplicate, one beyond it is refused as
    /// overtaken. After every fresh id the ids at the window's edge are tried (a duplicate
    /// changes nothing), and a new link partway empties the window.
    @Test(arguments: [(0, 0x5EED_0000 as UInt64), (1, 0x5EED_0001), (5, 0x5EED_0005), (64, 0x5EED_0040), (300, 0x5EED_012C)])
    func theDuplicateWindowIsTheLastIDsKept(kept: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var config = Self.config
        config.recentMessageIDsKept = kept
        var m = MessageChannel(shared: SharedLinkConfig(config))
        var out = ActionBuffer()
        var received: [MessageID] = []
        var next: MessageID = 1
        let linkUpAt = 1_500 + Int(rng.next() % 200)
        func check(back: Int, _ what: String) -> Bool {
            guard back >= 0, back < received.count else { return true }
            let id = received[received.count - 1 - back]
            let expected: MessageChannel.Arrival = back < kept ? .duplicate : .outOfOrder
            let arrival = m.receive(FrameBodies.Message(id: id, payload: .data([]), replyExpected: false), on: 1, out: &out.messages)
            #expect(arrival == expected, "seed \(seed), \(what): id \(id), \(back) back of \(received.count), kept \(kept)")
            return arrival == expected
        }
        for step in 0..<3_000 {
            if step == linkUpAt {
                m.linkUp()
                received = []  // the new link's window starts empty, and its ids start again
                next = 1 + MessageID(rng.next() % 5)
            }
            if received.isEmpty || rng.next() % 3 != 0 {
                next += 1 + MessageID(rng.next() % 3)
                let fresh = m.receive(FrameBodies.Message(id: next, payload: .data([]), replyExpected: false), on: 1, out: &out.messages)
                #expect(fresh == .fresh, "seed \(seed), step \(step)")
                if fresh != .fresh { return }
                received.append(next)
                for back in [kept - 1, kept, kept + 1] where !check(back: back, "step \(step), at the edge") { return }
            } else if !check(back: Int(rng.next() % UInt64(min(received.count, kept + 40))), "step \(step)") {
                return
            }
        }
    }

    @Test func aDeliveredMessageAwaitsItsReplyOrGetsAReceipt() throws {
        var m = MessageChannel(shared: SharedLinkConfig(Self.config))
        var out = ActionBuffer()
        m.deliver(FrameBodies.Message(id: 7, payload: .data([7]), replyExpected: true), .data([7]), on: 2, out: &out.messages)
        m.deliver(FrameBodies.Message(id: 8, payload: .data([8]), replyExpected: false), .data([8]), on: 2, out: &out.messages)
        #expect(m.awaitingReply == [7: 2])
        #expect(Self.sentFrames(out).map(\.1.kind) == [.messageReply])  // 8's receipt
        #expect(failCode(m.reply(to: 9, with: .data([]), activeID: 2, out: &out.messages)) == .invalidParameter)
        #expect(failCode(m.reply(to: 7, with: .data([]), activeID: 3, out: &out.messages)) == .notReachable)
        #expect(m.awaitingReply.isEmpty, "a reply on a gone link is not asked for again")
    }

    @Test func pendingMessagesFailWhenTheirTimeRunsOutOrTheirLinkGoesDown() {
        var m = MessageChannel(shared: SharedLinkConfig(Self.config))
        var out = ActionBuffer()
        let early = m.send(.data([1]), replyExpected: true, replyTimeoutMs: 50, on: 1, now: 0, out: &out.messages)
        let receipt = m.send(.data([2]), replyExpected: false, replyTimeoutMs: 60, on: 1, now: 0, out: &out.messages)
        let other = m.send(.data([3]), replyExpected: true, replyTimeoutMs: 1_000, on: 2, now: 0, out: &out.messages)
        m.deliver(FrameBodies.Message(id: 1, payload: .data([]), replyExpected: true), .data([]), on: 1, out: &out.messages)
        #expect(m.nextDeadlineMs == 50)
        out = ActionBuffer()
        m.expire(now: 49, out: &out.messages)
        #expect(out.actions.isEmpty)
        m.expire(now: 60, out: &out.messages)
        #expect(Self.failures(out).map(\.0) == [early, receipt])
        #expect(Self.failures(out).map(\.1) == [.messageReplyTimedOut, .deliveryFailed])
        out = ActionBuffer()
        m.linkDown(1, WCError(.notReachable, "down"), out: &out.messages)
        #expect(out.actions.isEmpty && m.awaitingReply.isEmpty, "nothing of link 1 pending; its peer message can no longer be answered")
        m.linkDown(2, WCError(.notReachable, "down"), out: &out.messages)
        #expect(Self.failures(out).map(\.0) == [other])
    }
}
