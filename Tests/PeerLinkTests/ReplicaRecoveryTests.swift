#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import PeerLinkCore
@testable import PeerLinkPOSIX
@testable import FitnessDomain
@testable import CountdownDomain

/// The seed's requirement 5.2 end to end: the watch's SQLite store is damaged by random
/// bytes; on the next launch it is quarantined, the node starts empty and logs an error, and
/// the next sync with the phone restores everything, the watch's own writes included.
@Suite("Replica recovery after corruption")
struct ReplicaRecoveryTests {
    static func makeTempDirectory() -> String {
        var template = Array("/tmp/replica-recovery-XXXXXX".utf8CString)
        let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(cString: p!)
    }

    static func removeDirectory(_ dir: String) {
        if let d = opendir(dir) {
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { unlink(dir + "/" + name) }
            }
            closedir(d)
        }
        rmdir(dir)
    }

    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : -1
    }

    /// Writes `runs` runs of random bytes at random offsets of the file (seeded).
    static func scribble(_ path: String, seed: UInt64, runs: Int, runBytes: Int) {
        var rng = SplitMix64(seed: seed)
        let size = fileSize(path)
        let fd = open(path, O_WRONLY)
        defer { close(fd) }
        for _ in 0..<runs {
            let bytes = (0..<runBytes).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let offset = off_t(rng.next() % UInt64(max(1, size - runBytes)))
            _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, offset) }
        }
    }

    /// Opens the watch's store as `NodeProcess` does (`NodeStoreFile.openNode`): quarantined
    /// when SQLite's integrity check or the engine (a row's checksum, a row that does not
    /// decode) finds it corrupt.
    static func openWatch(directory: String, now: EpochMs, incarnation: UInt64) throws -> (NodeEngine<RecoveryTestApp>, StoreOpening) {
        try NodeStoreFile.openNode(directory: directory, wallMs: now) { store, opening in
            (try RecoveryEnginePair.engine(.watch, store: store, now: now, incarnation: incarnation, opening: opening), opening)
        }
    }

    /// A row changed behind SQLite's back: the file's structure is sound (`integrity_check`
    /// passes), but the row no longer matches its checksum. The engine's load finds it and the
    /// node starts over a quarantined file, as `NodeProcess` opens it.
    @Test func aRowThatFailsItsChecksumIsFoundAndTheStoreQuarantined() throws {
        let dir = Self.makeTempDirectory()
        defer { Self.removeDirectory(dir) }
        let pair = try RecoveryEnginePair(phoneStore: MemoryStore())
        (pair.watch, _) = try Self.openWatch(directory: dir, now: pair.now, incarnation: 22)
        pair.connect()
        pair.run(.watch, "goal w1 kept")
        pair.watch = nil
        let path = dir + "/" + NodeStoreFile.fileName
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("UPDATE kv_replica SET v = v || x'00'")
            #expect(db.integrityProblem() == nil, "SQLite's own check sees nothing wrong")
        }
        let (restarted, opening) = try Self.openWatch(directory: dir, now: pair.now, incarnation: 33)
        guard case .resetAfterCorruption(let reason, let moved) = opening else {
            Issue.record("the changed row was not found (\(opening))")
            return
        }
        #expect(reason.contains("checksum mismatch"))
        #expect(access(moved, F_OK) == 0)
        #expect(restarted.ctx.replica.entryCount == 0)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aCorruptWatchStoreIsQuarantinedAndRestoredFromThePhone(seed: UInt64) throws {
        let dir = Self.makeTempDirectory()
        defer { Self.removeDirectory(dir) }
        let pair = try RecoveryEnginePair(phoneStore: MemoryStore())
        let firstOpening: StoreOpening
        (pair.watch, firstOpening) = try Self.openWatch(directory: dir, now: pair.now, incarnation: 22)
        #expect(firstOpening == .existing)
        pair.connect()
        for i in 0..<40 { pair.run(.watch, "sample s\(i) \(100 + i)") }
        pair.run(.watch, "goal w1 watchGoal")
        pair.run(.watch, "settings stepGoal 12000")
        pair.run(.phone, "goal p1 phoneGoal")
        pair.run(.phone, "goal p2 doomed")
        pair.run(.phone, "settings notifications 0")
        pair.run(.watch, "delete goal p2")
        let expected = pair.digest(.phone)
        #expect(pair.digest(.watch) == expected, "seed \(seed): not in sync before the damage")

        // The watch stops; its file is damaged while it is down.
        pair.disconnect()
        pair.watch = nil
        let path = dir + "/" + NodeStoreFile.fileName
        #expect(Self.fileSize(path + "-wal") <= 0, "closing checkpointed the WAL into the file")
        Self.scribble(path, seed: seed, runs: 24, runBytes: 48)

        pair.logs = []
        let (restarted, opening) = try Self.openWatch(directory: dir, now: pair.now, incarnation: 33)
        guard case .resetAfterCorruption(_, let moved) = opening else {
            Issue.record("seed \(seed): the damage was not detected (\(opening))")
            return
        }
        #expect(moved.hasPrefix(path + ".corrupt-"))
        #expect(access(moved, F_OK) == 0, "seed \(seed): the quarantined file is kept")
        #expect(restarted.ctx.replica.entryCount == 0, "seed \(seed): started from the initial state")
        pair.watch = restarted
        pair.collect()
        #expect(pair.logs.contains { $0.0 == .watch && $0.1 == .error && $0.2.contains("store corrupt") },
                "seed \(seed): no error log line: \(pair.logs)")

        pair.connect()
        #expect(pair.digest(.watch) == expected, "seed \(seed): the sync did not restore the phone's state")
        #expect(restarted.ctx.replica.all(HealthSample.self).count == 40, "seed \(seed): the watch's own samples came back")
        #expect(restarted.ctx.replica.record(CountdownGoal.self, id: "w1") != nil)
        #expect(restarted.ctx.replica.record(CountdownGoal.self, id: "p2") == nil)
        #expect(pair.logs.contains { $0.0 == .phone && $0.2.contains("store was reset") }, "seed \(seed)")

        // And both go on syncing incrementally.
        pair.run(.watch, "goal w2 afterRecovery")
        #expect(pair.digest(.phone) == pair.digest(.watch))
    }
}
