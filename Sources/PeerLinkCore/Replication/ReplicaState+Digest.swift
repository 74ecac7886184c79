extension ReplicaState {
    /// SHA-256 over the canonical encoding of the visible state: every live record ordered
    /// by (collection, id), its fields ordered by name, each with its value and stamp.
    ///
    /// Tombstones, local sequence numbers and the clock are not part of it: two replicas that
    /// show the same records with the same winning writes have the same digest, and only
    /// those (up to SHA-256 collisions).
    ///
    /// ```
    /// varint liveRecordCount, then per record:
    ///   string collection, string id, varint fieldCount, then per field:
    ///     string name, signed varint wallMs, varint counter, varint replica, canonical value
    /// ```
    public func digest() -> [UInt8] {
        var h = SHA256()
        var w = ByteWriter(capacity: 4096)
        // Positions sorted, not copies of the slots (each copy retained and released a key
        // and a record); the slots are read in place.
        var live: [Int] = []
        live.reserveCapacity(slots.count)
        for i in slots.indices where slots[i].isUsed && slots[i].entry.isLive { live.append(i) }
        slots.withUnsafeBufferPointer { b in live.sort { b[$0].key < b[$1].key } }
        w.writeVarint(UInt64(live.count))
        // Slots and registers read in place too (a copy of each retained and released its
        // strings and values).
        slots.withUnsafeBufferPointer { slots in
            for i in live {
                w.writeString(slots[i].key.collection)
                w.writeString(slots[i].key.id)
                slots[i].entry.registers.withUnsafeBufferPointer { registers in
                    w.writeVarint(UInt64(registers.count))
                    for f in registers.indices {
                        w.writeString(registers[f].name)
                        let stamp = registers[f].register.stamp
                        w.writeSignedVarint(stamp.wallMs)
                        w.writeVarint(UInt64(stamp.counter))
                        w.writeVarint(UInt64(stamp.replica))
                        CanonicalEncoding.encode(registers[f].register.value, into: &w)
                    }
                }
                if w.count > 1 << 16 {
                    w.withUnsafeBytes { h.update($0) }
                    w = ByteWriter(capacity: 4096)
                }
            }
        }
        w.withUnsafeBytes { h.update($0) }
        return h.finish()
    }

    /// The digest as lower-case hex.
    public func digestHex() -> String { hexString(digest()) }

    /// `digestHex()`, computed again only when the state changed since the last call: every
    /// change to a record takes a new `seq` (own writes and merges), and loading from the store
    /// clears the cache. (The scenario runner asks each node for its digest at every
    /// `expect converged` and again at the end.)
    public mutating func cachedDigestHex() -> String {
        if let c = digestCache, c.seq == seq { return c.hex }
        let hex = digestHex()
        digestCache = (seq, hex)
        return hex
    }
}
