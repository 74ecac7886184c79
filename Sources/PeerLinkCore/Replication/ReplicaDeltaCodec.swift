/// The byte form of a delta part. Compact on purpose, since resync cost is counted in bytes:
/// records are grouped by collection with ids prefix-compressed, field names and writer ids
/// go through per-part tables, stamps are offsets from the part's smallest wall time, and
/// small non-negative integers take one byte.
///
/// ```
/// u8 format (2)
/// varint origin, u64be incarnation, varint baseSeq, signed varint (upToSeq - baseSeq)
/// u64be ackIncarnation, varint ackSeq
/// u8 flags (1 = sender store was reset, 2 = multi-part, 4 = complete resend),
///   [varint part, varint partCount], [coverage: u8 hasFrom, [string collection, string id],
///   u8 hasThrough, [string collection, string id]]
/// signed varint baseWallMs (the smallest wall time of any stamp; 0 when none)
/// varint writerCount, varint replica ids
/// varint nameCount, strings (field names)
/// varint collectionCount, then per collection:
///   string collection, varint recordCount, then per record (ids ascending by UTF-8):
///     varint (shared << 4 | min(suffixLen, 15)), [varint suffixLen when ≥ 15], suffix bytes
///       (shared = bytes in common with the previous id of the collection)
///     varint (fieldCount << 1 | hasTombstone), [stamp when hasTombstone]
///     per field: varint nameIndex, stamp, value
/// stamp = varint (wallMs - baseWallMs), varint (counter * writerCount + writerIndex)
/// value = one byte 0x80 | n for an integer n in 0...127, else the canonical encoding
///         (whose tag bytes are below 0x80)
/// ```
/// Each part decodes alone. Decoding checks every count against the bytes left and every
/// index against its table; it never traps on hostile input.
public enum ReplicaDeltaCodec {
    static let format: UInt8 = 2
    static let flagReset: UInt8 = 1
    static let flagMultiPart: UInt8 = 2
    static let flagComplete: UInt8 = 4
    /// The largest part count a decoder accepts.
    public static let maxPartCount = 1 << 20
    /// Stamps beyond this wall time (about year 287,000) are refused, so a hostile stamp
    /// cannot push a clock to where its arithmetic would overflow.
    public static let maxWallMs: Int64 = 1 << 53

    // MARK: - Encoding

    /// Encodes one delta part.
    public static func encode(_ d: ReplicaDelta) -> [UInt8] {
        let records = d.records.isSorted { $0.key < $1.key } ? d.records : d.records.sorted { $0.key < $1.key }
        var w = ByteWriter(capacity: 64 + records.count * 12)
        w.writeByte(format)
        w.writeVarint(UInt64(d.origin)); w.writeUInt64BE(d.incarnation)
        w.writeVarint(d.baseSeq); w.writeSignedVarint(Int64(bitPattern: d.upToSeq &- d.baseSeq))
        w.writeUInt64BE(d.ackIncarnation); w.writeVarint(d.ackSeq)
        let multi = d.partCount != 1 || d.part != 0
        w.writeByte((d.storeWasReset ? flagReset : 0) | (multi ? flagMultiPart : 0) | (d.coverage != nil ? flagComplete : 0))
        if multi { w.writeVarint(UInt64(d.part)); w.writeVarint(UInt64(d.partCount)) }
        if let c = d.coverage {
            for bound in [c.from, c.through] {
                if let k = bound { w.writeByte(1); w.writeString(k.collection); w.writeString(k.id) } else { w.writeByte(0) }
            }
        }

        // Tables. Records of a collection repeat the same field names in the same order and
        // most stamps are one writer's: each field's name is first compared with the one at
        // its position in the record before (`FieldNames`), and a stamp's writer with the last
        // one, before a table is searched (hashing them cost more than writing the fields).
        var baseWall = Int64.max
        var writers: [UInt16] = [], writerIndex: [UInt16: Int] = [:]
        var lastWriter: (id: UInt16, index: Int)?
        var names: [String] = [], nameIndex: [String: Int] = [:]
        func writer(_ id: UInt16) -> Int {
            if let last = lastWriter, last.id == id { return last.index }
            let index: Int
            if let known = writerIndex[id] { index = known } else { index = writers.count; writerIndex[id] = index; writers.append(id) }
            lastWriter = (id, index)
            return index
        }
        func noteStamp(_ s: HLCTimestamp) {
            if s.wallMs < baseWall { baseWall = s.wallMs }
            _ = writer(s.replica)
        }
        var seen = FieldNames()
        for r in records {
            if let t = r.tombstone { noteStamp(t) }
            for j in r.fields.indices {
                noteStamp(r.fields[j].stamp)
                _ = seen.index(of: r.fields[j].name, at: j) { name in
                    if let known = nameIndex[name] { return known }
                    nameIndex[name] = names.count
                    names.append(name)
                    return names.count - 1
                }
            }
        }
        if baseWall == .max { baseWall = 0 }
        w.writeSignedVarint(baseWall)
        w.writeVarint(UInt64(writers.count))
        for id in writers { w.writeVarint(UInt64(id)) }
        w.writeVarint(UInt64(names.count))
        for n in names { w.writeString(n) }

        let writerCount = UInt64(writers.count)
        func stamp(_ s: HLCTimestamp) {
            w.writeVarint(UInt64(bitPattern: s.wallMs &- baseWall))
            w.writeVarint(UInt64(s.counter) * writerCount + UInt64(writer(s.replica)))
        }

        // Records, grouped by collection.
        var written = FieldNames()
        var groups: [(collection: String, start: Int, end: Int)] = []
        for (i, r) in records.enumerated() {
            if let last = groups.last, last.collection == r.key.collection {
                groups[groups.count - 1].end = i + 1
            } else {
                groups.append((r.key.collection, i, i + 1))
            }
        }
        w.writeVarint(UInt64(groups.count))
        for g in groups {
            w.writeString(g.collection)
            w.writeVarint(UInt64(g.end - g.start))
            var previous: [UInt8] = []
            for r in records[g.start..<g.end] {
                let id = Array(r.key.id.utf8)
                var shared = 0
                while shared < id.count, shared < previous.count, id[shared] == previous[shared] { shared += 1 }
                let suffix = id.count - shared
                w.writeVarint(UInt64(shared) << 4 | UInt64(min(suffix, 15)))
                if suffix >= 15 { w.writeVarint(UInt64(suffix)) }
                w.writeBytes(id[shared...])
                previous = id
                w.writeVarint(UInt64(r.fields.count) << 1 | (r.tombstone == nil ? 0 : 1))
                if let t = r.tombstone { stamp(t) }
                for j in r.fields.indices {
                    w.writeVarint(UInt64(written.index(of: r.fields[j].name, at: j) { nameIndex[$0]! }))
                    stamp(r.fields[j].stamp)
                    writeValue(r.fields[j].value, &w)
                }
            }
        }
        return w.bytes
    }

    /// The table index of the field name at each position of the last record asked about.
    struct FieldNames {
        var byPosition: [(name: String, index: Int)] = []

        /// The index of `name`, the field at `position`: the one remembered for the position
        /// when the name is the same, else `lookUp(name)` (then remembered).
        @inline(__always)
        mutating func index(of name: String, at position: Int, lookUp: (String) -> Int) -> Int {
            if position < byPosition.count, byPosition[position].name == name { return byPosition[position].index }
            let index = lookUp(name)
            if position < byPosition.count { byPosition[position] = (name, index) } else { byPosition.append((name, index)) }
            return index
        }
    }

    static func writeValue(_ v: PlistValue, _ w: inout ByteWriter) {
        if case .int(let n) = v, n >= 0, n < 0x80 {
            w.writeByte(0x80 | UInt8(n))
        } else {
            CanonicalEncoding.encode(v, into: &w)
        }
    }

    static func readValue(_ r: inout ByteReader) throws(ByteReaderError) -> PlistValue {
        guard r.remaining > 0 else { throw .truncated }
        let b = r.bytes[r.offset]
        if b >= 0x80 {
            _ = try r.readByte()
            return .int(Int64(b & 0x7F))
        }
        return try CanonicalEncoding.decode(from: &r)
    }

    // MARK: - Decoding

    /// Decodes one delta part; throws on anything malformed (never traps).
    public static func decode(_ bytes: [UInt8]) throws(ByteReaderError) -> ReplicaDelta {
        var r = ByteReader(bytes)
        guard try r.readByte() == format else { throw .malformed("unknown delta format") }
        let origin = try r.readVarint()
        let inc = try r.readUInt64BE()
        let base = try r.readVarint()
        let span = try r.readSignedVarint()
        let ackInc = try r.readUInt64BE(), ackSeq = try r.readVarint()
        let flags = try r.readByte()
        guard flags & ~(flagReset | flagMultiPart | flagComplete) == 0 else { throw .malformed("unknown delta flags") }
        var part: UInt64 = 0, partCount: UInt64 = 1
        if flags & flagMultiPart != 0 { part = try r.readVarint(); partCount = try r.readVarint() }
        var coverage: DeltaCoverage?
        if flags & flagComplete != 0 {
            var bounds: [RecordKey?] = []
            for _ in 0..<2 {
                switch try r.readByte() {
                case 0: bounds.append(nil)
                case 1: bounds.append(RecordKey(try r.readString(), try r.readString()))
                default: throw .malformed("bad coverage bound")
                }
            }
            coverage = DeltaCoverage(from: bounds[0], through: bounds[1])
        }
        guard origin <= UInt64(UInt16.max), partCount >= 1, part < partCount, partCount <= UInt64(maxPartCount) else {
            throw .malformed("bad delta header")
        }
        let baseWall = try r.readSignedVarint()

        let writerCount = try r.readVarint()
        guard writerCount <= UInt64(r.remaining) else { throw .lengthTooLarge(writerCount) }
        var writers: [UInt16] = []
        for _ in 0..<writerCount {
            let id = try r.readVarint()
            guard id <= UInt64(UInt16.max) else { throw .malformed("bad writer id") }
            writers.append(UInt16(id))
        }
        let nameCount = try r.readVarint()
        guard nameCount <= UInt64(r.remaining) else { throw .lengthTooLarge(nameCount) }
        var names: [String] = []
        for _ in 0..<nameCount { names.append(try r.readString()) }

        func stamp() throws(ByteReaderError) -> HLCTimestamp {
            let dw = try r.readVarint(), packed = try r.readVarint()
            guard writerCount > 0, dw < 1 << 62 else { throw .malformed("bad stamp") }
            let (wall, overflow) = baseWall.addingReportingOverflow(Int64(dw))
            let counter = packed / writerCount
            guard !overflow, wall >= -maxWallMs, wall <= maxWallMs, counter <= UInt64(UInt32.max) else { throw .malformed("bad stamp") }
            return HLCTimestamp(wallMs: wall, counter: UInt32(counter), replica: writers[Int(packed % writerCount)])
        }

        var records: [DeltaRecord] = []
        let groupCount = try r.readVarint()
        guard groupCount <= UInt64(r.remaining) else { throw .lengthTooLarge(groupCount) }
        for _ in 0..<groupCount {
            let collection = try r.readString()
            let n = try r.readVarint()
            guard n <= UInt64(r.remaining) else { throw .lengthTooLarge(n) }
            records.reserveCapacity(records.count + Int(n))
            // The previous id's bytes, then this id's: its shared bytes kept and the suffix
            // appended in place (a copy of the previous id per record cost two allocations).
            var idBytes: [UInt8] = []
            for _ in 0..<n {
                let head = try r.readVarint()
                let shared = head >> 4
                var suffix = head & 15
                if suffix == 15 { suffix = try r.readVarint() }
                guard shared <= UInt64(idBytes.count), suffix <= UInt64(r.remaining) else { throw .malformed("bad record id") }
                idBytes.removeLast(idBytes.count - Int(shared))
                idBytes.append(contentsOf: try r.readBytes(Int(suffix)))
                guard let id = idBytes.withUnsafeBufferPointer({ ByteReader.string(validatingUTF8: $0) }) else { throw .invalidUTF8 }
                let shape = try r.readVarint()
                let tomb: HLCTimestamp? = shape & 1 == 1 ? try stamp() : nil
                let fieldCount = shape >> 1
                guard fieldCount <= UInt64(r.remaining) else { throw .lengthTooLarge(fieldCount) }
                var fields: [DeltaField] = []
                fields.reserveCapacity(Int(fieldCount))
                for _ in 0..<fieldCount {
                    let ni = try r.readVarint()
                    guard ni < UInt64(names.count) else { throw .malformed("bad field name index") }
                    let s = try stamp()
                    fields.append(DeltaField(name: names[Int(ni)], value: try readValue(&r), stamp: s))
                }
                records.append(DeltaRecord(key: RecordKey(collection, id), fields: fields, tombstone: tomb))
            }
        }
        guard r.isAtEnd else { throw .malformed("trailing bytes after delta") }
        var d = ReplicaDelta(origin: UInt16(origin), incarnation: inc, baseSeq: base, upToSeq: base &+ UInt64(bitPattern: span),
                             ackIncarnation: ackInc, ackSeq: ackSeq, part: Int(part), partCount: Int(partCount), records: records)
        d.storeWasReset = flags & flagReset != 0
        d.coverage = coverage
        return d
    }
}

fileprivate extension Array {
    /// True when every element is ordered before or equal to the next by `less`.
    func isSorted(by less: (Element, Element) -> Bool) -> Bool {
        var i = 1
        while i < count {
            if less(self[i], self[i - 1]) { return false }
            i += 1
        }
        return true
    }
}
