import Testing
@testable import PeerLinkCore

/// A slow link is slow, not lost: a peer whose frame takes longer than the silence timeout to
/// cross is still heard (its bytes arrive), and nothing is resent while the first copy is
/// still on its way. A genuinely lost frame is still resent.
@Suite("Slow link")
struct SlowLinkTests {
    /// Ten minutes of a frame crossing a slow link: the watch's long frame (and everything
    /// behind it) is still on its way to the phone, whose bytes arrive every 500 ms; the
    /// other direction is fast.
    static func crossSlowly(_ p: inout SessionPair, forMs total: EpochMs) -> [Frame] {
        var towardPhone: [Frame] = []
        var elapsed: EpochMs = 0
        while elapsed < total && p.phone.isConnected && p.watch.isConnected {
            p.advance(500)
            elapsed += 500
            p.phone.onBytesReceived(p.connection, now: p.now)
            p.collect()
            while let i = p.wire.firstIndex(where: { $0.to == .watch }) { p.deliver(.watch, p.wire.remove(at: i).frame) }
            towardPhone += p.wire.map(\.frame)  // queued behind the long frame
            p.wire.removeAll()
        }
        return towardPhone
    }

    @Test func aPeerWhoseFrameIsStillCrossingIsNotDeclaredSilent() {
        var p = SessionPair.connected()
        _ = Self.crossSlowly(&p, forMs: 10 * p.phone.config.peerSilenceTimeoutMs)
        #expect(p.phone.isConnected && p.watch.isConnected)
        #expect(p.closed.isEmpty, "bytes arriving are hearing from the peer")
    }

    @Test func nothingIsResentWhileTheFirstCopyIsStillCrossing() throws {
        var p = SessionPair.connected()
        _ = try p.watch.transferUserInfo(["workout": .int(1)], now: p.now).get()
        p.collect()
        var towardPhone = p.wire.map(\.frame)
        p.wire.removeAll()
        towardPhone += Self.crossSlowly(&p, forMs: 60_000)
        #expect(towardPhone.filter { $0.kind == .userInfo }.count == 1, "one copy on the slow pipe, not one per retransmit time")
        #expect(p.watch.stats.retransmits == 0)
        // The frame and the probes behind it arrive: one delivery, acknowledged, nothing left.
        for f in towardPhone { p.deliver(.phone, f) }
        p.run()
        #expect(p.userInfos(.phone).count == 1)
        #expect(p.watch.outboxes.allSatisfy { $0.isEmpty })
        #expect(p.phone.isConnected && p.watch.isConnected)
    }

    @Test func aLostFrameIsResentOnceThePeerAnswersAProbe() throws {
        var p = SessionPair.connected()
        _ = try p.watch.transferUserInfo(["workout": .int(1)], now: p.now).get()
        p.collect()
        p.wire.removeAll()  // the user info is lost
        p.advance(p.watch.config.retransmitAfterMs)
        #expect(p.wire.map(\.frame.kind) == [.ping], "a probe, not a resend: the frame may still be crossing")
        p.run()  // ping, pong (the peer has seen everything: the frame was lost), resend, ack
        #expect(p.watch.stats.retransmits == 1)
        #expect(p.userInfos(.phone).count == 1)
        #expect(p.watch.outboxes.allSatisfy { $0.isEmpty })
    }

    @Test func aSilentPeerIsStillDeclaredGoneWhileAFrameAwaitsItsAcknowledgement() throws {
        var p = SessionPair.connected()
        _ = try p.watch.transferUserInfo(["workout": .int(1)], now: p.now).get()
        p.collect()
        var elapsed: EpochMs = 0
        while p.watch.isConnected && elapsed < 60_000 {
            p.wire.removeAll()  // nothing crosses, no bytes at all
            p.advance(100)
            elapsed += 100
        }
        #expect(elapsed == p.watch.config.peerSilenceTimeoutMs)
        #expect(p.closed.contains { $0.0 == .watch && $0.1 == "peer silent" })
    }
}
