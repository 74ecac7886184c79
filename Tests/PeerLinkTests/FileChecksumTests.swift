import Testing
@testable import PeerLinkCore

/// The file checksum as the nodes run it: the engine's sender hash (`fileEnd`) and the
/// receiver's check of the complete file (`FileChecksum`, called by `NodeEngine` for
/// `.verify`), on the simulated network.
@Suite("File checksum through the engine")
struct FileChecksumTests {
    static func content(_ n: Int) -> [UInt8] {
        var rng = SplitMix64(seed: 99)
        return (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }

    /// The phone has committed part of a 300 KB file when it is killed; a byte of that part
    /// changes while it is down. After the restart the rest arrives, the check of the whole
    /// file fails, the phone starts it again from zero, and the file it keeps is the sent one.
    @Test func aByteChangedInTheReceiversCommittedPartialFileIsCaughtAndTheFileSentAgain() throws {
        let n = try makeNetwork(seed: 8, configure: { $0.fileSyncIntervalBytes = 64 << 10; $0.fileChunkBytes = 16 << 10 }, keepFiles: true)
        n.runUntilQuiet()
        let data = Self.content(300_000)
        try n.watchFiles.write("run.bin", offset: 0, bytes: data)
        n.faults.bandwidthBytesPerSecond = 100_000
        #expect(n.command(.watch, "file run.bin").isOK)
        var committed: Int64 = 0
        for _ in 0..<1_000 where committed == 0 {
            n.advance(by: 10)
            committed = n.phone.ctx.session.persistent.incomingFile?.committedBytes ?? 0
        }
        #expect(committed >= 64 << 10 && committed < 300_000)
        // `query sync-state incomingFile` (answered alone) is the whole sync state's part.
        let alone = n.command(.phone, "query sync-state incomingFile")
        #expect(alone.isOK && alone.value["committedBytes"] == .int(committed))
        #expect(alone.value == n.command(.phone, "query sync-state").value["incomingFile"])
        #expect(n.command(.phone, "query sync-state incomingFile path").value == alone.value["path"])
        n.kill(.phone)
        let part = try #require(n.phoneFiles.list(LinkSession.inboxDirectory).first { $0.hasSuffix(".part") })
        let changed = try PartialFileDamageForTest.flip(n.phoneFiles, part, at: 1_000)
        #expect(changed)
        n.faults.bandwidthBytesPerSecond = nil
        try n.restart(.phone)
        #expect(n.runUntilQuiet())
        #expect(n.phone.ctx.session.stats.files.verifyFailures == 1)
        #expect(n.logs.contains { $0.contains("failed its SHA-256 check") })
        #expect(try n.phoneFiles.readAll("kept/run.bin") == data)
        #expect(n.watch.app.query(["filesSent"], n.watch.ctx) == 1)
        #expect(n.phone.app.query(["filesReceived"], n.phone.ctx) == 1)
    }

    @Test func aCompleteFileWhoseContentIsNotTheSendersFailsTheCheck() throws {
        let files = MemoryFileStorage()
        let data = Self.content(5_000)
        try files.write("f", offset: 0, bytes: data)
        let sender = try FileChecksum.senderHash("f", in: files, sizeBytes: 5_000, running: nil)
        #expect(try FileChecksum.verify("f", in: files, expected: sender, running: nil).matches)
        _ = try PartialFileDamageForTest.flip(files, "f", at: 4_999)
        let check = try FileChecksum.verify("f", in: files, expected: sender, running: nil)
        let stored = try files.readAll("f")
        #expect(!check.matches && check.actual == SHA256.hash(stored))
        #expect(try !FileChecksum.verify("f", in: files, expected: [], running: nil).matches, "no sender hash yet: never a match")
    }

    @Test func aFileThatChangedSizeWhileItWasSentHasNoSenderHash() throws {
        let files = MemoryFileStorage()
        try files.write("f", offset: 0, bytes: Self.content(1_000))
        #expect(throws: FileStorageError.self) { try FileChecksum.senderHash("f", in: files, sizeBytes: 2_000, running: nil) }
    }
}

/// Flips one byte of a stored file (a change the checksum must catch).
enum PartialFileDamageForTest {
    static func flip(_ files: MemoryFileStorage, _ path: String, at offset: Int64) throws -> Bool {
        guard let size = files.size(path), offset < size else { return false }
        let b = try files.read(path, offset: offset, count: 1)
        try files.write(path, offset: offset, bytes: [b[0] ^ 0x5A])
        return true
    }
}
