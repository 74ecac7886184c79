import Testing
@testable import PeerLinkCore

/// `query sync-state`: what each node reports for the convergence check, through the
/// engine's real paths (contexts, complication, files, outstanding transfers).
@Suite("Sync state reported by the engine")
struct SyncStateTests {
    static func state(_ n: TestNetwork, _ role: DeviceRole) -> PlistValue {
        n.command(role, "query sync-state").value
    }

    @Test func aContextSetOnOneSideIsReportedAsReceivedOnTheOtherWithItsVersion() throws {
        let n = try makeNetwork(seed: 1)
        n.runUntilQuiet()
        #expect(n.command(.phone, "ctx goal 9000").isOK)
        n.runUntilQuiet()
        let p = Self.state(n, .phone), w = Self.state(n, .watch)
        #expect(p["contextSent"]?["version"] == 1)
        #expect(p["contextSent"] == w["contextReceived"])
        #expect(p["contextReceived"] == nil && w["contextSent"] == nil)
        #expect(p["outstanding"]?["context"] == false)
    }

    @Test func aContextNotYetAcknowledgedIsOutstanding() throws {
        let n = try makeNetwork(seed: 2)
        n.runUntilQuiet()
        n.setLink(up: false)
        #expect(n.command(.phone, "ctx goal 9000").isOK)
        #expect(Self.state(n, .phone)["outstanding"]?["context"] == true)
        #expect(Self.state(n, .watch)["contextReceived"] == nil)
    }

    @Test func aDeliveredFileIsRecordedOnBothSidesWithTheHashOfItsContent() throws {
        let n = try makeNetwork(seed: 3)
        n.runUntilQuiet()
        let content = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try n.watchFiles.write("out/run.bin", offset: 0, bytes: content)
        #expect(n.command(.watch, "file out/run.bin").isOK)
        #expect(Self.state(n, .watch)["outstanding"]?["files"] == 1)
        n.runUntilQuiet()
        let sent = try #require(Self.state(n, .watch)["filesSent"]?.arrayValue)
        let got = try #require(Self.state(n, .phone)["filesReceived"]?.arrayValue)
        #expect(sent.count == 1 && got.count == 1)
        #expect(sent.first?["sha256"] == .string(hexString(SHA256.hash(content))))
        #expect(sent.first?["sha256"] == got.first?["sha256"] && sent.first?["name"] == "run.bin" && got.first?["bytes"] == 300_000)
        #expect(sent.first?["peer"] == Self.state(n, .phone)["incarnation"])
        #expect(got.first?["peer"] == Self.state(n, .watch)["incarnation"])
        #expect(Self.state(n, .watch)["outstanding"]?["files"] == 0)
    }

    @Test func deliveryRecordsSurviveARestart() throws {
        let n = try makeNetwork(seed: 4)
        n.runUntilQuiet()
        try n.watchFiles.write("a.bin", offset: 0, bytes: [1, 2, 3])
        #expect(n.command(.watch, "file a.bin").isOK)
        n.runUntilQuiet()
        let before = Self.state(n, .phone)["filesReceived"]
        try n.crash(.phone)
        n.runUntilQuiet()
        #expect(Self.state(n, .phone)["filesReceived"] == before)
        #expect(before?.arrayValue?.count == 1)
    }

    @Test func theComplicationQueuedCurrentIsTheOneTheWatchReportsReceived() throws {
        let n = try makeNetwork(seed: 5)
        n.runUntilQuiet()
        n.withPhone { ctx in
            _ = ctx.transferCurrentComplicationUserInfo(["steps": 1])
            _ = ctx.transferCurrentComplicationUserInfo(["steps": 2])
        }
        n.runUntilQuiet()
        let sent = Self.state(n, .phone)["complicationSent"], got = Self.state(n, .watch)["complicationReceived"]
        #expect(sent?["sha256"] == .string(hexString(SHA256.hash(CanonicalEncoding.encode(["steps": 2])))))
        #expect(sent?["sha256"] == got?["sha256"])
    }
}

/// A node's store identity is durable from its first launch.
@Suite("Store identity")
struct StoreIdentityTests {
    @Test func aNodeKilledBeforeItEverConnectedComesBackAsTheSameStore() throws {
        let n = try makeNetwork(seed: 6)
        n.setLink(up: false)
        let first = n.watch.ctx.session.persistent.incarnation
        n.advance(by: 5_000)
        #expect(!n.watch.ctx.session.isConnected)
        n.kill(.watch)
        try n.restart(.watch)
        #expect(n.watch.ctx.session.persistent.incarnation == first)
    }
}
