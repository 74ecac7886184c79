import PeerLinkCore

extension TransferLedger {
    mutating func observeSender(_ role: DeviceRole, session: LinkSession, store: MemoryStore, nowMs: EpochMs) {
        let p = session.persistent
        let count = session.outstandingUserInfoCount
        if let v = senders[role], v.incarnation == p.incarnation, v.nextSeq == p.nextSeq, v.outstanding.count == count { return }
        var view = senders[role].flatMap { $0.incarnation == p.incarnation ? $0 : nil }
            ?? SenderView(incarnation: p.incarnation, nextSeq: 0, outstanding: [])
        let now = Set(session.outstandingUserInfoTransfers.map(\.seq))
        let added = now.subtracting(view.outstanding)
        var addedHashes: Set<UInt64> = []
        if !added.isEmpty {
            let items = (try? LinkPersistence.load(from: store, newIncarnation: p.incarnation).outbox) ?? []
            for item in items where added.contains(item.seq) {
                addedHashes.insert(fnv1a64(item.encoded))
            }
            for seq in view.outstanding.subtracting(now) {
                // A transfer that left under one seq and came back under another in the same
                // event was renumbered (the sender's store went back; see LinkSession+Rollback):
                // it is the same transfer, not an acknowledgement.
                let key = Key(sender: role, incarnation: p.incarnation, seq: seq)
                if let e = entries[key], e.deliveries == 0, !e.acknowledged, addedHashes.contains(e.payloadHash) {
                    entries[key] = nil
                    seqs[StreamKey(sender: role, incarnation: p.incarnation, stream: e.stream)]?.removeAll { $0 == seq }
                    queuedCount -= 1
                }
            }
            for item in items where added.contains(item.seq) {
                queued(Key(sender: role, incarnation: p.incarnation, seq: item.seq), item, nowMs: nowMs)
            }
        }
        for seq in view.outstanding.subtracting(now) {
            observeAcknowledged(Key(sender: role, incarnation: p.incarnation, seq: seq))
        }
        view.nextSeq = p.nextSeq
        view.outstanding = now
        senders[role] = view
    }

    /// The transfer left the sender's outbox: `didFinishUserInfoTransfer` without error.
    mutating func observeAcknowledged(_ key: Key) {
        guard entries[key] != nil, !entries[key]!.acknowledged else { return }
        entries[key]!.acknowledged = true
        acknowledgedCount += 1
    }

    mutating func queued(_ key: Key, _ item: OutboxItem, nowMs: EpochMs) {
        let hash = fnv1a64(item.encoded)
        if let old = entries[key] {
            if old.payloadHash == hash {
                // The sender's store went back and holds it again: the same transfer, resent.
                entries[key]!.acknowledged = false
                if old.acknowledged { acknowledgedCount -= 1 }
                return
            }
            // A new payload on a seq the receiver already passed: the sender's store went back.
            // It must renumber the transfer at the next handshake (else it is acknowledged as a
            // duplicate and never delivered, which `lost` reports).
            if old.stream != item.stream {
                // The lost history used the seq in the other stream: the seq is this stream's now.
                seqs[StreamKey(sender: key.sender, incarnation: key.incarnation, stream: old.stream)]?.removeAll { $0 == key.seq }
            }
        }
        queuedCount += 1  // a new transfer (on a reused seq: another than the one the seq had)
        entries[key] = Entry(stream: item.stream, payloadHash: hash)
        let sk = StreamKey(sender: key.sender, incarnation: key.incarnation, stream: item.stream)
        var list = seqs[sk] ?? []
        if list.last.map({ $0 < key.seq }) ?? true { list.append(key.seq) } else if !list.contains(key.seq) {
            list.insert(key.seq, at: list.firstIndex { $0 > key.seq } ?? list.endIndex)
        }
        seqs[sk] = list
    }
}
