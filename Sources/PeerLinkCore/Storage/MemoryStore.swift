#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `KeyValueStore` in memory, for the deterministic simulator and tests.
///
/// It outlives the node that uses it, so a simulated `kill -9` (dropping the node) keeps
/// exactly what was committed. `corrupt()` makes the next `NodeStoreOpener` find it damaged.
/// With `undoJournalLimit` above zero it remembers how to undo its last commits, so
/// `rollBack(commits:)` can model a write-ahead log that lost its tail.
public final class MemoryStore: KeyValueStore, @unchecked Sendable {
    // Unchecked: used by one serial owner (the simulator's loop), like the SQLite store; for
    // the same reason its variables skip Swift's run-time exclusivity check (a commit makes
    // several accesses to each; docs/BENCHMARKS.md).
    @exclusivity(unchecked) private var tables = Tables()
    /// Set by `corrupt()`; cleared by a reset.
    @exclusivity(unchecked) public private(set) var isCorrupt = false
    /// How many batches were committed (for tests and figures).
    @exclusivity(unchecked) public private(set) var commitCount = 0
    /// Bytes of keys and values written so far.
    @exclusivity(unchecked) public private(set) var bytesWritten = 0
    /// The latest batch committed (for tests).
    @exclusivity(unchecked) public private(set) var lastCommittedBatch = WriteBatch()
    /// How many of the latest commits `rollBack(commits:)` can undo (0: no journal is kept).
    @exclusivity(unchecked) public var undoJournalLimit = 0 {
        didSet { trimJournal() }
    }
    /// Per commit, newest last: what each touched row held before it (nil: absent), in order.
    /// Commits before `journalStart` were trimmed (emptied; dropped from the array now and then,
    /// not on every commit: shifting the whole journal per commit was a fifth of a commit).
    @exclusivity(unchecked) private var journal: [[UndoEntry]] = []
    @exclusivity(unchecked) private var journalStart = 0

    /// One row's value before a commit changed it; `table` alone (no key) for a cleared table.
    private enum UndoEntry {
        case row(StoreTable, key: [UInt8], previous: [UInt8]?)
        case table(StoreTable, previous: [RowKey: [UInt8]]?)
    }

    /// A row's key bytes, hashed as one word: `[UInt8]`'s own hashing feeds the hasher byte
    /// by byte, which was most of a commit's time, and even one block of bytes costs the
    /// hasher more than a short key's FNV-1a. Equality and order are the bytes'.
    private struct RowKey: Hashable {
        var bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes.withUnsafeBufferPointer { fnv1a64($0) })
        }

        /// The same bytes, compared as one block (an array's `==` goes element by element).
        static func == (a: RowKey, b: RowKey) -> Bool {
            guard a.bytes.count == b.bytes.count else { return false }
            return a.bytes.withUnsafeBytes { x in
                b.bytes.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
        }
    }

    /// The tables by name. A store has a handful, so one is found by comparing names (short
    /// strings compare as two words) instead of hashing its name at every row written.
    private struct Tables {
        private var names: [StoreTable] = []
        private var rows: [[RowKey: [UInt8]]] = []

        /// The rows of `table`; nil when it has none yet or was cleared. Setting nil removes it.
        subscript(table: StoreTable) -> [RowKey: [UInt8]]? {
            get { index(table).map { rows[$0] } }
            set {
                if let i = index(table) {
                    if let newValue { rows[i] = newValue } else { names.remove(at: i); rows.remove(at: i) }
                } else if let newValue {
                    names.append(table)
                    rows.append(newValue)
                }
            }
        }

        /// Sets one row (nil removes it), creating the table when needed; returns what it held.
        @discardableResult
        mutating func set(_ table: StoreTable, _ key: RowKey, _ value: [UInt8]?) -> [UInt8]? {
            let i: Int
            if let found = index(table) {
                i = found
            } else {
                guard value != nil else { return nil }
                names.append(table)
                rows.append([:])
                i = names.count - 1
            }
            if let value { return rows[i].updateValue(value, forKey: key) }
            return rows[i].removeValue(forKey: key)
        }

        /// One row's value.
        func row(_ table: StoreTable, _ key: RowKey) -> [UInt8]? {
            guard let i = index(table) else { return nil }
            return rows[i][key]
        }

        private func index(_ table: StoreTable) -> Int? {
            for i in names.indices where names[i] == table { return i }
            return nil
        }
    }

    public init() {}

    public func commit(_ batch: WriteBatch) throws {
        commitCount += 1
        lastCommittedBatch = batch
        let journaling = undoJournalLimit > 0
        var undo: [UndoEntry] = []
        if journaling { undo.reserveCapacity(batch.writes.count) }
        for w in batch.writes {
            switch w {
            case .put(let t, let k, let v):
                let old = tables.set(t, RowKey(k), v)
                if journaling { undo.append(.row(t, key: k, previous: old)) }
                bytesWritten += k.count + v.count
            case .delete(let t, let k):
                let old = tables.set(t, RowKey(k), nil)
                if journaling { undo.append(.row(t, key: k, previous: old)) }
            case .clear(let t):
                if journaling { undo.append(.table(t, previous: tables[t])) }
                tables[t] = nil
            }
        }
        if journaling {
            journal.append(undo)
            trimJournal()
        }
    }

    public func scan(_ table: StoreTable) throws -> [(key: [UInt8], value: [UInt8])] {
        if isCorrupt { throw StoreCorruption(reason: "memory store marked corrupt") }
        return (tables[table] ?? [:]).sorted { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }.map { (key: $0.key.bytes, value: $0.value) }
    }

    public func get(_ table: StoreTable, _ key: [UInt8]) throws -> [UInt8]? {
        if isCorrupt { throw StoreCorruption(reason: "memory store marked corrupt") }
        return tables.row(table, RowKey(key))
    }

    /// Simulates damage to the file: the next open finds it corrupt.
    public func corrupt() { isCorrupt = true }

    /// Empties the store, as quarantining a corrupt file and starting anew does.
    public func reset() {
        tables = Tables()
        isCorrupt = false
        journal = []
        journalStart = 0
    }

    /// Number of rows in `table`.
    public func count(_ table: StoreTable) -> Int { tables[table]?.count ?? 0 }

    // MARK: - Rollback

    /// How many commits `rollBack(commits:)` can undo now.
    public var undoableCommits: Int { journal.count - journalStart }

    /// Undoes the last `n` commits (at most `undoableCommits`), newest first, as when a
    /// write-ahead log loses its tail: the store stays consistent but older. Returns how many
    /// commits were undone.
    @discardableResult
    public func rollBack(commits n: Int) -> Int {
        let count = min(max(0, n), undoableCommits)
        for _ in 0..<count {
            let undo = journal.removeLast()
            for entry in undo.reversed() {
                switch entry {
                case .row(let t, let k, let previous):
                    tables.set(t, RowKey(k), previous)
                case .table(let t, let previous):
                    tables[t] = previous
                }
            }
        }
        return count
    }

    private func trimJournal() {
        let excess = undoableCommits - max(0, undoJournalLimit)
        if excess > 0 {
            for i in journalStart..<journalStart + excess { journal[i] = [] }
            journalStart += excess
        }
        if journalStart >= max(undoJournalLimit, 64) || journalStart == journal.count {
            journal.removeFirst(journalStart)
            journalStart = 0
        }
    }
}
