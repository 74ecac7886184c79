import Testing
@testable import PeerLinkCore

/// `Liveness` and `ConnectionTable` alone: the link's timers and the connections' phases.
@Suite("Liveness and connection phases")
struct LivenessTests {
    static let config = LinkConfig(role: .watch, pairingSecret: nil)

    @Test func aDueRetransmissionWaitsForAPongUnlessThePeerShowedItSawEverything() {
        var l = Liveness(now: 0)
        l.noteSent(.userInfo)
        let due = l.retransmitDueMs(Self.config)
        #expect(l.retransmitStep(now: due - 1, config: Self.config) == .none)
        #expect(l.retransmitStep(now: due, config: Self.config) == .probe(sendPing: true))
        l.noteSent(.ping)
        #expect(l.retransmitStep(now: due, config: Self.config) == .probe(sendPing: false), "one probe until more data goes out")
        let retransmitNow = l.pong(now: due, awaitsAck: true, config: Self.config)
        #expect(retransmitNow, "the pong shows the frames crossed: they were lost")
        l.retransmitting(now: due)
        #expect(l.retransmitDueMs(Self.config) == due + 2 * Self.config.retransmitAfterMs, "the wait doubles without progress")
        l.lastProgressMs = due + 10
        #expect(l.retransmitDueMs(Self.config) == due + 10 + Self.config.retransmitAfterMs, "progress starts it again")
    }

    @Test func deadlinesAreTheHeartbeatTheSilenceAndTheRetransmission() {
        var l = Liveness(now: 100)
        #expect(l.deadline(includingLiveness: true, awaitsAck: false, config: Self.config) == 100 + Self.config.heartbeatIntervalMs)
        #expect(l.deadline(includingLiveness: false, awaitsAck: false, config: Self.config) == nil)
        #expect(l.deadline(includingLiveness: false, awaitsAck: true, config: Self.config) == 100 + Self.config.retransmitAfterMs)
        l.heardFrame(now: 500)
        l.heardBytes(now: 400)
        #expect(l.lastHeardMs == 500 && l.framesReceived == 1 && l.nowMs == 500)
    }

    @Test func aConnectionGoesFromTheHandshakeToTheLinkAndBackToIdle() {
        var t = ConnectionTable()
        let h = Handshake(isInitiator: false, phase: .awaitingHello, noise: nil, ephemeralKey: [], openedMs: 1)
        t[handshake: 1] = h
        t[handshake: 2] = h
        #expect(t.handshakeCount == 2 && t.active == nil && t.phase(2) == .handshaking(h))
        t[handshake: 2] = nil
        t.activate(2, now: 5)
        #expect(t.activeID == 2 && t.handshakeCount == 1 && t.phase(2) == .active(LinkUp(id: 2, now: 5)))
        t.active!.liveness.nowMs = 9
        #expect(t.active?.liveness.nowMs == 9, "changed in place")
        // A shell numbering a new connection like the link: the handshake comes first.
        t[handshake: 2] = h
        #expect(t.phase(2) == .handshaking(h) && t.activeID == 2)
        #expect(t.close(1) == nil && t.phase(1) == .idle)
        #expect(t.close(2)?.liveness.upSinceMs == 5, "closing the number ends its handshake and its link")
        #expect(t.activeID == nil && t.handshakeCount == 0 && t.phase(2) == .idle)
    }
}
