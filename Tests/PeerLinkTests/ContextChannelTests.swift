import Testing
@testable import PeerLinkCore

/// `ContextChannel` alone, over its durable slice `ApplicationContextState`.
@Suite("ContextChannel")
struct ContextChannelTests {
    static func sent(_ out: ActionBuffer) -> [Frame] {
        out.actions.compactMap { if case .send(_, let f) = $0 { f } else { nil } }
    }

    @Test func aNewContextIsNumberedStoredAndSentOnceUntilAcknowledged() throws {
        let c0 = ContextChannel()
        var c = c0
        var state = ApplicationContextState()
        var out = ActionBuffer()
        #expect(c.update(["a": 1], state: &state, out: &out.context) == .stored)
        #expect(c.update(["a": 1], state: &state, out: &out.context) == .unchanged, "the same context is not numbered anew")
        #expect(state.version == 1 && out.actions.count == 1, "one row: the sent context")
        #expect(c.wouldSend(state) && !c.awaitsAck(state))
        c.send(state, on: 3, out: &out.context)
        #expect(try FrameBodies.Context.decode(Self.sent(out)[0].body).version == 1)
        #expect(!c.wouldSend(state) && c.awaitsAck(state), "on the wire: not sent again, awaits its ack")
        #expect(try !c.onAck(Frame(.contextAck, FrameBodies.encodeVarint(2)), state: &state), "a version never made")
        #expect(try c.onAck(Frame(.contextAck, FrameBodies.encodeVarint(1)), state: &state))
        #expect(try !c.onAck(Frame(.contextAck, FrameBodies.encodeVarint(1)), state: &state), "not news")
        #expect(!c.awaitsAck(state) && !state.peerLacksCurrent && !c.wouldSend(state))
    }

    @Test func aRetransmissionOrANewLinkSendsAgainWhatThePeerLacks() {
        var c = ContextChannel()
        var state = ApplicationContextState()
        var out = ActionBuffer()
        _ = c.update(["a": 1], state: &state, out: &out.context)
        c.send(state, on: 1, out: &out.context)
        c.rewind()
        #expect(c.wouldSend(state))
        c.send(state, on: 1, out: &out.context)
        c.linkUp()
        #expect(c.wouldSend(state))
        #expect(c.peerHolds(1, state: &state), "the handshake says the peer holds version 1")
        #expect(!c.wouldSend(state) && !c.peerHolds(1, state: &state))
    }

    @Test func theReceiverKeepsOnlyANewerVersion() throws {
        let c = ContextChannel()
        var state = ApplicationContextState()
        let (v, ctx) = try ContextChannel.decode(Frame(.context, FrameBodies.Context(version: 2, payload: CanonicalEncoding.encode(["b": 2])).encode()))
        #expect(c.receive(v, ctx, state: &state))
        #expect(!c.receive(1, ["old": true], state: &state))
        #expect(state.received == ["b": 2] && state.receivedVersion == 2)
        #expect(throws: ByteReaderError.self) {
            try ContextChannel.decode(Frame(.context, FrameBodies.Context(version: 3, payload: CanonicalEncoding.encode([1, 2])).encode()))
        }
        var out = ActionBuffer()
        c.acknowledge(2, on: 5, out: &out.context)
        #expect(out.actions == [.send(5, Frame(.contextAck, FrameBodies.encodeVarint(2)))])
    }
}
