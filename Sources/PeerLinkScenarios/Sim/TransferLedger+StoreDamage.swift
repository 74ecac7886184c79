import PeerLinkCore

extension TransferLedger {
    /// The node's store was rolled back: its outbox and receive logs may be older now.
    /// The sender's store lost its last commits: transfers it had queued in them are gone from
    /// its outbox without an acknowledgement. They were never confirmed to the app as delivered
    /// by the store that now exists, so they are neither acknowledged nor lost: they are
    /// erased at the sender (their data, if replicated, comes back by the peer's resend).
    mutating func storeRolledBack(_ role: DeviceRole, store: MemoryStore) {
        lastObserved[role] = nil
        let held = try? LinkPersistence.load(from: store, newIncarnation: 0)
        if let h = held, h.incarnation != 0, h.incarnation == receivers[role]?.incarnation {
            receiverDamage[role, default: ReceiverDamage()].floors = [h.lastDeliveredFromPeer, h.lastComplicationDeliveredFromPeer]
        } else {
            receiverDamage[role, default: ReceiverDamage()].corrupted = true  // nothing of the store is left: it starts anew
        }
        guard var view = senders[role] else { return }
        let kept = Set((held?.outbox ?? []).map(\.seq))
        for seq in view.outstanding.subtracting(kept) {
            let key = Key(sender: role, incarnation: view.incarnation, seq: seq)
            if entries[key] != nil, !entries[key]!.acknowledged { entries[key]!.erasedAtSender = true }
        }
        view.outstanding = view.outstanding.intersection(kept)
        view.nextSeq = 0  // forces a fresh look at the outbox
        senders[role] = view
    }

    /// The node's store was found corrupt: it starts empty, a new store (its receive logs lost).
    mutating func storeCorrupted(_ role: DeviceRole) {
        lastObserved[role] = nil
        receiverDamage[role, default: ReceiverDamage()].corrupted = true
    }
}
