import CSQLite
import PeerLinkCore

/// A SQLite failure: the result code, the extended code, SQLite's message and the SQL.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public var code: Int32
    public var extendedCode: Int32
    public var message: String
    public var sql: String?

    public var description: String {
        "SQLite error \(code) (extended \(extendedCode)): \(message)" + (sql.map { " — in: \($0)" } ?? "")
    }

    /// True for the codes that mean the file is not a usable database.
    public var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

    /// True for the codes that say nothing about the file's content: it could not be opened,
    /// read or written (permissions, a full disk, an I/O error, another process's lock). A
    /// store failing this way is not corrupt and must not be quarantined.
    public var isAccessProblem: Bool {
        [SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_FULL, SQLITE_IOERR,
         SQLITE_NOMEM, SQLITE_AUTH].contains(code)
    }
}

/// One SQLite connection.
///
/// It MUST be used from one serial owner at a time (the node's event loop, or a test);
/// that is why it is `@unchecked Sendable`: it can be handed to that owner, never shared.
public final class SQLiteDatabase: @unchecked Sendable {
    let handle: OpaquePointer
    public let path: String

    /// Opens (creating if needed) the database at `path`, in WAL mode.
    /// - Parameter synchronousFull: `true` fsyncs every commit (durable across power loss);
    ///   `false` (NORMAL) is durable across a process crash, which is what `kill -9` tests.
    public init(path: String, synchronousFull: Bool = false) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, extendedCode: rc, message: message, sql: nil)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        _ = csqlite_db_config_defensive(db, 1)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=\(synchronousFull ? "FULL" : "NORMAL")")
    }

    deinit { sqlite3_close_v2(handle) }

    func error(_ rc: Int32, _ sql: String?) -> SQLiteError {
        SQLiteError(
            code: rc & 0xFF, extendedCode: sqlite3_extended_errcode(handle),
            message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs one or more statements that return no rows we need.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? "error \(rc)"
            sqlite3_free(errmsg)
            throw SQLiteError(code: rc & 0xFF, extendedCode: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Compiles `sql`.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc, sql) }
        return SQLiteStatement(db: self, stmt: stmt, sql: sql)
    }

    /// The first column of the first row of `sql` as text, or nil when there is no row.
    public func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        let s = try prepare(sql)
        return try s.step() ? s.text(0) : nil
    }

    /// `PRAGMA user_version`: the schema version.
    public var userVersion: Int {
        get { (try? scalarText("PRAGMA user_version")).flatMap { $0.flatMap { Int($0) } } ?? 0 }
    }

    public func setUserVersion(_ v: Int) throws(SQLiteError) { try execute("PRAGMA user_version=\(v)") }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back if it throws.
    public func transaction(_ body: () throws -> Void) throws {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// `PRAGMA integrity_check`: nil when the file is sound, else SQLite's first complaint.
    public func integrityProblem() -> String? {
        do {
            let s = try prepare("PRAGMA integrity_check")
            var lines: [String] = []
            while try s.step() { lines.append(s.text(0) ?? "") }
            return lines == ["ok"] ? nil : lines.prefix(3).joined(separator: "; ")
        } catch {
            return error.description
        }
    }
}

/// A compiled statement; reset and rebound for each use.
public final class SQLiteStatement {
    let db: SQLiteDatabase
    let stmt: OpaquePointer
    let sql: String

    init(db: SQLiteDatabase, stmt: OpaquePointer, sql: String) {
        self.db = db
        self.stmt = stmt
        self.sql = sql
    }

    deinit { sqlite3_finalize(stmt) }

    public func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    public func bind(_ index: Int32, _ bytes: [UInt8]) throws(SQLiteError) {
        let rc = bytes.withUnsafeBytes { buf in
            // A zero-length blob must still be bound as a blob, not NULL.
            sqlite3_bind_blob(stmt, index, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buf.count), csqlite_transient())
        }
        guard rc == SQLITE_OK else { throw db.error(rc, sql) }
    }

    public func bind(_ index: Int32, _ value: Int64) throws(SQLiteError) {
        let rc = sqlite3_bind_int64(stmt, index, value)
        guard rc == SQLITE_OK else { throw db.error(rc, sql) }
    }

    public func bind(_ index: Int32, _ text: String) throws(SQLiteError) {
        let rc = sqlite3_bind_text(stmt, index, text, -1, csqlite_transient())
        guard rc == SQLITE_OK else { throw db.error(rc, sql) }
    }

    /// Advances; true when a row is available.
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(stmt)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw db.error(rc, sql)
        }
    }

    /// Steps to completion, ignoring rows.
    public func run() throws(SQLiteError) {
        while try step() {}
    }

    public func blob(_ column: Int32) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(stmt, column))
        guard n > 0, let p = sqlite3_column_blob(stmt, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: p, count: n))
    }

    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(stmt, column) }

    public func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, column) else { return nil }
        return String(cString: p)
    }
}
