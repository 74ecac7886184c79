/// The replicated state of one node: records of last-writer-wins registers keyed by id, with
/// tombstones, and grow-only collections (samples).
///
/// Every local write is stamped by the node's hybrid logical clock. Merging a peer's delta
/// is commutative, associative and idempotent: for each field the register with the greater
/// stamp wins; a tombstone beats every field of its record whatever the stamps (a deleted
/// goal stays deleted even when the other device edited it offline; ids are never reused).
///
/// The state does no I/O. Changes since the last `drainChanges()` are listed so the shell
/// can persist exactly those rows.
public struct ReplicaState: Sendable {
    /// This replica's id (`DeviceRole.replicaID`).
    public let replica: UInt16
    public private(set) var clock: HybridLogicalClock
    public private(set) var records: [RecordKey: RecordEntry] = [:]
    /// Local change counter: every change here (own write or merged) takes the next value.
    public private(set) var seq: UInt64 = 0
    /// Records changed since the last `drainChanges()`.
    public private(set) var changed: Set<RecordKey> = []
    /// Records removed entirely (tombstone collected) since the last `drainChanges()`.
    public private(set) var removed: Set<RecordKey> = []
    /// Set false to skip change tracking (benchmarks of the pure merge).
    public var tracksChanges = true

    public init(replica: UInt16) {
        self.replica = replica
        clock = HybridLogicalClock(replica: replica)
    }

    // MARK: - Reading

    /// The live fields of a record; nil when absent or deleted.
    public func fields(_ key: RecordKey) -> [String: PlistValue]? {
        guard let e = records[key], e.tombstone == nil, !e.fields.isEmpty else { return nil }
        return e.fields.mapValues(\.value)
    }

    /// True when the record has a tombstone here.
    public func isDeleted(_ key: RecordKey) -> Bool { records[key]?.tombstone != nil }

    /// Every live record of `collection`, ordered by id.
    public func records(in collection: String) -> [(id: String, fields: [String: PlistValue])] {
        records.filter { $0.key.collection == collection && $0.value.tombstone == nil && !$0.value.fields.isEmpty }
            .sorted { $0.key < $1.key }
            .map { (id: $0.key.id, fields: $0.value.fields.mapValues(\.value)) }
    }

    /// A typed record.
    public func record<R: ReplicatedRecord>(_ type: R.Type, id: String) -> R? {
        fields(RecordKey(R.collection, id)).flatMap { R(id: id, fields: $0) }
    }

    /// Every typed record of a collection, ordered by id (records that do not decode are skipped).
    public func all<R: ReplicatedRecord>(_ type: R.Type) -> [R] {
        records(in: R.collection).compactMap { R(id: $0.id, fields: $0.fields) }
    }

    /// Number of live records in `collection`.
    public func count(in collection: String) -> Int {
        records.reduce(0) { $0 + ($1.key.collection == collection && $1.value.tombstone == nil && !$1.value.fields.isEmpty ? 1 : 0) }
    }

    // MARK: - Local writes

    /// Why a local write was not applied.
    public enum WriteRefusal: Error, Equatable, Sendable {
        /// The record was deleted; ids are never reused.
        case recordDeleted(RecordKey)
        /// Grow-only records cannot change once written.
        case immutableRecord(RecordKey)
        /// Grow-only records cannot be deleted.
        case notDeletable(RecordKey)
    }

    /// Sets `values` on a record at wall time `wallMs`; all fields share one timestamp.
    @discardableResult
    public mutating func set(_ key: RecordKey, _ values: [String: PlistValue], wallMs: Int64) -> Result<HLCTimestamp, WriteRefusal> {
        if let e = records[key] {
            if e.tombstone != nil { return .failure(.recordDeleted(key)) }
            if GrowOnlyCollections.names.contains(key.collection), !e.fields.isEmpty { return .failure(.immutableRecord(key)) }
        }
        let stamp = clock.tick(wallMs: wallMs)
        seq += 1
        var entry = records[key] ?? RecordEntry()
        for (name, value) in values { entry.fields[name] = Register(value: value, stamp: stamp, seq: seq) }
        records[key] = entry
        if tracksChanges { changed.insert(key) }
        return .success(stamp)
    }

    /// Writes a typed record (all its fields).
    @discardableResult
    public mutating func put<R: ReplicatedRecord>(_ record: R, wallMs: Int64) -> Result<HLCTimestamp, WriteRefusal> {
        set(RecordKey(R.collection, record.id), record.fields, wallMs: wallMs)
    }

    /// Deletes a record: a tombstone that wins over every edit of it, now or later.
    @discardableResult
    public mutating func delete(_ key: RecordKey, wallMs: Int64) -> Result<HLCTimestamp, WriteRefusal> {
        if GrowOnlyCollections.names.contains(key.collection) { return .failure(.notDeletable(key)) }
        if let t = records[key]?.tombstone { return .success(t.stamp) }
        let stamp = clock.tick(wallMs: wallMs)
        seq += 1
        records[key] = RecordEntry(fields: [:], tombstone: Tombstone(stamp: stamp, seq: seq))
        if tracksChanges { changed.insert(key) }
        return .success(stamp)
    }

    // MARK: - Merge

    /// Merges one record received from the peer; returns true when anything changed here.
    @discardableResult
    public mutating func merge(_ key: RecordKey, fields incoming: [String: (value: PlistValue, stamp: HLCTimestamp)], tombstone: HLCTimestamp?, wallMs: Int64) -> Bool {
        var entry = records[key] ?? RecordEntry()
        var didChange = false
        var maxStamp = HLCTimestamp.zero
        if let t = tombstone {
            maxStamp = t
            if let existing = entry.tombstone {
                if t > existing.stamp { entry.tombstone = Tombstone(stamp: t, seq: existing.seq) }
            } else {
                seq += 1
                entry = RecordEntry(fields: [:], tombstone: Tombstone(stamp: t, seq: seq))
                didChange = true
            }
        }
        if entry.tombstone == nil {
            var bumped = false
            for (name, reg) in incoming {
                if reg.stamp > maxStamp { maxStamp = reg.stamp }
                if let mine = entry.fields[name], mine.stamp >= reg.stamp { continue }
                if !bumped { seq += 1; bumped = true }
                entry.fields[name] = Register(value: reg.value, stamp: reg.stamp, seq: seq)
                didChange = true
            }
        } else {
            for reg in incoming.values where reg.stamp > maxStamp { maxStamp = reg.stamp }
        }
        if maxStamp > .zero { clock.observe(maxStamp, wallMs: wallMs) }
        if didChange {
            records[key] = entry
            if tracksChanges { changed.insert(key) }
        }
        return didChange
    }

    // MARK: - Tombstone collection

    /// Removes tombstones whose local seq is at most `seqAcknowledged` (the peer has them).
    /// Returns how many were collected.
    @discardableResult
    public mutating func collectTombstones(upTo seqAcknowledged: UInt64) -> Int {
        let doomed = records.filter { ($0.value.tombstone?.seq ?? .max) <= seqAcknowledged }.map(\.key)
        for k in doomed {
            records[k] = nil
            if tracksChanges { changed.remove(k); removed.insert(k) }
        }
        return doomed.count
    }

    /// Removes received tombstones at once: the peer that sent one already holds it, and a
    /// tombstone's fields are gone here, so nothing can be resurrected from this side.
    mutating func collectTombstone(_ key: RecordKey) {
        guard records[key]?.tombstone != nil else { return }
        records[key] = nil
        if tracksChanges { changed.remove(key); removed.insert(key) }
    }

    /// Tombstones still held (for tests and figures).
    public var tombstoneCount: Int { records.values.reduce(0) { $0 + ($1.tombstone == nil ? 0 : 1) } }

    // MARK: - Change tracking

    /// The records changed and removed since the last call; clears both lists.
    public mutating func drainChanges() -> (changed: [RecordKey], removed: [RecordKey]) {
        defer { changed = []; removed = [] }
        return (changed.sorted(), removed.sorted())
    }

    // MARK: - Loading

    /// Restores a record read from the store (no stamping, no change tracking).
    public mutating func load(_ key: RecordKey, _ entry: RecordEntry) {
        records[key] = entry
        seq = max(seq, entry.maxSeq)
        if let t = entry.tombstone { clock.raise(to: t.stamp) }
        for r in entry.fields.values { clock.raise(to: r.stamp) }
    }

    /// Restores the change counter read from the store.
    public mutating func loadSeq(_ s: UInt64) { seq = max(seq, s) }
}
