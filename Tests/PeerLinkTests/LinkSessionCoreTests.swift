import Testing
@testable import PeerLinkCore

@Suite("Link session core")
struct LinkSessionCoreTests {
    @Test func handshakeBringsBothSidesUp() {
        var p = SessionPair()
        p.connect()
        #expect(p.wire.map(\.frame.kind) == [.hello])
        p.run()
        #expect(p.phone.isConnected)
        #expect(p.watch.isConnected)
        #expect(p.phoneEvents.contains(.linkDidChange(up: true)))
        #expect(p.watchEvents.contains(.linkDidChange(up: true)))
        #expect(p.phone.isWatchAppInstalled)
        #expect(p.closed.isEmpty)
    }

    @Test func userInfoIsDeliveredOnceAndAcknowledgedAfterTheReceiverPersisted() throws {
        var p = SessionPair.connected()
        let info: PlistValue = ["workout": "w1", "bpm": 142]
        let t = try p.watch.transferUserInfo(info, now: p.now).get()
        var actions = p.watch.drainActions()
        // The outbox row is persisted before the frame is sent.
        let persistIndex = actions.firstIndex { if case .persist = $0 { true } else { false } }
        let sendIndex = actions.firstIndex { if case .send = $0 { true } else { false } }
        #expect(persistIndex != nil && sendIndex != nil && persistIndex! < sendIndex!)
        for a in actions { p.apply(a, from: .watch) }
        #expect(p.watch.outstandingUserInfoTransfers.map(\.id) == [t.id])

        // Deliver the frame to the phone by hand: delivery, then its receive log, then the ack.
        let (_, frame) = p.wire.removeFirst()
        p.phone.onFrame(p.connection, frame, now: p.now)
        p.phone.endOfInput(now: p.now)
        actions = p.phone.drainActions()
        let kinds = actions.map { a -> String in
            switch a {
            case .deliver(.didReceiveUserInfo): "deliver"
            case .persist: "persist"
            case .send(_, let f): "send \(f.kind)"
            default: "other"
            }
        }
        #expect(kinds == ["deliver", "persist", "send userInfoAck"])
        for a in actions { p.apply(a, from: .phone) }
        p.run()
        #expect(p.phoneEvents.filter { if case .didReceiveUserInfo(info, false) = $0 { true } else { false } }.count == 1)
        #expect(p.watch.outstandingUserInfoTransfers.isEmpty)
        #expect(p.watchEvents.contains { if case .didFinishUserInfoTransfer(let done, nil) = $0 { done.id == t.id } else { false } })
        #expect(p.watchStore.count(LinkPersistence.outbox) == 0)
    }

    @Test func duplicatedFrameIsNotDeliveredTwice() throws {
        var p = SessionPair.connected()
        _ = try p.watch.transferUserInfo(["n": 1], now: p.now).get()
        p.collect()
        let dup = p.wire[0]
        p.wire.append(dup)
        p.run()
        let received = p.phoneEvents.filter { if case .didReceiveUserInfo = $0 { true } else { false } }
        #expect(received.count == 1)
        #expect(p.phone.stats.userInfoDuplicatesDropped == 1)
    }

    @Test func wrongPairingSecretIsRefusedBeforeAnyPayload() throws {
        var p = SessionPair(watchSecret: Array(repeating: 9, count: 32))
        p.connect()
        p.run()
        #expect(!p.phone.isConnected)
        #expect(!p.watch.isConnected)
        #expect(p.closed.contains { $0.0 == .watch && $0.1.contains("pairing proof failed") })
        #expect(p.phoneLogs.contains { $0.contains("rejected connection 1: pairing proof failed: the peer does not hold our pairing secret") })
        #expect(p.watchLogs.contains { $0.contains("peer refused connection 1: pairing proof failed") })
    }

    @Test func unpairedPhoneRefusesEveryPeer() {
        var p = SessionPair(phoneSecret: nil)
        p.connect()
        p.run()
        #expect(!p.phone.isConnected)
        #expect(p.closed.contains { $0.0 == .phone && $0.1.contains("not paired") })
    }

    @Test func channelFrameBeforeTheHandshakeClosesTheConnection() {
        var p = SessionPair()
        p.phone.onConnectionOpened(p.connection, isInitiator: false, ephemeralKey: Array(repeating: 1, count: 32), now: p.now)
        p.phone.onFrame(p.connection, Frame(.userInfo, [1, 0, 0, 0x09, 0]), now: p.now)
        p.collect()
        #expect(p.closed.contains { $0.0 == .phone && $0.1.contains("out of protocol order") })
        #expect(p.phoneEvents.allSatisfy { if case .didReceiveUserInfo = $0 { false } else { true } })
    }
}
