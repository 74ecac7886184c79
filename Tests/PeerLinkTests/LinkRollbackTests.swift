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

    /// The sender's store goes back to after its first transfer; while the link is down it
    /// queues four more, whose first two numbers the peer already delivered (in the lost
    /// history). The reused numbers are renumbered, and so is what follows them, so the peer
    /// gets the four once each and in the order they were queued.
    @Test func aSenderWhoseStoreWentBackKeepsItsStreamFirstInFirstOut() throws {
        var p = SessionPair.connected()
        _ = try p.watch.transferUserInfo(["n": 1], now: p.now).get()
        p.collect()
        p.run()
        let afterFirst = p.watch.persistent
        for n in 2...3 { _ = try p.watch.transferUserInfo(["n": .int(Int64(n))], now: p.now).get() }
        p.collect()
        p.run()
        #expect(p.userInfos(.phone).count == 3)

        p.disconnect()
        p.watch = LinkSession(config: p.watch.config, persistent: afterFirst, seed: 9)
        p.watch.activate()
        for n in 10...13 { _ = try p.watch.transferUserInfo(["n": .int(Int64(n))], now: p.now).get() }
        #expect(p.watch.outstandingUserInfoTransfers.map(\.seq) == [2, 3, 4, 5])
        p.connect()
        p.run()
        #expect(p.watchLogs.contains { $0.contains("went back in time") })
        #expect(p.userInfos(.phone).dropFirst(3).map { $0["n"] } == [10, 11, 12, 13])
        #expect(p.watch.outstandingUserInfoTransfers.isEmpty)
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
