import Testing
@testable import PeerLinkCore

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

    /// The phone set context A then B; its store goes back to after A. The watch holds B as
    /// version 2: the phone must not take version 2 for its own A, but send A again after it.
    @Test func aSenderWhoseStoreWentBackSendsItsContextAgainUnderALaterVersion() throws {
        var p = SessionPair.connected()
        _ = p.phone.updateApplicationContext(["goal": "A"], now: p.now)
        p.collect()
        p.run()
        let afterA = p.phone.persistent
        _ = p.phone.updateApplicationContext(["goal": "B"], now: p.now)
        _ = try p.phone.transferUserInfo(["n": 1], now: p.now).get()
        p.collect()
        p.run()
        #expect(p.watch.receivedApplicationContext == ["goal": "B"] && p.watch.persistent.receivedContextVersion == 2)

        p.disconnect()
        p.phone = LinkSession(config: p.phone.config, persistent: afterA, seed: 9)
        p.phone.activate()
        p.connect()
        p.run()
        #expect(p.phoneLogs.contains { $0.contains("went back in time") })
        #expect(p.phone.persistent.contextVersion == 3)
        #expect(p.watch.receivedApplicationContext == p.phone.applicationContext)
        #expect(p.watch.persistent.receivedContextVersion == 3)
    }

    /// The watch's store goes back to before its first file was delivered; it queues another
    /// file, which takes the same number. The phone holds that number as delivered: the new
    /// file must be numbered again and sent, not taken for delivered.
    @Test func aFileQueuedAfterTheSendersStoreWentBackIsNotTakenForOneDelivered() throws {
        var p = SessionPair.connected()
        p.phoneKeepsFilesIn = "kept"
        let before = p.watch.persistent
        try p.watchFiles.write("a.bin", offset: 0, bytes: [1, 2, 3])
        _ = try p.watch.transferFile(path: "a.bin", metadata: nil, now: p.now).get()
        p.collect()
        p.run()
        #expect(p.phone.persistent.lastFileDelivered == 1)

        p.disconnect()
        p.watch = LinkSession(config: p.watch.config, persistent: before, seed: 9)
        p.watch.activate()
        try p.watchFiles.write("b.bin", offset: 0, bytes: [4, 5, 6, 7])
        let t = try p.watch.transferFile(path: "b.bin", metadata: nil, now: p.now).get()
        #expect(t.number == 1, "the lost history's number")
        p.collect()
        p.connect()
        p.run()
        #expect(p.watchLogs.contains { $0.contains("went back in time") })
        #expect(try p.phoneFiles.readAll("kept/b.bin") == [4, 5, 6, 7])
        #expect(p.phone.persistent.lastFileDelivered == 2)
        #expect(p.watch.outstandingFileTransfers.isEmpty)
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
