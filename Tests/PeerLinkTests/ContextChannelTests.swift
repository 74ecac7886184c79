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

    @Test func aRetransmissionOrANewLinkSendsAgainWhatThePeerLacks() throws {
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
        #expect(state.version == 2 && state.ackedVersion == 1 && c.wouldSend(state),
                "never acknowledged to this store: numbered again and sent, the peer may hold a lost version 1")
        c.send(state, on: 1, out: &out.context)
        #expect(try c.onAck(Frame(.contextAck, FrameBodies.encodeVarint(2)), state: &state))
        c.linkUp()
        #expect(!c.peerHolds(2, state: &state) && !c.wouldSend(state), "acknowledged: the handshake changes nothing")
        #expect(c.peerHolds(0, state: &state) && c.wouldSend(state) && state.version == 2, "a peer that lost it gets it again")
    }

    /// The sweep's rollback case (Examples/ShoppingList found it): this store made context
    /// version 3, the peer stored it, then this store's log lost that write, and the app set
    /// another context, numbered 3 again. At the next handshake the peer says it holds 3.
    @Test func aVersionMadeAgainAfterAStoreRollbackStillReachesThePeer() {
        var mine = ContextChannel()
        let theirs = ContextChannel()
        var state = ApplicationContextState()
        var peer = ApplicationContextState()
        var out = ActionBuffer()
        _ = mine.update(["list": "lost"], state: &state, out: &out.context)
        _ = mine.update(["list": "b"], state: &state, out: &out.context)
        var lost = state
        _ = mine.update(["list": "c"], state: &lost, out: &out.context)
        #expect(theirs.receive(lost.version, lost.sent!, state: &peer) == .stored, "the peer holds version 3 of the lost history")
        _ = mine.update(["list": "new"], state: &state, out: &out.context)
        #expect(state.version == 3 && state.ackedVersion == 0)
        mine.linkUp()
        #expect(mine.peerHolds(peer.receivedVersion, state: &state))
        #expect(mine.wouldSend(state), "without renumbering the peer would keep the lost context under version 3")
        #expect(theirs.receive(state.version, state.sent!, state: &peer) == .stored)
        #expect(peer.received == ["list": "new"])
    }

    @Test func aContextNumberedAgainIsKeptButNotDeliveredTwice() {
        let c = ContextChannel()
        var state = ApplicationContextState()
        #expect(c.receive(1, ["a": 1], state: &state) == .stored)
        #expect(c.receive(2, ["a": 1], state: &state) == .renumbered)
        #expect(state.receivedVersion == 2)
        #expect(c.receive(2, ["a": 2], state: &state) == .ignored)
        #expect(c.receive(3, ["a": 2], state: &state) == .stored)
    }

    @Test func theReceiverKeepsOnlyANewerVersion() throws {
        let c = ContextChannel()
        var state = ApplicationContextState()
        let (v, ctx) = try ContextChannel.decode(Frame(.context, FrameBodies.Context(version: 2, payload: CanonicalEncoding.encode(["b": 2])).encode()))
        #expect(c.receive(v, ctx, state: &state) == .stored)
        #expect(c.receive(1, ["old": true], state: &state) == .ignored)
        #expect(state.received == ["b": 2] && state.receivedVersion == 2)
        #expect(throws: ByteReaderError.self) {
            try ContextChannel.decode(Frame(.context, FrameBodies.Context(version: 3, payload: CanonicalEncoding.encode([1, 2])).encode()))
        }
        var out = ActionBuffer()
        c.acknowledge(2, on: 5, out: &out.context)
        #expect(out.actions == [.send(5, Frame(.contextAck, FrameBodies.encodeVarint(2)))])
    }
}
