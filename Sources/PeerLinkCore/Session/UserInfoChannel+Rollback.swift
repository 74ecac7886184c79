
/// The user-info half of recovering from our own store's rollback (see
/// `LinkSession.recoverFromOwnRollback`).
extension UserInfoChannel {
    /// The peer delivered our streams through `delivered` (indexed by stream), beyond what
    /// this store remembers sending: transfers sent before the lost tail and delivered since
    /// are finished; a transfer never sent under a delivered number, and every one queued
    /// after it in its stream, is numbered again after what the peer holds (in queue order).
    /// Rows go into `batch`.
    mutating func recoverFromOwnRollback(delivered: [UInt64], state: inout UserInfoState, batch: inout WriteBatch, out: inout UserInfoOutput) {
        let peerHolds = delivered.max()!
        var renumbered: [OutboxItem] = []
        for stream in UserInfoStream.allCases {
            let through = delivered[stream.rawValue]
            var kept: [OutboxItem] = []
            var renumbersRest = false
            for item in streams[stream.rawValue].outbox.live {
                if item.seq <= through, item.seq <= state.highestSeqSent {
                    // Queued before the lost tail and delivered since: it is done.
                    batch.delete(LinkPersistence.outbox, storeKey(item.seq))
                    out.didFinish(transfer(item, onLink: false))
                } else if item.seq <= through || renumbersRest {
                    // A reused number, and everything queued after it in the stream: renumbered
                    // in queue order, so the stream stays first in, first out.
                    renumbered.append(item)
                    renumbersRest = true
                } else {
                    kept.append(item)
                }
            }
            streams[stream.rawValue].outbox = OutboxQueue(kept)
        }
        state.nextSeq = max(state.nextSeq, peerHolds + 1)
        for var item in renumbered.sorted(by: { $0.seq < $1.seq }) {
            batch.delete(LinkPersistence.outbox, storeKey(item.seq))
            item.seq = state.nextSeq
            state.nextSeq += 1
            batch.put(LinkPersistence.outbox, storeKey(item.seq), LinkPersistence.encodeItem(item))
            streams[item.stream.rawValue].outbox.append(item)  // above every kept seq: stays in order
        }
    }
}
