import Testing
@testable import PeerLinkCore

/// `UserInfoChannel` alone, over its durable slice `UserInfoState`.
@Suite("UserInfoChannel")
struct UserInfoChannelTests {
    static func config(_ configure: (inout LinkConfig) -> Void = { _ in }) -> LinkConfig {
        var c = LinkConfig(role: .phone, pairingSecret: nil)
        configure(&c)
        return c
    }
    static func frames(_ out: ActionBuffer) -> [FrameBodies.UserInfo] {
        out.actions.compactMap { if case .send(_, let f) = $0, f.kind == .userInfo { try? FrameBodies.UserInfo.decode(f.body) } else { nil } }
    }
    static func queue(_ ch: inout UserInfoChannel, _ state: inout UserInfoState, _ n: Int, _ stream: UserInfoStream = .ordinary) {
        var out = ActionBuffer()
        for i in 0..<n {
            let v: PlistValue = ["i": .int(Int64(i))]
            _ = ch.enqueue(v, encoded: CanonicalEncoding.encode(v), stream: stream, now: 0, state: &state, out: &out.userInfo)
        }
    }

    @Test func queuedTransfersGoOutChainedComplicationFirstAndOnlyOncePerLink() {
        var state = UserInfoState()
        var ch = UserInfoChannel(shared: SharedLinkConfig(Self.config()), state: &state)
        Self.queue(&ch, &state, 2)
        Self.queue(&ch, &state, 1, .complication)
        var out = ActionBuffer()
        #expect(ch.pump(on: 1, state: &state, out: &out.userInfo), "highestSeqSent moved")
        #expect(Self.frames(out).map(\.seq) == [3, 1, 2])
        #expect(Self.frames(out).map(\.prev) == [0, 0, 1])
        #expect(state.highestSeqSent == 3 && ch.awaitsAck)
        out = ActionBuffer()
        #expect(!ch.pump(on: 1, state: &state, out: &out.userInfo) && out.actions.isEmpty)
        ch.rewind()
        _ = ch.pump(on: 1, state: &state, out: &out.userInfo)
        #expect(Self.frames(out).map(\.seq) == [3, 1, 2], "a retransmission sends it all again")
    }

    @Test func theWindowBoundsWhatIsInFlightAndAnAckFinishesTransfers() {
        var state = UserInfoState()
        var ch = UserInfoChannel(shared: SharedLinkConfig(Self.config { $0.maxUserInfoInFlight = 2 }), state: &state)
        Self.queue(&ch, &state, 3)
        var out = ActionBuffer()
        _ = ch.pump(on: 1, state: &state, out: &out.userInfo)
        #expect(Self.frames(out).map(\.seq) == [1, 2])
        out = ActionBuffer()
        #expect(ch.peerDelivered(.ordinary, through: 2, state: &state, out: &out.userInfo))
        let finished = out.actions.compactMap { if case .deliver(.didFinishUserInfoTransfer(let t, nil)) = $0 { t.seq } else { nil } }
        #expect(finished == [1, 2] && state.peerAckedThrough == 2 && !ch.awaitsAck)
        out = ActionBuffer()
        _ = ch.pump(on: 1, state: &state, out: &out.userInfo)
        #expect(Self.frames(out).map(\.seq) == [3])
    }

    @Test func theReceiverDeliversInOrderOnceAndOwesAnAck() throws {
        let config = Self.config()
        var state = UserInfoState()
        var ch = UserInfoChannel(shared: SharedLinkConfig(config), state: &state)
        var stats = LinkStats()
        func frame(_ seq: UInt64, prev: UInt64) -> Frame {
            Frame(.userInfo, FrameBodies.UserInfo(seq: seq, prev: prev, isComplicationStream: false, isCurrent: false, payload: CanonicalEncoding.encode(["s": .int(Int64(seq))])).encode())
        }
        #expect(try ch.receive(frame(2, prev: 1), state: &state, stats: &stats) == nil, "1 is missing: wait")
        #expect(try ch.receive(frame(1, prev: 0), state: &state, stats: &stats)?.payload == ["s": 1])
        #expect(try ch.receive(frame(2, prev: 1), state: &state, stats: &stats)?.payload == ["s": 2])
        #expect(try ch.receive(frame(2, prev: 1), state: &state, stats: &stats) == nil)
        #expect(stats.userInfoDelivered == 2 && stats.userInfoDuplicatesDropped == 1 && state.lastDeliveredFromPeer == 2)
        #expect(ch.takeOwedAck(state) == FrameBodies.UserInfoAck(ordinary: 2, complication: 0))
        #expect(ch.takeOwedAck(state) == nil)
        // The sender cancels 3 before it arrives: 3 is refused on this link, until a new one.
        let answer = try ch.onCancel(Frame(.userInfoCancel, FrameBodies.UserInfoCancel(seq: 3, isComplicationStream: false).encode()), state: state)
        #expect(!answer.wasDelivered)
        #expect(try ch.receive(frame(3, prev: 2), state: &state, stats: &stats) == nil)
        ch.linkUp()
        #expect(try ch.receive(frame(3, prev: 2), state: &state, stats: &stats) != nil)
    }

    @Test func aCancelledTransferIsDroppedOrAskedAboutByWhetherItLeft() throws {
        var state = UserInfoState()
        var ch = UserInfoChannel(shared: SharedLinkConfig(Self.config()), state: &state)
        Self.queue(&ch, &state, 2)
        var out = ActionBuffer()
        #expect(ch.cancel(id: "u2", link: 1, state: state, out: &out.userInfo), "never sent: dropped at once")
        #expect(ch[.ordinary].outbox.count == 1 && out.actions.count == 1)
        _ = ch.pump(on: 1, state: &state, out: &out.userInfo)
        out = ActionBuffer()
        #expect(ch.cancel(id: "u1", link: 1, state: state, out: &out.userInfo))
        #expect(out.actions.last == .send(1, Frame(.userInfoCancel, FrameBodies.UserInfoCancel(seq: 1, isComplicationStream: false).encode())))
        #expect(!ch.cancel(id: "u1", link: 1, state: state, out: &out.userInfo), "already cancelled")
        let reply = Frame(.userInfoCancelReply, FrameBodies.UserInfoCancel(seq: 1, isComplicationStream: false, wasDelivered: false).encode())
        #expect(try ch.onCancelReply(reply, state: &state, out: &out.userInfo) == (answered: true, metaChanged: false))
        #expect(ch[.ordinary].outbox.isEmpty && ch.outstandingCount == 0)
    }
}
