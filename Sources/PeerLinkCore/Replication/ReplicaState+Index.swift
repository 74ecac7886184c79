extension ReplicaState {
    /// The state's index from record key to slot: an open-addressing table of slot numbers,
    /// probed linearly from the key's precomputed content hash.
    ///
    /// It replaces a `[RecordKey: Int]` on the write path: a Swift dictionary seeds and
    /// finalizes a SipHash for every lookup, which was the largest cost of a set. Keys come
    /// from this device and its paired peer only, so a non-keyed hash is acceptable here.
    struct RecordIndex: Sendable {
        /// Per bucket: 0 empty, -1 removed, else slot number + 1.
        var buckets: [Int32] = Array(repeating: 0, count: RecordIndex.initialCapacity)
        /// Keys held.
        var count = 0
        /// Buckets not empty (held or removed).
        var occupied = 0

        static let initialCapacity = 16
        static let removed: Int32 = -1

        var mask: Int { buckets.count - 1 }
    }

    /// The slot holding `key`, if any.
    @inline(__always)
    func slotIndex(of key: RecordKey) -> Int? {
        let mask = index.mask
        var i = Int(truncatingIfNeeded: key.contentHash) & mask
        while true {
            let b = index.buckets[i]
            if b == 0 { return nil }
            if b > 0 {
                let s = Int(b) - 1
                if slots[s].key.contentHash == key.contentHash, slots[s].key == key { return s }
            }
            i = (i + 1) & mask
        }
    }

    /// Adds `key` → `slot` (the key MUST not be indexed yet).
    mutating func indexInsert(_ key: RecordKey, slot: Int) {
        if (index.occupied + 1) * 2 > index.buckets.count { rebuildIndex(minimumCount: index.count + 1) }
        let mask = index.mask
        var i = Int(truncatingIfNeeded: key.contentHash) & mask
        while index.buckets[i] > 0 { i = (i + 1) & mask }
        if index.buckets[i] == 0 { index.occupied += 1 }
        index.buckets[i] = Int32(slot + 1)
        index.count += 1
    }

    /// Removes `key` (a no-op when it is not indexed).
    mutating func indexRemove(_ key: RecordKey) {
        let mask = index.mask
        var i = Int(truncatingIfNeeded: key.contentHash) & mask
        while true {
            let b = index.buckets[i]
            if b == 0 { return }
            if b > 0, slots[Int(b) - 1].key == key {
                index.buckets[i] = RecordIndex.removed
                index.count -= 1
                return
            }
            i = (i + 1) & mask
        }
    }

    /// Rebuilds the table from the used slots, at most half full after `minimumCount` keys.
    mutating func rebuildIndex(minimumCount: Int) {
        var capacity = RecordIndex.initialCapacity
        while capacity < minimumCount * 2 + 2 { capacity <<= 1 }
        var buckets = [Int32](repeating: 0, count: capacity)
        let mask = capacity - 1
        var n = 0
        for (s, slot) in slots.enumerated() where slot.isUsed {
            var i = Int(truncatingIfNeeded: slot.key.contentHash) & mask
            while buckets[i] != 0 { i = (i + 1) & mask }
            buckets[i] = Int32(s + 1)
            n += 1
        }
        index = RecordIndex(buckets: buckets, count: n, occupied: n)
    }
}
