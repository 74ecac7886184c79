/// A `KeyValueStore` in memory, for the deterministic simulator and tests.
///
/// It outlives the node that uses it, so a simulated `kill -9` (dropping the node) keeps
/// exactly what was committed. `corrupt()` makes the next `NodeStoreOpener` find it damaged.
public final class MemoryStore: KeyValueStore, @unchecked Sendable {
    // Unchecked: used by one serial owner (the simulator's loop), like the SQLite store.
    private var tables: [StoreTable: [[UInt8]: [UInt8]]] = [:]
    /// Set by `corrupt()`; cleared by a reset.
    public private(set) var isCorrupt = false
    /// How many batches were committed (for tests and figures).
    public private(set) var commitCount = 0
    /// Bytes of keys and values written so far.
    public private(set) var bytesWritten = 0

    public init() {}

    public func commit(_ batch: WriteBatch) throws {
        commitCount += 1
        for w in batch.writes {
            switch w {
            case .put(let t, let k, let v):
                tables[t, default: [:]][k] = v
                bytesWritten += k.count + v.count
            case .delete(let t, let k): tables[t]?[k] = nil
            case .clear(let t): tables[t] = nil
            }
        }
    }

    public func scan(_ table: StoreTable) throws -> [(key: [UInt8], value: [UInt8])] {
        if isCorrupt { throw StoreCorruption(reason: "memory store marked corrupt") }
        return (tables[table] ?? [:]).sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { (key: $0.key, value: $0.value) }
    }

    public func get(_ table: StoreTable, _ key: [UInt8]) throws -> [UInt8]? {
        if isCorrupt { throw StoreCorruption(reason: "memory store marked corrupt") }
        return tables[table]?[key]
    }

    /// Simulates damage to the file: the next open finds it corrupt.
    public func corrupt() { isCorrupt = true }

    /// Empties the store, as quarantining a corrupt file and starting anew does.
    public func reset() {
        tables = [:]
        isCorrupt = false
    }

    /// Number of rows in `table`.
    public func count(_ table: StoreTable) -> Int { tables[table]?.count ?? 0 }
}
