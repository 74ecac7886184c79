import Testing
@testable import PeerLinkCore

/// `HandshakeMachine` alone: a watch's and a phone's machine talking to each other.
@Suite("HandshakeMachine")
struct HandshakeMachineTests {
    static func machine(_ role: DeviceRole, secret: UInt8) -> HandshakeMachine {
        HandshakeMachine(shared: SharedLinkConfig(LinkConfig(role: role, pairingSecret: Array(repeating: secret, count: 32))))
    }
    static func key(_ b: UInt8) -> [UInt8] { Array(repeating: b, count: 32) }
    static func info(_ incarnation: UInt64) -> SessionInfo {
        SessionInfo(incarnation: incarnation, knownPeerIncarnation: 0, lastDelivered: 0, lastComplicationDelivered: 0,
                    contextVersionReceived: 0, lastFileDelivered: 0, appState: AppState())
    }
    static func frames(_ out: ActionBuffer) -> [Frame] { out.actions.compactMap { if case .send(_, let f) = $0 { f } else { nil } } }
    static func keys(_ out: ActionBuffer) -> [TransportKeys] { out.actions.compactMap { if case .startSealing(_, let k) = $0 { k } else { nil } } }

    @Test func bothSidesComeUpWithEachOthersSessionStateAndSealFromTheRightFrame() {
        let watch = Self.machine(.watch, secret: 7), phone = Self.machine(.phone, secret: 7)
        var wOut = ActionBuffer(), pOut = ActionBuffer()
        let wOpened = watch.open(1, isInitiator: true, ephemeralKey: Self.key(1), now: 0, out: &wOut.handshake)
        let pOpened = phone.open(9, isInitiator: false, ephemeralKey: Self.key(2), now: 0, out: &pOut.handshake)
        #expect(wOpened.refusal == nil && pOpened.refusal == nil && Self.frames(pOut).isEmpty)
        var w = wOpened.0, p = pOpened.0
        let hello = Self.frames(wOut)[0]
        guard case .next(let p2) = phone.onFrame(p, hello, on: 9, me: Self.info(0xB), out: &pOut.handshake) else { Issue.record("hello refused"); return }
        p = p2
        #expect(pOut.actions.map { if case .send = $0 { "send" } else { "seal" } } == ["send", "seal"], "the reply goes in the clear, then sealing starts")
        let reply = Self.frames(pOut)[0]
        wOut = ActionBuffer()
        guard case .next(let w2) = watch.onFrame(w, reply, on: 1, me: Self.info(0xA), out: &wOut.handshake) else { Issue.record("reply refused"); return }
        w = w2
        #expect(wOut.actions.map { if case .send = $0 { "send" } else { "seal" } } == ["seal", "send"], "auth is the first sealed frame")
        #expect(Self.keys(wOut).count == 1 && Self.keys(pOut).count == 1)
        pOut = ActionBuffer()
        #expect(phone.onFrame(p, Self.frames(wOut)[0], on: 9, me: Self.info(0xB), out: &pOut.handshake) == .up(Self.info(0xA)))
        #expect(watch.onFrame(w, Self.frames(pOut)[0], on: 1, me: Self.info(0xA), out: &wOut.handshake) == .up(Self.info(0xB)))
    }

    @Test func aPeerWithoutTheSecretIsRefusedAndFramesOutOfOrderToo() {
        let watch = Self.machine(.watch, secret: 7), phone = Self.machine(.phone, secret: 8)
        var out = ActionBuffer()
        let (_, _) = watch.open(1, isInitiator: true, ephemeralKey: Self.key(1), now: 0, out: &out.handshake)
        let (p, _) = phone.open(9, isInitiator: false, ephemeralKey: Self.key(2), now: 0, out: &out.handshake)
        let hello = Self.frames(out)[0]
        #expect(phone.onFrame(p, hello, on: 9, me: Self.info(0xB), out: &out.handshake)
                == .refuse("pairing proof failed: the peer does not hold our pairing secret", tellPeer: true))
        guard case .refuse(_, true) = phone.onFrame(p, Frame(.auth, []), on: 9, me: Self.info(0xB), out: &out.handshake) else {
            Issue.record("auth before hello was not refused"); return
        }
        let unpaired = HandshakeMachine(shared: SharedLinkConfig(LinkConfig(role: .watch, pairingSecret: nil)))
        #expect(unpaired.open(2, isInitiator: true, ephemeralKey: Self.key(3), now: 0, out: &out.handshake).refusal == "this watch is not paired")
    }
}
