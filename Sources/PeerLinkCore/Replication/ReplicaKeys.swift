/// Names one record of the replicated state: a collection and an id in it.
///
/// The key hashes its content once, when it is made, so the state's index lookups (the hot
/// path of every write and merge) hash eight bytes instead of two strings.
public struct RecordKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The collection, e.g. `"goal"`.
    public let collection: String
    /// The record id, unique in its collection.
    public let id: String
    /// FNV-1a over both strings' UTF-8 bytes (with a separator), mixed, computed once.
    let contentHash: UInt64

    /// Makes the key of record `id` in `collection`.
    public init(_ collection: String, _ id: String) {
        self.collection = collection
        self.id = id
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        Self.fnv(collection, &h)
        h = (h ^ 0xFF) &* 0x0000_0100_0000_01B3
        Self.fnv(id, &h)
        // MurmurHash3's finalizer, so the low bits (the index's bucket) depend on every byte.
        h = (h ^ (h >> 33)) &* 0xff51_afd7_ed55_8ccd
        h = (h ^ (h >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        contentHash = h ^ (h >> 33)
    }

    /// FNV-1a steps over `s`'s UTF-8, read in place where it is stored as UTF-8 (the view's
    /// iterator costs several times more a byte).
    private static func fnv(_ s: String, _ h: inout UInt64) {
        let seed = h
        h = s.utf8.withContiguousStorageIfAvailable { fnv1a64($0, seed: seed) } ?? fnv1a64(s.utf8, seed: seed)
    }

    /// Equal collection and id.
    public static func == (a: RecordKey, b: RecordKey) -> Bool {
        a.contentHash == b.contentHash && a.id == b.id && a.collection == b.collection
    }

    /// Feeds the precomputed content hash.
    public func hash(into hasher: inout Hasher) { hasher.combine(contentHash) }

    /// Collection first, then id, both by UTF-8 bytes: the canonical record order.
    public static func < (a: RecordKey, b: RecordKey) -> Bool {
        if a.collection != b.collection { return CanonicalEncoding.utf8Less(a.collection, b.collection) }
        return CanonicalEncoding.utf8Less(a.id, b.id)
    }

    /// `collection/id`.
    public var description: String { "\(collection)/\(id)" }
}

/// One last-writer-wins register: a field value and the timestamp of the write that set it.
public struct Register: Hashable, Sendable {
    /// The value of the winning write.
    public var value: PlistValue
    /// The winning write's timestamp.
    public var stamp: HLCTimestamp
    /// The local change sequence number when this register last changed here (not replicated).
    public var seq: UInt64

    /// Makes a register.
    public init(value: PlistValue, stamp: HLCTimestamp, seq: UInt64) {
        self.value = value
        self.stamp = stamp
        self.seq = seq
    }

    /// True when a write of `value` stamped `stamp` beats this register.
    ///
    /// The greater stamp wins. Two writes with the same stamp can only come from one replica
    /// that lost its store and reissued a stamp; the greater canonical encoding then wins, so
    /// every replica still picks the same value (merge stays commutative).
    public func isBeaten(by value: PlistValue, stamp: HLCTimestamp) -> Bool {
        if stamp != self.stamp { return stamp > self.stamp }
        if value == self.value { return false }
        return CanonicalEncoding.encode(self.value).lexicographicallyPrecedes(CanonicalEncoding.encode(value))
    }
}

/// A delete: it dominates every field of the record, whatever their stamps ("delete wins").
public struct Tombstone: Hashable, Sendable {
    /// The delete's timestamp (the greatest when both devices deleted).
    public var stamp: HLCTimestamp
    /// The local change sequence number of the tombstone (not replicated).
    public var seq: UInt64

    /// Makes a tombstone.
    public init(stamp: HLCTimestamp, seq: UInt64) {
        self.stamp = stamp
        self.seq = seq
    }
}

/// One named field of a record and its register.
public struct FieldRegister: Hashable, Sendable {
    /// The field name.
    public var name: String
    /// Its register.
    public var register: Register

    /// Makes a named register.
    public init(name: String, register: Register) {
        self.name = name
        self.register = register
    }
}

/// A record as held: its field registers (sorted by name), or a tombstone.
public struct RecordEntry: Hashable, Sendable {
    /// The field registers in UTF-8 order of their names; empty once deleted.
    public private(set) var registers: [FieldRegister] = []
    /// Set once the record is deleted.
    public private(set) var tombstone: Tombstone?
    /// The highest local sequence number of anything in the record.
    public private(set) var maxSeq: UInt64 = 0

    /// Makes an entry from registers by name, or a tombstone (which drops every field).
    public init(fields: [String: Register] = [:], tombstone: Tombstone? = nil) {
        if let tombstone {
            markDeleted(tombstone)
        } else {
            for (name, reg) in fields { write(name, reg) }
        }
    }

    /// True when the record is shown: not deleted and with at least one field.
    public var isLive: Bool { tombstone == nil && !registers.isEmpty }

    /// The register of field `name`.
    public subscript(name: String) -> Register? {
        for f in registers where f.name == name { return f.register }
        return nil
    }

    /// The registers by name.
    public var fields: [String: Register] {
        var d: [String: Register] = [:]
        d.reserveCapacity(registers.count)
        for f in registers { d[f.name] = f.register }
        return d
    }

    /// The field values by name (built in place: no array of pairs first).
    public var values: [String: PlistValue] {
        var d: [String: PlistValue] = [:]
        d.reserveCapacity(registers.count)
        for f in registers { d[f.name] = f.register.value }
        return d
    }

    /// Fills an entry that has no registers with `values`, all stamped `stamp` at `seq`: what
    /// writing them one by one gives (the names in UTF-8 order), with the names ordered by
    /// their first eight bytes as integers first (a dictionary gives them in no order, and
    /// inserting each in place compared strings again and again).
    mutating func writeAll(_ values: [String: PlistValue], stamp: HLCTimestamp, seq: UInt64) {
        precondition(registers.isEmpty, "writeAll fills an empty record")
        guard !values.isEmpty else { return }
        if seq > maxSeq { maxSeq = seq }
        var entries: [(prefix: UInt64, field: FieldRegister)] = []
        entries.reserveCapacity(values.count)
        for (name, value) in values {
            entries.append((CanonicalEncoding.utf8Prefix(name), FieldRegister(name: name, register: Register(value: value, stamp: stamp, seq: seq))))
        }
        entries.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : CanonicalEncoding.utf8Less($0.field.name, $1.field.name) }
        registers.reserveCapacity(entries.count)
        for e in entries { registers.append(e.field) }
    }

    /// True when `s`'s UTF-8 is all ASCII.
    static func isASCII(_ s: String) -> Bool {
        if let r = s.utf8.withContiguousStorageIfAvailable({ b in !b.contains { $0 >= 0x80 } }) { return r }
        return !s.utf8.contains { $0 >= 0x80 }
    }

    /// Makes room for `n` registers in all, so that writing a new record's fields one by one
    /// does not grow the array several times.
    mutating func reserveRegisters(_ n: Int) {
        if registers.capacity < n { registers.reserveCapacity(n) }
    }

    /// Sets field `name`'s register, keeping the names sorted.
    public mutating func write(_ name: String, _ reg: Register) {
        if reg.seq > maxSeq { maxSeq = reg.seq }
        // A name after the last one (fields merged or built in name order): appended after
        // one comparison, instead of comparing it with every name before. Only for an ASCII
        // name: no name before it can then be `==` to it (a canonically equivalent spelling,
        // "K" and U+212A, sorts after every ASCII name), whereas a non-ASCII name may equal an
        // earlier one ("e\u{301}" and "é") and must replace it, as the loop below does.
        if registers.isEmpty || (Self.isASCII(name) && CanonicalEncoding.utf8Less(registers[registers.count - 1].name, name)) {
            registers.append(FieldRegister(name: name, register: reg))
            return
        }
        var i = 0
        while i < registers.count {
            if registers[i].name == name {
                registers[i].register = reg
                return
            }
            if CanonicalEncoding.utf8Less(name, registers[i].name) { break }
            i += 1
        }
        // Appending is the common case (a new last name) and far cheaper than a general insert.
        if i == registers.count {
            registers.append(FieldRegister(name: name, register: reg))
        } else {
            registers.insert(FieldRegister(name: name, register: reg), at: i)
        }
    }

    /// Deletes the record: drops its fields and keeps `tombstone`.
    public mutating func markDeleted(_ t: Tombstone) {
        registers = []
        tombstone = t
        maxSeq = max(maxSeq, t.seq)
    }

    /// Replaces the tombstone's stamp or local seq (a later delete, or a re-send).
    mutating func updateTombstone(_ t: Tombstone) {
        tombstone = t
        maxSeq = max(maxSeq, t.seq)
    }
}

