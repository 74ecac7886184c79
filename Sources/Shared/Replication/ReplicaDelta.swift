/// One record in a delta: the fields the receiver may lack, or a tombstone.
public struct DeltaRecord: Sendable, Equatable {
    public var key: RecordKey
    public var fields: [(name: String, value: PlistValue, stamp: HLCTimestamp)]
    public var tombstone: HLCTimestamp?

    public init(key: RecordKey, fields: [(name: String, value: PlistValue, stamp: HLCTimestamp)], tombstone: HLCTimestamp?) {
        self.key = key
        self.fields = fields
        self.tombstone = tombstone
    }

    public static func == (a: DeltaRecord, b: DeltaRecord) -> Bool {
        a.key == b.key && a.tombstone == b.tombstone && a.fields.count == b.fields.count
            && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value && $0.stamp == $1.stamp }
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
    public var baseSeq: UInt64
    public var upToSeq: UInt64
    /// What the sender has applied of the receiver: (receiver incarnation, seq).
    public var ackIncarnation: UInt64
    public var ackSeq: UInt64
    /// 0-based part index and number of parts.
    public var part: Int
    public var partCount: Int
    /// Set in the first deltas after the sender's store was reset: resend everything.
    public var storeWasReset: Bool = false
    public var records: [DeltaRecord]

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

    public var isLastPart: Bool { part == partCount - 1 }
}

// MARK: - Encoding

/// The byte form of a delta. Compact on purpose: stamps are written as differences from the
/// delta's smallest wall time, collection names and writer ids through small tables.
///
/// ```
/// u8 format (1)
/// varint origin, u64be incarnation, varint base, varint upTo, u64be ackIncarnation, varint ackSeq
/// varint part, varint partCount, u8 flags (1 = sender store was reset)
/// varint baseWallMs
/// varint collectionCount, collection strings
/// varint recordCount, then per record:
///   varint collectionIndex, string id,
///   u8 flags (1 = tombstone), [stamp if tombstone]
///   varint fieldCount, then per field: string name, stamp, canonical value
/// stamp = varint (wallMs - baseWallMs), varint counter, varint replica
/// ```
public enum ReplicaDeltaCodec {
    static let format: UInt8 = 1

    public static func encode(_ d: ReplicaDelta) -> [UInt8] {
        var w = ByteWriter(capacity: 256)
        w.writeByte(format)
        w.writeVarint(UInt64(d.origin)); w.writeUInt64BE(d.incarnation)
        w.writeVarint(d.baseSeq); w.writeVarint(d.upToSeq)
        w.writeUInt64BE(d.ackIncarnation); w.writeVarint(d.ackSeq)
        w.writeVarint(UInt64(d.part)); w.writeVarint(UInt64(d.partCount))
        w.writeByte(d.storeWasReset ? 1 : 0)
        var baseWall = Int64.max
        for r in d.records {
            if let t = r.tombstone { baseWall = min(baseWall, t.wallMs) }
            for f in r.fields { baseWall = min(baseWall, f.stamp.wallMs) }
        }
        if baseWall == .max { baseWall = 0 }
        w.writeVarint(UInt64(max(0, baseWall)))
        var collections: [String] = []
        var index: [String: Int] = [:]
        for r in d.records where index[r.key.collection] == nil {
            index[r.key.collection] = collections.count
            collections.append(r.key.collection)
        }
        w.writeVarint(UInt64(collections.count))
        for c in collections { w.writeString(c) }
        w.writeVarint(UInt64(d.records.count))
        func stamp(_ s: HLCTimestamp) {
            w.writeVarint(UInt64(s.wallMs - baseWall)); w.writeVarint(UInt64(s.counter)); w.writeVarint(UInt64(s.replica))
        }
        for r in d.records {
            w.writeVarint(UInt64(index[r.key.collection]!))
            w.writeString(r.key.id)
            w.writeByte(r.tombstone == nil ? 0 : 1)
            if let t = r.tombstone { stamp(t) }
            w.writeVarint(UInt64(r.fields.count))
            for f in r.fields {
                w.writeString(f.name)
                stamp(f.stamp)
                CanonicalEncoding.encode(f.value, into: &w)
            }
        }
        return w.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(ByteReaderError) -> ReplicaDelta {
        var r = ByteReader(bytes)
        guard try r.readByte() == format else { throw .malformed("unknown delta format") }
        let origin = try r.readVarint()
        let inc = try r.readUInt64BE()
        let base = try r.readVarint(), upTo = try r.readVarint()
        let ackInc = try r.readUInt64BE(), ackSeq = try r.readVarint()
        let part = try r.readVarint(), partCount = try r.readVarint()
        let flags = try r.readByte()
        guard origin <= UInt64(UInt16.max), partCount >= 1, part < partCount, partCount < 1 << 32 else { throw .malformed("bad delta header") }
        let baseWallRaw = try r.readVarint()
        guard baseWallRaw < 1 << 62 else { throw .malformed("bad base wall time") }
        let baseWall = Int64(baseWallRaw)
        let nColl = try r.readVarint()
        guard nColl <= UInt64(r.remaining) else { throw .lengthTooLarge(nColl) }
        var collections: [String] = []
        for _ in 0..<nColl { collections.append(try r.readString()) }
        func stamp() throws(ByteReaderError) -> HLCTimestamp {
            let dw = try r.readVarint(), c = try r.readVarint(), rep = try r.readVarint()
            guard dw < 1 << 62, c <= UInt64(UInt32.max), rep <= UInt64(UInt16.max) else { throw .malformed("bad stamp") }
            return HLCTimestamp(wallMs: baseWall + Int64(dw), counter: UInt32(c), replica: UInt16(rep))
        }
        let nRec = try r.readVarint()
        guard nRec <= UInt64(r.remaining) else { throw .lengthTooLarge(nRec) }
        var records: [DeltaRecord] = []
        records.reserveCapacity(Int(nRec))
        for _ in 0..<nRec {
            let ci = try r.readVarint()
            guard ci < UInt64(collections.count) else { throw .malformed("bad collection index") }
            let id = try r.readString()
            let flags = try r.readByte()
            let tomb: HLCTimestamp? = flags & 1 == 1 ? try stamp() : nil
            let nf = try r.readVarint()
            guard nf <= UInt64(r.remaining) else { throw .lengthTooLarge(nf) }
            var fields: [(name: String, value: PlistValue, stamp: HLCTimestamp)] = []
            for _ in 0..<nf {
                let name = try r.readString()
                let s = try stamp()
                let v = try CanonicalEncoding.decode(from: &r)
                fields.append((name: name, value: v, stamp: s))
            }
            records.append(DeltaRecord(key: RecordKey(collections[Int(ci)], id), fields: fields, tombstone: tomb))
        }
        guard r.isAtEnd else { throw .malformed("trailing bytes after delta") }
        var d = ReplicaDelta(origin: UInt16(origin), incarnation: inc, baseSeq: base, upToSeq: upTo, ackIncarnation: ackInc, ackSeq: ackSeq, part: Int(part), partCount: Int(partCount), records: records)
        d.storeWasReset = flags & 1 == 1
        return d
    }
}
