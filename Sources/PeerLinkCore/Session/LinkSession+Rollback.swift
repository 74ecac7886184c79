
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
/// - the node is told (`selfLostData`) so the replica asks the peer for everything again,
///   with the file numbers the peer delivered from the lost history (`filesForgotten`).
extension LinkSession {
    mutating func recoverFromOwnRollback(peer info: SessionInfo) {
        let delivered = [info.lastDelivered, info.lastComplicationDelivered]
        let peerHolds = delivered.max()!
        emitLog(.warning, "our store went back in time: the \(config.role.peer) delivered up to \(peerHolds) of our transfers, we had issued up to \(persistent.userInfo.nextSeq - 1); renumbering what this run queued and asking for everything again")
        var batch = WriteBatch()
        userInfoChannel.recoverFromOwnRollback(delivered: delivered, state: &persistent.userInfo, batch: &batch, out: &out.userInfo)
        if info.contextVersionReceived > persistent.context.version {
            // The peer holds a version set in the lost history, whose content need not be the
            // context this store holds: number ours after it and send it again (latest wins),
            // or the two would keep different contexts under one version.
            persistent.context.ackedVersion = info.contextVersionReceived
            persistent.context.version = info.contextVersionReceived + (persistent.context.sent == nil ? 0 : 1)
        }
        let highestSent = persistent.fileSend.highestFileSent
        filesForgotten = info.lastFileDelivered > highestSent ? (highestSent + 1)...info.lastFileDelivered : nil
        recoverFileNumbers(peerDelivered: info.lastFileDelivered, batch: &batch)
        metaDirty = true
        out.persist(batch)
        out.deliver(.selfLostData)
    }

    /// Files this store queued but never offered, under a number the peer delivered in the
    /// lost history: new files, numbered again after what the peer holds (in queue order),
    /// or the handshake would take them for delivered and they would never be sent.
    mutating func recoverFileNumbers(peerDelivered: UInt64, batch: inout WriteBatch) {
        var q = persistent.fileSend
        if peerDelivered >= q.nextFileNumber { q.nextFileNumber = peerDelivered + 1 }
        var files: [OutgoingFile] = []
        for var f in q.files {
            if f.number <= peerDelivered, f.number > q.highestFileSent {
                batch.delete(LinkPersistence.filesOut, storeKey(f.number))
                f.number = q.nextFileNumber
                q.nextFileNumber += 1
                batch.put(LinkPersistence.filesOut, storeKey(f.number), LinkPersistence.encodeOutgoing(f))
            }
            files.append(f)
        }
        q.files = files.sorted { $0.number < $1.number }
        persistent.fileSend = q
    }
}
