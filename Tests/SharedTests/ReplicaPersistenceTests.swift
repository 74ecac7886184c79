#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import PeerLinkCore
@testable import PeerLinkPOSIX
@testable import FitnessDomain
@testable import CountdownDomain

/// The replicated state in the node's store: rows round trip, idle nodes write nothing, the
/// SQLite file is in WAL mode and old schema versions are migrated forward.
@Suite("Replica persistence")
struct ReplicaPersistenceTests {
    /// A fresh temporary directory (mkdtemp); the caller removes it.
    static func makeTempDirectory() -> String {
        var template = Array("/tmp/replica-tests-XXXXXX".utf8CString)
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

    static func populated() -> (ReplicaState, ReplicaSync.Persistent) {
        var s = ReplicaState(replica: 2, schema: .fitnessAndCountdown)
        let t = ReplicaFixture.start
        s.put(AppSettings.defaults, wallMs: t)
        s.put(CountdownGoal(id: "g1", title: "試験", targetDate: CivilDate(year: 2026, month: 2, day: 1), isAgeGoal: false, createdMs: t, priority: 1), wallMs: t + 1)
        s.set(ReplicaFixture.goal(2), field: "title", to: "gone", wallMs: t + 2)
        s.delete(ReplicaFixture.goal(2), wallMs: t + 3)
        s.merge(DeltaRecord(key: ReplicaFixture.sample(1), fields: [DeltaField(name: "value", value: 3.5, stamp: HLCTimestamp(wallMs: t + 9, counter: 2, replica: 1))], tombstone: nil), wallMs: t + 4)
        var p = ReplicaSync.Persistent(incarnation: 77)
        p.peerIncarnation = 88; p.peerWatermark = 5; p.ackedByPeer = 3; p.inFlightUpTo = 4; p.inFlightPartsLeft = 2; p.owesAck = true; p.sendWholeRecords = true
        return (s, p)
    }

    @Test func stateAndBookkeepingRoundTripThroughTheStore() throws {
        var (s, p) = Self.populated()
        let store = MemoryStore()
        var batch = WriteBatch()
        ReplicaPersistence.persistChanges(of: &s, sync: p, into: &batch)
        try store.commit(batch)
        let (loaded, sync) = try ReplicaPersistence.load(from: store, replica: 2, schema: .fitnessAndCountdown)
        #expect(loaded.digest() == s.digest())
        #expect(loaded.seq == s.seq && loaded.clock.last == s.clock.last)
        #expect(loaded.records == s.records, "tombstones and local seqs too")
        #expect(sync == p)
    }

    @Test func anIdleNodeWritesNoRowsAndRemovedRecordsLoseTheirRow() throws {
        var (s, p) = Self.populated()
        let store = MemoryStore()
        var batch = WriteBatch()
        ReplicaPersistence.persistChanges(of: &s, sync: p, into: &batch)
        try store.commit(batch)
        batch = WriteBatch()
        ReplicaPersistence.persistChanges(of: &s, sync: p, into: &batch)
        #expect(batch.isEmpty)
        #expect(s.collectTombstones(upTo: .max) == 1)
        p.ackedByPeer = s.seq
        ReplicaPersistence.persistChanges(of: &s, sync: p, into: &batch)
        #expect(batch.writes.contains(.delete(ReplicaPersistence.records, key: ReplicaPersistence.encodeKey(ReplicaFixture.goal(2)))))
        try store.commit(batch)
        #expect(store.count(ReplicaPersistence.records) == 3)
        // A store reloaded and unchanged writes nothing either.
        var (loaded, _) = try ReplicaPersistence.load(from: store, replica: 2, schema: .fitnessAndCountdown)
        batch = WriteBatch()
        ReplicaPersistence.persistChanges(of: &loaded, sync: p, into: &batch)
        #expect(batch.isEmpty)
    }

    @Test func aRowThatDoesNotDecodeIsReportedAsCorruption() throws {
        let store = MemoryStore()
        try store.put(ReplicaPersistence.records, ReplicaPersistence.encodeKey(ReplicaFixture.goal(1)), [7, 7, 7])
        #expect(throws: StoreCorruption.self) { try ReplicaPersistence.load(from: store, replica: 1, schema: .fitnessAndCountdown) }
    }

    @Test func theSQLiteStoreIsInWALModeAndKeepsTheStateAcrossReopening() throws {
        let dir = Self.makeTempDirectory()
        defer { Self.removeDirectory(dir) }
        var (s, p) = Self.populated()
        do {
            let store = try SQLiteStore(path: dir + "/state.sqlite")
            #expect(try store.db.scalarText("PRAGMA journal_mode") == "wal")
            var batch = WriteBatch()
            ReplicaPersistence.persistChanges(of: &s, sync: p, into: &batch)
            try store.commit(batch)
        }
        let reopened = try SQLiteStore(path: dir + "/state.sqlite")
        #expect(reopened.db.integrityProblem() == nil)
        let (loaded, sync) = try ReplicaPersistence.load(from: reopened, replica: 2, schema: .fitnessAndCountdown)
        #expect(loaded.digest() == s.digest() && sync == p)
    }

    @Test func aVersionZeroFileIsMigratedForward() throws {
        let dir = Self.makeTempDirectory()
        defer { Self.removeDirectory(dir) }
        let path = dir + "/state.sqlite"
        let key = ReplicaPersistence.encodeKey(ReplicaFixture.goal(1))
        var entry = RecordEntry()
        entry.write("title", Register(value: "kept", stamp: HLCTimestamp(wallMs: ReplicaFixture.start, counter: 0, replica: 1), seq: 1))
        let value = ReplicaPersistence.encodeEntry(entry)
        do {
            // A file from before the schema had a version: replica rows, no meta table.
            let db = try SQLiteDatabase(path: path)
            try db.execute("CREATE TABLE kv_replica(k BLOB PRIMARY KEY, v BLOB NOT NULL, c INTEGER NOT NULL) WITHOUT ROWID")
            let insert = try db.prepare("INSERT INTO kv_replica(k, v, c) VALUES (?, ?, ?)")
            try insert.bind(1, key); try insert.bind(2, value); try insert.bind(3, SQLiteStore.checksum(key, value))
            try insert.run()
            #expect(db.userVersion == 0)
        }
        let store = try SQLiteStore(path: path)
        #expect(store.db.userVersion == SQLiteStore.schemaVersion)
        #expect(try store.db.scalarText("SELECT count(*) FROM sqlite_master WHERE name = 'meta'") == "1")
        let (loaded, sync) = try ReplicaPersistence.load(from: store, replica: 2, schema: .fitnessAndCountdown)
        #expect(loaded.fields(ReplicaFixture.goal(1)) == ["title": "kept"])
        #expect(sync == nil, "no bookkeeping yet: the engine announces itself as a new store")
    }

    @Test func aFileFromANewerBuildIsRefused() throws {
        let dir = Self.makeTempDirectory()
        defer { Self.removeDirectory(dir) }
        do {
            let db = try SQLiteDatabase(path: dir + "/state.sqlite")
            try db.setUserVersion(SQLiteStore.schemaVersion + 1)
        }
        #expect(throws: StoreCorruption.self) { try SQLiteStore(path: dir + "/state.sqlite") }
    }
}
