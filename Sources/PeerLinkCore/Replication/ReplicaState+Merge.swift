extension ReplicaState {
    // MARK: - Merge

    /// Merges one record received from the peer; returns true when anything changed here.
    ///
    /// - Every stamp in it is observed by the clock, so a later local write wins over it.
    /// - A tombstone deletes the record (grow-only collections ignore tombstones).
    /// - Fields for a record deleted here lose; the tombstone is then marked changed so the
    ///   next delta sends it again: the writer of those fields deletes them too, whether it
    ///   edited offline or wrote after collecting the tombstone.
    @discardableResult
    public mutating func merge(_ r: DeltaRecord, wallMs: Int64) -> Bool {
        var maxStamp = r.tombstone ?? .zero
        for f in r.fields where f.stamp > maxStamp { maxStamp = f.stamp }
        if maxStamp > .zero { clock.observe(maxStamp, wallMs: wallMs) }
        if let grave = graves[r.key] {
            // Deleted here long ago. A tombstone changes nothing; fields are a stale write:
            // the tombstone is held again (and sent) so their writer deletes the record too.
            guard !r.fields.isEmpty else { return false }
            graves[r.key] = nil
            gravesRemoved.insert(r.key)
            gravesAdded.remove(r.key)
            seq &+= 1
            let s = makeSlot(r.key)
            slots[s].entry.markDeleted(Tombstone(stamp: max(grave, r.tombstone ?? .zero), seq: seq))
            heldTombstones += 1
            touch(s)
            return false
        }
        let existing = slotIndex(of: r.key)
        if let t = r.tombstone, !schema.isGrowOnly(r.key.collection) {
            if let s = existing, let mine = slots[s].entry.tombstone {
                if t > mine.stamp {
                    slots[s].entry.updateTombstone(Tombstone(stamp: t, seq: mine.seq))
                    touch(s)
                }
                return false
            }
            seq &+= 1
            let s = existing ?? makeSlot(r.key)
            slots[s].entry.markDeleted(Tombstone(stamp: t, seq: seq))
            heldTombstones += 1
            touch(s)
            return true
        }
        guard !r.fields.isEmpty else { return false }
        if let s = existing, let mine = slots[s].entry.tombstone {
            seq &+= 1
            slots[s].entry.updateTombstone(Tombstone(stamp: mine.stamp, seq: seq))
            touch(s)
            return false
        }
        let s = existing ?? makeSlot(r.key)
        if existing == nil { slots[s].entry.reserveRegisters(r.fields.count) }
        var bumped = false
        for f in r.fields {
            if let mine = slots[s].entry[f.name], !mine.isBeaten(by: f.value, stamp: f.stamp) { continue }
            if !bumped { seq &+= 1; bumped = true }
            slots[s].entry.write(f.name, Register(value: f.value, stamp: f.stamp, seq: seq))
        }
        if bumped { touch(s) }
        return bumped
    }

    /// Merges one record given as fields by name (see `merge(_:wallMs:)`).
    @discardableResult
    public mutating func merge(_ key: RecordKey, fields incoming: [String: (value: PlistValue, stamp: HLCTimestamp)], tombstone: HLCTimestamp?, wallMs: Int64) -> Bool {
        let fields = incoming.map { DeltaField(name: $0.key, value: $0.value.value, stamp: $0.value.stamp) }
        return merge(DeltaRecord(key: key, fields: fields, tombstone: tombstone), wallMs: wallMs)
    }

    // MARK: - Tombstone collection

    /// Removes tombstones whose local seq is at most `seqAcknowledged` (the peer has them).
    /// Returns how many were collected.
    @discardableResult
    public mutating func collectTombstones(upTo seqAcknowledged: UInt64) -> Int {
        guard heldTombstones > 0 else { return 0 }
        var n = 0
        for i in slots.indices where slots[i].isUsed {
            guard let t = slots[i].entry.tombstone, t.seq <= seqAcknowledged else { continue }
            freeSlot(i)
            n += 1
        }
        return n
    }

    /// Removes a received tombstone at once: the peer that sent it holds it, and everything
    /// it sends later was made after the delete, so nothing from it can bring the record back.
    /// Returns true when a tombstone was held.
    @discardableResult
    mutating func collectTombstone(_ key: RecordKey) -> Bool {
        guard let s = slotIndex(of: key), slots[s].entry.tombstone != nil else { return false }
        freeSlot(s)
        return true
    }

    // MARK: - Change tracking

    /// Records changed since the last `drainChanges()` (still held).
    public var changed: Set<RecordKey> {
        Set(dirtySlots.filter { slots[$0].isUsed }.map { slots[$0].key })
    }

    /// Records removed entirely (tombstone collected) since the last `drainChanges()`.
    ///
    /// (`removedKeys` less the records in `changed`, each looked up by its slot: building
    /// `changed` for this cost as much as `changed` itself, a set of thousands of keys after a
    /// workout, where almost always nothing was removed.)
    public var removed: Set<RecordKey> {
        removedKeys.isEmpty ? [] : removedKeys.filter { !isChangedAndHeld($0) }
    }

    /// Calls `body` with every record of `changed` and of `removed`, each once, without
    /// building either set (in no particular order; a record is never in both).
    public func forEachChangedOrRemoved(_ body: (RecordKey) throws -> Void) rethrows {
        try forEachChangedOrRemovedEntry { key, _ in try body(key) }
    }

    /// As `forEachChangedOrRemoved`, with each record's `entry(key)`, read off its slot (the
    /// records changed) rather than looked up again.
    public func forEachChangedOrRemovedEntry(_ body: (RecordKey, RecordEntry?) throws -> Void) rethrows {
        for i in dirtySlots where slots[i].isUsed { try body(slots[i].key, slots[i].entry) }
        for key in removedKeys where !isChangedAndHeld(key) { try body(key, entry(key)) }
    }

    /// `changed.contains(key)`: the key is held in a slot listed as changed (`isDirty` is
    /// set exactly on the slots in `dirtySlots`, and a held key has one slot).
    func isChangedAndHeld(_ key: RecordKey) -> Bool {
        guard let s = slotIndex(of: key) else { return false }
        return slots[s].isDirty
    }

    /// The records changed and removed since the last call, each sorted; clears both lists.
    public mutating func drainChanges() -> (changed: [RecordKey], removed: [RecordKey]) {
        let drained = drainChangedSlots()
        return (drained.changed.map { slots[$0].key }, drained.removed)
    }

    /// As `drainChanges()`, with the changed records given as their slots, in the order of
    /// their keys: the store's writer reads each record off its slot instead of looking its
    /// key up again (a hash of both strings per record, thousands after a workout).
    mutating func drainChangedSlots() -> (changed: [Int], removed: [RecordKey]) {
        var changed: [Int] = []
        changed.reserveCapacity(dirtySlots.count)
        for i in dirtySlots {
            slots[i].isDirty = false
            if slots[i].isUsed { changed.append(i) }
        }
        dirtySlots.removeAll(keepingCapacity: true)
        var removedList: [RecordKey] = []
        if !removedKeys.isEmpty {
            let stillHeld = Set(changed.map { slots[$0].key })
            removedList = removedKeys.filter { !stillHeld.contains($0) }.sorted()
            removedKeys = []
        }
        // A slot is listed once (`touch` lists it only when not yet dirty) and a key is held
        // in one slot, so the slots sort as their keys do.
        slots.withUnsafeBufferPointer { b in changed.sort { b[$0].key < b[$1].key } }
        return (changed, removedList)
    }
}
