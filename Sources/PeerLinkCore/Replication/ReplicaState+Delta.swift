extension ReplicaState {
    /// The records changed here after `baseSeq`, as delta records ordered by key.
    ///
    /// Only registers and tombstones whose local seq is beyond `baseSeq` are included, so the
    /// result grows with what changed, not with the size of the state or its history.
    /// - Parameter excludingWriter: registers and tombstones stamped by this replica id are
    ///   left out (the peer wrote them, so it has them), unless the peer lost its store.
    /// - Parameter wholeRecords: a record with a register of another writer than
    ///   `excludingWriter` is sent with all of its registers (after this store went back in
    ///   time: `ReplicaSync.ownStoreWentBack`).
    public func changes(after baseSeq: UInt64, excludingWriter: UInt16?, wholeRecords: Bool = false) -> [DeltaRecord] {
        var out: [DeltaRecord] = []
        // Slots and registers read in place: `for s in slots` copied each slot, retaining and
        // releasing its key and registers, thousands of them after a workout.
        slots.withUnsafeBufferPointer { slots in
            for i in slots.indices where slots[i].isUsed && slots[i].entry.maxSeq > baseSeq {
                if let t = slots[i].entry.tombstone {
                    if t.seq > baseSeq, t.stamp.replica != excludingWriter {
                        out.append(DeltaRecord(key: slots[i].key, fields: [], tombstone: t.stamp))
                    }
                    continue
                }
                slots[i].entry.registers.withUnsafeBufferPointer { registers in
                    var excluded = excludingWriter
                    if wholeRecords, let writer = excluded, registers.contains(where: { $0.register.stamp.replica != writer }) {
                        excluded = nil
                    }
                    var fields: [DeltaField] = []
                    for f in registers.indices where registers[f].register.seq > baseSeq && registers[f].register.stamp.replica != excluded {
                        // Room for every register at the first one sent: appending five fields one
                        // by one grew the array three times.
                        if fields.isEmpty { fields.reserveCapacity(registers.count) }
                        fields.append(DeltaField(name: registers[f].name, value: registers[f].register.value, stamp: registers[f].register.stamp))
                    }
                    if !fields.isEmpty { out.append(DeltaRecord(key: slots[i].key, fields: fields, tombstone: nil)) }
                }
            }
        }
        out.sort { $0.key < $1.key }
        return out
    }

    /// Everything held, as a reset peer needs it: every live record and every tombstone.
    public func fullState() -> [DeltaRecord] { changes(after: 0, excludingWriter: nil) }

    /// Merges every record of a delta part. Returns the number of records that changed here.
    ///
    /// This is the pure join: tombstones received here are kept (`ReplicaSync.receive`
    /// collects them), so applying deltas in any order, any grouping, any number of times
    /// gives the same visible state.
    @discardableResult
    public mutating func apply(_ delta: ReplicaDelta, wallMs: Int64) -> Int {
        apply(delta.records, wallMs: wallMs)
    }

    /// Merges delta records (see `apply(_:wallMs:)`).
    @discardableResult
    public mutating func apply(_ records: [DeltaRecord], wallMs: Int64) -> Int {
        var n = 0
        for r in records where merge(r, wallMs: wallMs) { n += 1 }
        return n
    }
}
