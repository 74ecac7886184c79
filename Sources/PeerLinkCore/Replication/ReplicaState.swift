/// The replicated state of one node: records of last-writer-wins registers keyed by id, with
/// tombstones, and grow-only collections (samples).
///
/// Every local write is stamped by the node's hybrid logical clock. Merging a peer's delta
/// is commutative, associative and idempotent: for each field the register with the greater
/// stamp wins (equal stamps: the greater canonical value); a tombstone beats every field of
/// its record whatever the stamps (a deleted goal stays deleted even when the other device
/// edited it offline; ids are never reused).
///
/// Storage: each record lives in a slot of an array, found through an index keyed by
/// `RecordKey` (which hashes its content once), so a write hashes once and mutates in place.
/// The state does no I/O. Changes since the last `drainChanges()` are listed so the shell
/// can persist exactly those rows.
public struct ReplicaState: Sendable {
    /// This replica's id (`DeviceRole.replicaID`).
    public let replica: UInt16
    /// Which collections are grow-only (the app's).
    public let schema: ReplicaSchema
    /// The clock that stamps local writes.
    public internal(set) var clock: HybridLogicalClock
    /// Local change counter: every change here (own write or merged) takes the next value.
    public internal(set) var seq: UInt64 = 0
    /// Set false to skip change tracking (benchmarks of the pure merge; nothing is persisted).
    public var tracksChanges = true
    /// The last `digestHex()` with the `seq` it was taken at (see `cachedDigestHex`). A value
    /// like the rest: a copy carries the cache of its own state.
    var digestCache: (seq: UInt64, hex: String)?

    /// One record's place.
    struct Slot: Sendable {
        var key: RecordKey
        var entry: RecordEntry
        var isGrowOnly: Bool
        var isUsed: Bool
        /// Listed in `dirtySlots` (stays set on a freed slot until the next drain).
        var isDirty: Bool
    }

    var index = RecordIndex()
    var slots: [Slot] = []
    var freeSlots: [Int] = []
    var dirtySlots: [Int] = []
    var removedKeys: Set<RecordKey> = []
    /// Tombstones held (kept current so acknowledgements can skip the scan).
    var heldTombstones = 0
    /// Records whose tombstones were collected: the id and the delete's stamp. Ids are never
    /// reused, so a write to one is a stale write (from a peer that edited offline or whose
    /// store went back in time) and must never bring the record back. A complete resend
    /// carries them as tombstones. Bounded: `graveLifetimeMs` and `maxGraves`
    /// (ReplicaState+Graves.swift).
    public internal(set) var graves: [RecordKey: HLCTimestamp] = [:]
    /// The earliest wall time at which a grave may have expired (nil: none held); a hint that
    /// spares `pruneGraves` a scan, never later than the truth.
    var graveExpiryHintMs: Int64?
    /// Graves added and removed since the last `drainGraveChanges()`.
    var gravesAdded: Set<RecordKey> = []
    var gravesRemoved: Set<RecordKey> = []
    /// The meta rows as last persisted (see `ReplicaPersistence.persistChanges`).
    var persistedMeta: [UInt8] = []
    /// What those rows were made from, when known: while it still holds and no record or
    /// grave changed, there is nothing to persist (most events change nothing replicated).
    var persistedMetaInputs: PersistedMetaInputs?

    struct PersistedMetaInputs: Equatable {
        var seq: UInt64
        var clock: HLCTimestamp
        var sync: ReplicaSync.Persistent
    }

    /// An empty state for replica `replica`.
    /// `schema`: the app's (which collections are grow-only).
    public init(replica: UInt16, schema: ReplicaSchema) {
        self.replica = replica
        self.schema = schema
        clock = HybridLogicalClock(replica: replica)
    }

    // MARK: - Reading

    /// The entry held for `key` (live, or a tombstone not yet collected).
    public func entry(_ key: RecordKey) -> RecordEntry? {
        slotIndex(of: key).map { slots[$0].entry }
    }

    /// Every entry held, live or tombstone (a snapshot: O(records)).
    public var records: [RecordKey: RecordEntry] {
        var out: [RecordKey: RecordEntry] = [:]
        out.reserveCapacity(index.count)
        for s in slots where s.isUsed { out[s.key] = s.entry }
        return out
    }

    /// Number of entries held, tombstones included.
    public var entryCount: Int { index.count }

    /// The live fields of a record; nil when absent or deleted.
    public func fields(_ key: RecordKey) -> [String: PlistValue]? {
        guard let e = entry(key), e.isLive else { return nil }
        return e.values
    }

    /// True when the record has a tombstone here.
    public func isDeleted(_ key: RecordKey) -> Bool { entry(key)?.tombstone != nil }

    /// True when a write of replica `writer` is held: a field, a tombstone or a collected delete.
    public func holdsWrites(of writer: UInt16) -> Bool {
        graves.values.contains { $0.replica == writer }
            || records.values.contains { e in e.tombstone?.stamp.replica == writer || e.registers.contains { $0.register.stamp.replica == writer } }
    }

    /// True when the key was ever used here: a record held (live or a tombstone) or a grave
    /// (a collected delete). Ids are never reused, so a new record must take a key for which
    /// this is false.
    public func hasUsed(_ key: RecordKey) -> Bool { slotIndex(of: key) != nil || graves[key] != nil }

    /// Every live record of `collection`, ordered by id.
    public func records(in collection: String) -> [(id: String, fields: [String: PlistValue])] {
        slots.filter { $0.isUsed && $0.key.collection == collection && $0.entry.isLive }
            .sorted { $0.key < $1.key }
            .map { (id: $0.key.id, fields: $0.entry.values) }
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
        slots.reduce(0) { $0 + ($1.isUsed && $1.key.collection == collection && $1.entry.isLive ? 1 : 0) }
    }

    /// Tombstones still held (for tests and figures).
    public var tombstoneCount: Int { heldTombstones }

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
        if let slot = slotIndex(of: key), let refusal = refusal(writing: slot) { return .failure(refusal) }
        if graves[key] != nil { return .failure(.recordDeleted(key)) }
        let stamp = clock.tick(wallMs: wallMs)
        guard !values.isEmpty else { return .success(stamp) }
        let slot = slotIndex(of: key) ?? makeSlot(key)
        seq &+= 1
        if slots[slot].entry.registers.isEmpty {
            slots[slot].entry.writeAll(values, stamp: stamp, seq: seq)
        } else {
            for (name, value) in values { slots[slot].entry.write(name, Register(value: value, stamp: stamp, seq: seq)) }
        }
        touch(slot)
        return .success(stamp)
    }

    /// Sets one field of a record at wall time `wallMs` (the allocation-free fast path).
    @discardableResult
    public mutating func set(_ key: RecordKey, field name: String, to value: PlistValue, wallMs: Int64) -> Result<HLCTimestamp, WriteRefusal> {
        if graves[key] != nil { return .failure(.recordDeleted(key)) }
        let slot = slotIndex(of: key) ?? makeSlot(key)
        if let refusal = refusal(writing: slot) { return .failure(refusal) }
        let stamp = clock.tick(wallMs: wallMs)
        seq &+= 1
        slots[slot].entry.write(name, Register(value: value, stamp: stamp, seq: seq))
        touch(slot)
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
        if schema.isGrowOnly(key.collection) { return .failure(.notDeletable(key)) }
        if let t = entry(key)?.tombstone { return .success(t.stamp) }
        if let g = graves[key] { return .success(g) }
        let stamp = clock.tick(wallMs: wallMs)
        seq &+= 1
        let slot = slotIndex(of: key) ?? makeSlot(key)
        slots[slot].entry.markDeleted(Tombstone(stamp: stamp, seq: seq))
        heldTombstones += 1
        touch(slot)
        return .success(stamp)
    }

    private func refusal(writing slot: Int) -> WriteRefusal? {
        // Reads fields in place: copying the slot would retain and release its storage.
        if slots[slot].entry.tombstone != nil { return .recordDeleted(slots[slot].key) }
        if slots[slot].isGrowOnly, !slots[slot].entry.registers.isEmpty { return .immutableRecord(slots[slot].key) }
        return nil
    }

    // MARK: - Slots

    /// Adds an empty slot for `key` (which MUST not have one).
    mutating func makeSlot(_ key: RecordKey) -> Int {
        let isGrowOnly = schema.isGrowOnly(key.collection)
        let i = freeSlots.popLast() ?? slots.count
        indexInsert(key, slot: i)
        if i < slots.count {
            slots[i] = Slot(key: key, entry: RecordEntry(), isGrowOnly: isGrowOnly, isUsed: true, isDirty: slots[i].isDirty)
        } else {
            slots.append(Slot(key: key, entry: RecordEntry(), isGrowOnly: isGrowOnly, isUsed: true, isDirty: false))
        }
        return i
    }

    /// Removes a record entirely (a collected tombstone).
    mutating func freeSlot(_ i: Int) {
        let key = slots[i].key
        indexRemove(key)
        if let t = slots[i].entry.tombstone {
            heldTombstones -= 1
            graves[key] = t.stamp
            gravesAdded.insert(key)
            gravesRemoved.remove(key)
            noteGraveExpiry(t.stamp)
        }
        slots[i].isUsed = false
        slots[i].entry = RecordEntry()
        freeSlots.append(i)
        if tracksChanges { removedKeys.insert(key) }
    }

    /// Notes that slot `i` changed, for `drainChanges()`.
    mutating func touch(_ i: Int) {
        guard tracksChanges, !slots[i].isDirty else { return }
        slots[i].isDirty = true
        dirtySlots.append(i)
    }

    // MARK: - Loading

    /// Restores a record read from the store (no stamping, no change tracking).
    public mutating func load(_ key: RecordKey, _ entry: RecordEntry) {
        digestCache = nil  // a load changes records without a new seq
        let slot = slotIndex(of: key) ?? makeSlot(key)
        if slots[slot].entry.tombstone != nil { heldTombstones -= 1 }
        if entry.tombstone != nil { heldTombstones += 1 }
        slots[slot].entry = entry
        seq = max(seq, entry.maxSeq)
        if let t = entry.tombstone { clock.raise(to: t.stamp) }
        for f in entry.registers { clock.raise(to: f.register.stamp) }
    }

    /// Restores a grave read from the store.
    public mutating func loadGrave(_ key: RecordKey, _ stamp: HLCTimestamp) {
        graves[key] = stamp
        noteGraveExpiry(stamp)
        clock.raise(to: stamp)
    }

    /// The graves added and removed since the last call; clears both lists.
    public mutating func drainGraveChanges() -> (added: [RecordKey], removed: [RecordKey]) {
        defer { gravesAdded = []; gravesRemoved = [] }
        return (gravesAdded.sorted(), gravesRemoved.sorted())
    }

    /// Restores the change counter read from the store.
    public mutating func loadSeq(_ s: UInt64) { seq = max(seq, s) }

    /// Restores the clock's last timestamp read from the store (it never goes back on restart).
    public mutating func loadClock(_ last: HLCTimestamp) { clock.raise(to: last) }
}
