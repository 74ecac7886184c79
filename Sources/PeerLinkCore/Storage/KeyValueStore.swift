/// A table of the node's store. Each holds ordered binary keys and binary values.
public struct StoreTable: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// Names are fixed identifiers (letters, digits, underscore) because they become SQL table names.
    public init(_ name: String) {
        precondition(!name.isEmpty && name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 },
                     "table name must be [a-z0-9_]+: \(name)")
        self.name = name
    }
    public var description: String { name }
}

/// One change in a `WriteBatch`.
public enum StoreWrite: Sendable, Equatable {
    case put(StoreTable, key: [UInt8], value: [UInt8])
    case delete(StoreTable, key: [UInt8])
    /// Removes every row of the table.
    case clear(StoreTable)
}

/// Changes applied all together or not at all.
public struct WriteBatch: Sendable, Equatable {
    public var writes: [StoreWrite] = []
    public init() {}
    public var isEmpty: Bool { writes.isEmpty }
    public mutating func put(_ table: StoreTable, _ key: [UInt8], _ value: [UInt8]) {
        // Room for a few at the first: an event's batch would otherwise grow 1, 2, 4.
        if writes.capacity == 0 { writes.reserveCapacity(4) }
        writes.append(.put(table, key: key, value: value))
    }
    public mutating func delete(_ table: StoreTable, _ key: [UInt8]) { writes.append(.delete(table, key: key)) }
    public mutating func clear(_ table: StoreTable) { writes.append(.clear(table)) }
    public mutating func append(_ other: WriteBatch) { writes.append(contentsOf: other.writes) }
}

/// What a store found wrong when it was opened or read.
public struct StoreCorruption: Error, CustomStringConvertible, Sendable {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { "store corrupt: \(reason)" }
}

/// The durable store of one node: the replicated state, the link's outbox and receive log,
/// and each app's local state, all in one place so one batch can change them together.
///
/// A batch MUST be durable (committed) when `commit` returns; callers report an operation done,
/// or acknowledge a transfer, only after that.
public protocol KeyValueStore: AnyObject {
    /// Applies `batch` atomically.
    func commit(_ batch: WriteBatch) throws
    /// Every row of `table`, ordered by key bytes; throws `StoreCorruption` when a row fails
    /// its checksum.
    func scan(_ table: StoreTable) throws -> [(key: [UInt8], value: [UInt8])]
    /// One row.
    func get(_ table: StoreTable, _ key: [UInt8]) throws -> [UInt8]?
}

extension KeyValueStore {
    /// Commits a single put.
    public func put(_ table: StoreTable, _ key: [UInt8], _ value: [UInt8]) throws {
        var b = WriteBatch(); b.put(table, key, value); try commit(b)
    }
}

// MARK: - Keys

/// Big-endian bytes of `v`, so integer keys sort in numeric order.
public func storeKey(_ v: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: v >> UInt64(56 - 8 * $0)) }
}

/// The integer a `storeKey(_:)` made.
public func storeKeyValue(_ key: [UInt8]) -> UInt64? {
    guard key.count == 8 else { return nil }
    return key.reduce(0) { $0 << 8 | UInt64($1) }
}

/// A 64-bit FNV-1a checksum: detects torn or scribbled rows (not an integrity proof).
public func fnv1a64<C: Sequence>(_ bytes: C, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 where C.Element == UInt8 {
    var h = seed
    for b in bytes {
        h ^= UInt64(b)
        h = h &* 0x0000_0100_0000_01B3
    }
    return h
}
