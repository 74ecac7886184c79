/// One field write in a delta record: the field's name, its value and the write's stamp.
///
/// A struct rather than a tuple: an array of `(name:value:stamp:)` tuples was copied and
/// destroyed through the runtime's generic tuple functions, field by field, in every merge
/// and every release of a delta (about 18 M instructions of the one-hour workout).
public struct DeltaField: Sendable, Equatable {
    public var name: String
    public var value: PlistValue
    public var stamp: HLCTimestamp

    public init(name: String, value: PlistValue, stamp: HLCTimestamp) {
        self.name = name
        self.value = value
        self.stamp = stamp
    }
}

/// One record in a delta: the fields the receiver may lack, or a tombstone.
public struct DeltaRecord: Sendable, Equatable {
    /// The record.
    public var key: RecordKey
    /// Field writes: name, value and the write's stamp.
    public var fields: [DeltaField]
    /// The delete's stamp, when the record is deleted (then `fields` is empty).
    public var tombstone: HLCTimestamp?

    /// Makes a delta record.
    public init(key: RecordKey, fields: [DeltaField], tombstone: HLCTimestamp?) {
        self.key = key
        self.fields = fields
        self.tombstone = tombstone
    }
}

/// What one replica sends the other: every change it made (or merged) after `baseSeq` up to
/// `upToSeq`, split into parts that each fit a user-info transfer.
///
/// A delta is complete for its range: once the receiver has applied every part of a delta
/// whose base it already covers, it covers `upToSeq`.
public struct ReplicaDelta: Sendable, Equatable {
    /// The sender's replica id.
    public var origin: UInt16
    /// The sender store's incarnation: a new one after its store was reset.
    public var incarnation: UInt64
    /// The sender's changes after this seq are in the delta…
    public var baseSeq: UInt64
    /// …up to this one.
    public var upToSeq: UInt64
    /// The receiver's incarnation as the sender knows it (0: it has never heard from it).
    public var ackIncarnation: UInt64
    /// The receiver's changes the sender has applied: all up to this seq.
    public var ackSeq: UInt64
    /// 0-based part index.
    public var part: Int
    /// Number of parts of this delta.
    public var partCount: Int
    /// Set in the first deltas after the sender's store was reset: resend everything.
    public var storeWasReset: Bool = false
    /// Set on a complete resend (to a peer that lost data): this part holds every record the
    /// sender has with a key in the range, so the receiver learns which of the sender's
    /// records are gone (deleted, their tombstones since collected).
    public var coverage: DeltaCoverage?
    /// The records, ordered by key.
    public var records: [DeltaRecord]

    /// Makes a delta (or one part of it).
    public init(origin: UInt16, incarnation: UInt64, baseSeq: UInt64, upToSeq: UInt64, ackIncarnation: UInt64, ackSeq: UInt64, part: Int = 0, partCount: Int = 1, records: [DeltaRecord]) {
        self.origin = origin
        self.incarnation = incarnation
        self.baseSeq = baseSeq
        self.upToSeq = upToSeq
        self.ackIncarnation = ackIncarnation
        self.ackSeq = ackSeq
        self.part = part
        self.partCount = partCount
        self.records = records
    }

    /// True for the last (or only) part.
    public var isLastPart: Bool { part == partCount - 1 }
}

/// The key range a part of a complete resend covers: keys after `from` (from the first key
/// when nil) up to and including `through` (to the last key when nil).
public struct DeltaCoverage: Sendable, Equatable {
    public var from: RecordKey?
    public var through: RecordKey?

    public init(from: RecordKey?, through: RecordKey?) {
        self.from = from
        self.through = through
    }

    /// True when `key` falls in the range.
    public func contains(_ key: RecordKey) -> Bool {
        (from.map { $0 < key } ?? true) && (through.map { key <= $0 } ?? true)
    }
}
