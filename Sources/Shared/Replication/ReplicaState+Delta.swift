extension ReplicaState {
    /// The records changed here after `baseSeq`, as delta records.
    ///
    /// - Parameter excludingWriter: registers and tombstones stamped by this replica id are
    ///   left out (the peer wrote them, so it has them), unless the peer lost its store.
    public func changes(after baseSeq: UInt64, excludingWriter: UInt16?) -> [DeltaRecord] {
        var out: [DeltaRecord] = []
        for (key, entry) in records where entry.maxSeq > baseSeq {
            if let t = entry.tombstone {
                if t.seq > baseSeq, t.stamp.replica != excludingWriter {
                    out.append(DeltaRecord(key: key, fields: [], tombstone: t.stamp))
                }
                continue
            }
            var fields: [(name: String, value: PlistValue, stamp: HLCTimestamp)] = []
            for (name, reg) in entry.fields where reg.seq > baseSeq && reg.stamp.replica != excludingWriter {
                fields.append((name: name, value: reg.value, stamp: reg.stamp))
            }
            if fields.isEmpty { continue }
            fields.sort { CanonicalEncoding.utf8Less($0.name, $1.name) }
            out.append(DeltaRecord(key: key, fields: fields, tombstone: nil))
        }
        out.sort { $0.key < $1.key }
        return out
    }

    /// Merges every record of a delta part. Received tombstones are collected at once (see
    /// `collectTombstone`). Returns the number of records that changed here.
    @discardableResult
    public mutating func apply(_ delta: ReplicaDelta, wallMs: Int64) -> Int {
        var n = 0
        for r in delta.records {
            var incoming: [String: (value: PlistValue, stamp: HLCTimestamp)] = [:]
            for f in r.fields { incoming[f.name] = (f.value, f.stamp) }
            if merge(r.key, fields: incoming, tombstone: r.tombstone, wallMs: wallMs) { n += 1 }
        }
        return n
    }
}
