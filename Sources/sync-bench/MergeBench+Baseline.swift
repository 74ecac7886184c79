#if canImport(Glibc)
import Glibc
#endif
import PeerLinkCore
import PeerLinkPOSIX

/// The merge suite's baselines: the same set sequence without replication.
extension MergeWorkload {
    /// Nanoseconds for every set as `[String: Int]` subscript assignment.
    func timeDictionary() -> UInt64 {
        var d: [String: Int] = [:]
        let t0 = monotonicNs()
        for i in 0..<sets { d[keyNames[Int(keyIndex[i])]] = Int(value(i)) }
        let elapsed = monotonicNs() - t0
        // Keep the result alive so the loop is not optimised away.
        if d.count != keys, d.count > sets { print("unexpected dictionary size \(d.count)") }
        return elapsed
    }

    /// Nanoseconds for every set as `INSERT OR REPLACE` in one transaction, commit included,
    /// into a temporary SQLite file (WAL, synchronous=NORMAL).
    func timeRawSQLite() throws -> UInt64 {
        var template = Array("/tmp/sync-bench-XXXXXX".utf8CString)
        guard let dirPointer = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw MergeBenchFailure("mkdtemp failed")
        }
        let dir = String(cString: dirPointer)
        let path = dir + "/raw.sqlite"
        defer {
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            rmdir(dir)
        }
        let elapsed: UInt64
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("CREATE TABLE kv(k TEXT PRIMARY KEY, v INTEGER NOT NULL) WITHOUT ROWID")
            let insert = try db.prepare("INSERT OR REPLACE INTO kv(k, v) VALUES (?, ?)")
            let t0 = monotonicNs()
            try db.transaction {
                for i in 0..<sets {
                    insert.reset()
                    try insert.bind(1, keyNames[Int(keyIndex[i])])
                    try insert.bind(2, value(i))
                    try insert.run()
                }
            }
            elapsed = monotonicNs() - t0
            guard try db.scalarText("SELECT count(*) FROM kv") == String(keys) else { throw MergeBenchFailure("raw SQLite lost rows") }
        }
        return elapsed
    }
}
