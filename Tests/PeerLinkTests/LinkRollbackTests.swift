import Testing
@testable import PeerLink
import Shared

@Suite("Peer store rolled back")
struct LinkRollbackTests {
    @Test func aPeerThatLostAcknowledgedTransfersIsDetectedAtTheHandshake() throws {
        var p = SessionPair.connected()
        for n in 1...3 { _ = try p.watch.transferUserInfo(["n": .int(Int64(n))], now: p.now).get() }
        p.collect()
        p.run()
        #expect(p.userInfos(.phone).count == 3)
        #expect(p.watch.persistent.peerAckedThrough == 3)

        // The phone's store goes back in time: same incarnation, but it only holds the first transfer.
        p.disconnect()
        var rolledBack = p.phone.persistent
        rolledBack.lastDeliveredFromPeer = 1
        p.phone = LinkSession(config: p.phone.config, persistent: rolledBack, seed: 9)
        p.phone.activate()
        p.watchEvents = []
        p.connect()
        p.run()
        #expect(p.watch.isConnected)
        #expect(p.events(.watch) { $0 == .peerLostData }.count == 1)
        #expect(p.watchLogs.contains { $0.contains("lost data it had acknowledged") })
        #expect(p.watch.persistent.peerAckedThrough == 1)
    }

    @Test func anOrdinaryReconnectIsNotTakenForARollback() throws {
        var p = SessionPair.connected()
        _ = try p.watch.transferUserInfo(["n": 1], now: p.now).get()
        p.collect()
        p.run()
        p.disconnect()
        p.watchEvents = []
        p.connect()
        p.run()
        #expect(p.watch.isConnected)
        #expect(p.events(.watch) { $0 == .peerLostData }.isEmpty)
    }
}
