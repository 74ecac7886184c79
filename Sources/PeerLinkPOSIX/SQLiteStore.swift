import CSQLite
import PeerLinkCore

/// A `KeyValueStore` in one SQLite file (WAL mode): the node's `state.sqlite`.
///
/// Each table is `kv_<name>(k BLOB PRIMARY KEY, v BLOB, c INTEGER) WITHOUT ROWID`, where `c`
/// is a checksum of key and value checked on every read, so scribbled rows are found even
/// when SQLite's own structure is intact.
public final class SQLiteStore: KeyValueStore, @unchecked Sendable {
    // Unchecked: one connection, confined to the node's event loop (see SQLiteDatabase).
    public let db: SQLiteDatabase
    private var known: Set<StoreTable> = []
    private var putStatements: [StoreTable: SQLiteStatement] = [:]
    private var deleteStatements: [StoreTable: SQLiteStatement] = [:]

    /// The schema version this code writes; `migrate` brings older files forward.
    public static let schemaVersion = 1

    public init(path: String, synchronousFull: Bool = false) throws {
        db = try SQLiteDatabase(path: path, synchronousFull: synchronousFull)
        try migrate()
    }

    /// Forward migrations, one per version step. Version 0 is a new file.
    private func migrate() throws {
        let current = db.userVersion
        guard current <= Self.schemaVersion else {
            throw StoreCorruption(reason: "schema version \(current) is newer than this build (\(Self.schemaVersion))")
        }
        if current < 1 {
            try db.transaction {
                try db.execute("CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL)")
                try db.setUserVersion(1)
            }
        }
    }

    private func ensure(_ table: StoreTable) throws {
        guard !known.contains(table) else { return }
        try db.execute("CREATE TABLE IF NOT EXISTS kv_\(table.name)(k BLOB PRIMARY KEY, v BLOB NOT NULL, c INTEGER NOT NULL) WITHOUT ROWID")
        known.insert(table)
    }

    static func checksum(_ key: [UInt8], _ value: [UInt8]) -> Int64 {
        Int64(bitPattern: fnv1a64(value, seed: fnv1a64(key)))
    }

    public func commit(_ batch: WriteBatch) throws {
        guard !batch.isEmpty else { return }
        for case .put(let t, _, _) in batch.writes { try ensure(t) }
        try db.transaction {
            for w in batch.writes {
                switch w {
                case .put(let t, let k, let v):
                    let s = try putStatement(t)
                    s.reset()
                    try s.bind(1, k); try s.bind(2, v); try s.bind(3, Self.checksum(k, v))
                    try s.run()
                case .delete(let t, let k):
                    try ensure(t)
                    let s = try deleteStatement(t)
                    s.reset()
                    try s.bind(1, k)
                    try s.run()
                case .clear(let t):
                    try ensure(t)
                    try db.execute("DELETE FROM kv_\(t.name)")
                }
            }
        }
    }

    private func putStatement(_ t: StoreTable) throws -> SQLiteStatement {
        if let s = putStatements[t] { return s }
        let s = try db.prepare("INSERT OR REPLACE INTO kv_\(t.name)(k, v, c) VALUES (?, ?, ?)")
        putStatements[t] = s
        return s
    }

    private func deleteStatement(_ t: StoreTable) throws -> SQLiteStatement {
        if let s = deleteStatements[t] { return s }
        let s = try db.prepare("DELETE FROM kv_\(t.name) WHERE k = ?")
        deleteStatements[t] = s
        return s
    }

    public func scan(_ table: StoreTable) throws -> [(key: [UInt8], value: [UInt8])] {
        try ensure(table)
        let s = try db.prepare("SELECT k, v, c FROM kv_\(table.name) ORDER BY k")
        var rows: [(key: [UInt8], value: [UInt8])] = []
        while try s.step() {
            let k = s.blob(0), v = s.blob(1)
            guard s.int64(2) == Self.checksum(k, v) else {
                throw StoreCorruption(reason: "checksum mismatch in table \(table.name)")
            }
            rows.append((key: k, value: v))
        }
        return rows
    }

    public func get(_ table: StoreTable, _ key: [UInt8]) throws -> [UInt8]? {
        try ensure(table)
        let s = try db.prepare("SELECT v, c FROM kv_\(table.name) WHERE k = ?")
        try s.bind(1, key)
        guard try s.step() else { return nil }
        let v = s.blob(0)
        guard s.int64(1) == Self.checksum(key, v) else { throw StoreCorruption(reason: "checksum mismatch in table \(table.name)") }
        return v
    }
}
