extension ReplicaSync {
    // MARK: - Sending

    /// The next delta, split into parts, when one is due and none is in flight; marks it in flight.
    public mutating func makeDelta(from state: ReplicaState) -> [ReplicaDelta]? {
        guard persistent.inFlightUpTo == nil else { return nil }
        let base = persistent.ackedByPeer
        let mustSend = persistent.announceReset || persistent.owesAck
        let scan = QuietScan(seq: state.seq, base: base, resend: persistent.resendPeerWrites, whole: persistent.sendWholeRecords)
        if !mustSend, quietScan == scan { return nil }
        let records = state.changes(after: base, excludingWriter: persistent.resendPeerWrites ? nil : peer,
                                    wholeRecords: persistent.sendWholeRecords)
        guard !records.isEmpty || mustSend else {
            quietScan = scan
            return nil
        }
        // After our store went back, deltas address the peer store it knew until the peer
        // speaks: a peer that has since changed stores answers with its announcement.
        let template = ReplicaDelta(
            origin: replica, incarnation: persistent.incarnation, baseSeq: base, upToSeq: state.seq,
            ackIncarnation: persistent.peerIncarnation == 0 ? persistent.formerPeerIncarnation : persistent.peerIncarnation,
            ackSeq: persistent.peerWatermark, records: [])
        let resendsAll = base == 0 && persistent.resendPeerWrites
        // Key ranges let the peer drop what we no longer hold; a store that lost data and has
        // not been refilled lacks records for no fault of the peer's, so its resend covers nothing.
        let complete = resendsAll && !persistent.awaitsRefill
        var all = records
        if resendsAll {
            // A peer that lost data learns every delete too, collected ones included.
            all += state.graves.map { DeltaRecord(key: $0.key, fields: [], tombstone: $0.value) }
            all.sort { $0.key < $1.key }
        }
        var parts = split(all, template: template)
        if persistent.announceReset { for i in parts.indices { parts[i].storeWasReset = true } }
        if complete {
            // Each part covers the keys after the previous part's last one, up to its own last
            // (the first and the last part are open-ended).
            for i in parts.indices {
                parts[i].coverage = DeltaCoverage(from: i == 0 ? nil : parts[i - 1].records.last?.key,
                                                  through: i == parts.count - 1 ? nil : parts[i].records.last?.key)
            }
        }
        persistent.inFlightUpTo = state.seq
        persistent.inFlightPartsLeft = parts.count
        persistent.inFlightIsStale = false
        persistent.owesAck = false
        return parts
    }

    private func split(_ records: [DeltaRecord], template: ReplicaDelta) -> [ReplicaDelta] {
        var parts: [[DeltaRecord]] = [[]]
        var size = 64
        for r in records {
            let s = Self.approximateSize(r)
            if size + s > maxPartBytes, !parts[parts.count - 1].isEmpty {
                parts.append([])
                size = 64
            }
            parts[parts.count - 1].append(r)
            size += s
        }
        return parts.enumerated().map { i, recs in
            var d = template
            d.part = i
            d.partCount = parts.count
            d.records = recs
            return d
        }
    }

    /// An upper bound of the record's encoded size (ids and names counted in full).
    static func approximateSize(_ r: DeltaRecord) -> Int {
        var n = r.key.id.utf8.count + 24
        for f in r.fields { n += f.name.utf8.count + 24 + CanonicalEncoding.encodedSize(f.value) }
        return n
    }

    /// One part of the in-flight delta reached the peer's store.
    public mutating func onPartConfirmed() {
        guard let upTo = persistent.inFlightUpTo else { return }
        persistent.inFlightPartsLeft -= 1
        if persistent.inFlightPartsLeft <= 0 {
            if !persistent.inFlightIsStale {
                persistent.ackedByPeer = max(persistent.ackedByPeer, upTo)
                persistent.announceReset = false
                persistent.resendPeerWrites = false
                persistent.sendWholeRecords = false
            }
            persistent.inFlightUpTo = nil
            persistent.inFlightPartsLeft = 0
            persistent.inFlightIsStale = false
        }
    }

    /// A part could not be delivered (cancelled or failed): the next delta covers it again.
    public mutating func onPartFailed() {
        persistent.inFlightUpTo = nil
        persistent.inFlightPartsLeft = 0
        persistent.inFlightIsStale = false
    }
}
