extension ReplicaState {
    /// SHA-256 over the canonical encoding of the visible state: every live record ordered
    /// by (collection, id), its fields ordered by name, each with its value and stamp.
    /// Tombstones and local sequence numbers are not part of it: two replicas that show the
    /// same records with the same winning writes have the same digest, and only those.
    public func digest() -> [UInt8] {
        var h = SHA256()
        var w = ByteWriter(capacity: 4096)
        let live = records.filter { $0.value.tombstone == nil && !$0.value.fields.isEmpty }.sorted { $0.key < $1.key }
        w.writeVarint(UInt64(live.count))
        for (key, entry) in live {
            w.writeString(key.collection)
            w.writeString(key.id)
            w.writeVarint(UInt64(entry.fields.count))
            for name in entry.fields.keys.sorted(by: CanonicalEncoding.utf8Less) {
                let reg = entry.fields[name]!
                w.writeString(name)
                w.writeSignedVarint(reg.stamp.wallMs); w.writeVarint(UInt64(reg.stamp.counter)); w.writeVarint(UInt64(reg.stamp.replica))
                CanonicalEncoding.encode(reg.value, into: &w)
            }
            if w.count > 1 << 16 {
                h.update(w.bytes)
                w = ByteWriter(capacity: 4096)
            }
        }
        h.update(w.bytes)
        return h.finish()
    }

    /// The digest as lower-case hex.
    public func digestHex() -> String { hexString(digest()) }
}
