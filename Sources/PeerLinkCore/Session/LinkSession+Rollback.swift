
/// Our own store went back in time (its write-ahead log lost a tail: a torn write), noticed at
/// the handshake because the peer holds a seq beyond the highest this store ever sent (or a
/// context version or file number we never made).
///
/// Without care the next transfers would reuse sequence numbers the peer already delivered
/// and be acknowledged as duplicates without ever being delivered. So:
/// - user info this store sent, with a seq the peer delivered, was delivered: finished;
/// - user info this store never sent, with such a seq, is a new transfer that reuses a number
///   from the lost history: numbered again after what the peer delivered, and so is every
///   transfer queued after it in its stream, in the same order (first in, first out holds);
/// - files queued and never offered under a number the peer delivered are numbered again
///   after it;
/// - the sequence, context and file counters move past what the peer holds, and the context
///   this store holds is sent again under the next version (the peer's may be another one);
/// - the node is told (`selfLostData`) so the replica asks the peer for everything again.
extension LinkSession {
    mutating func recoverFromOwnRollback(peer info: SessionInfo) {
        let delivered = [info.lastDelivered, info.lastComplicationDelivered]
        let peerHolds = delivered.max()!
        emitLog(.warning, "our store went back in time: the \(config.role.peer) delivered up to \(peerHolds) of our transfers, we had issued up to \(persistent.nextSeq - 1); renumbering what this run queued and asking for everything again")
        var batch = WriteBatch()
        var renumbered: [OutboxItem] = []
        for stream in UserInfoStream.allCases {
            let through = delivered[stream.rawValue]
            var kept: [OutboxItem] = []
            var renumbersRest = false
            for item in outboxes[stream.rawValue].live {
                if item.seq <= through, item.seq <= persistent.highestSeqSent {
                    // Queued before the lost tail and delivered since: it is done.
                    batch.delete(LinkPersistence.outbox, storeKey(item.seq))
                    var t = transfer(item)
                    t.isTransferring = false
                    out.deliver(.didFinishUserInfoTransfer(t, error: nil))
                } else if item.seq <= through || renumbersRest {
                    // A reused number, and everything queued after it in the stream: renumbered
                    // in queue order, so the stream stays first in, first out.
                    renumbered.append(item)
                    renumbersRest = true
                } else {
                    kept.append(item)
                }
            }
            outboxes[stream.rawValue] = OutboxQueue(kept)
        }
        let floor = max(persistent.nextSeq, peerHolds + 1)
        persistent.nextSeq = floor
        for var item in renumbered.sorted(by: { $0.seq < $1.seq }) {
            batch.delete(LinkPersistence.outbox, storeKey(item.seq))
            item.seq = persistent.nextSeq
            persistent.nextSeq += 1
            batch.put(LinkPersistence.outbox, storeKey(item.seq), LinkPersistence.encodeItem(item))
            outboxes[item.stream.rawValue].append(item)  // above every kept seq: stays in order
        }
        if info.contextVersionReceived > persistent.contextVersion {
            // The peer holds a version set in the lost history, whose content need not be the
            // context this store holds: number ours after it and send it again (latest wins),
            // or the two would keep different contexts under one version.
            persistent.contextAckedVersion = info.contextVersionReceived
            persistent.contextVersion = info.contextVersionReceived + (persistent.applicationContext == nil ? 0 : 1)
        }
        if info.lastFileDelivered >= persistent.nextFileNumber { persistent.nextFileNumber = info.lastFileDelivered + 1 }
        // Files this store queued but never offered, under a number the peer delivered in the
        // lost history: new files, numbered again after what the peer holds (in queue order),
        // or the handshake would take them for delivered and they would never be sent.
        var files: [OutgoingFile] = []
        for var f in persistent.outgoingFiles {
            if f.number <= info.lastFileDelivered, f.number > persistent.highestFileSent {
                batch.delete(LinkPersistence.filesOut, storeKey(f.number))
                f.number = persistent.nextFileNumber
                persistent.nextFileNumber += 1
                batch.put(LinkPersistence.filesOut, storeKey(f.number), LinkPersistence.encodeOutgoing(f))
            }
            files.append(f)
        }
        persistent.outgoingFiles = files.sorted { $0.number < $1.number }
        metaDirty = true
        out.persist(batch)
        out.deliver(.selfLostData)
    }
}
