/// Names one record of the replicated state.
public struct RecordKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var collection: String
    public var id: String

    public init(_ collection: String, _ id: String) {
        self.collection = collection
        self.id = id
    }

    public static func < (a: RecordKey, b: RecordKey) -> Bool {
        if a.collection != b.collection { return CanonicalEncoding.utf8Less(a.collection, b.collection) }
        return CanonicalEncoding.utf8Less(a.id, b.id)
    }

    public var description: String { "\(collection)/\(id)" }
}

/// One last-writer-wins register: a field value and the timestamp of the write that set it.
public struct Register: Hashable, Sendable {
    public var value: PlistValue
    public var stamp: HLCTimestamp
    /// The local change sequence number when this register last changed here (not replicated).
    public var seq: UInt64

    public init(value: PlistValue, stamp: HLCTimestamp, seq: UInt64) {
        self.value = value
        self.stamp = stamp
        self.seq = seq
    }
}

/// A delete: it dominates every field of the record, whatever their stamps ("delete wins").
public struct Tombstone: Hashable, Sendable {
    public var stamp: HLCTimestamp
    public var seq: UInt64

    public init(stamp: HLCTimestamp, seq: UInt64) {
        self.stamp = stamp
        self.seq = seq
    }
}

/// A record as stored: its field registers, or a tombstone.
public struct RecordEntry: Hashable, Sendable {
    public var fields: [String: Register] = [:]
    public var tombstone: Tombstone?

    public init(fields: [String: Register] = [:], tombstone: Tombstone? = nil) {
        self.fields = fields
        self.tombstone = tombstone
    }

    /// The highest local sequence number of anything in the record.
    public var maxSeq: UInt64 {
        var m = tombstone?.seq ?? 0
        for r in fields.values where r.seq > m { m = r.seq }
        return m
    }
}

/// Collections whose records are written once and never deleted: a grow-only set.
public enum GrowOnlyCollections {
    /// Health samples: HealthKit samples are immutable once saved.
    public static let names: Set<String> = ["sample"]
}
