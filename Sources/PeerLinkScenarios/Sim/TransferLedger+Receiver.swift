import PeerLinkCore

extension TransferLedger {
    mutating func observeReceiver(_ role: DeviceRole, session: LinkSession, engine: ObjectIdentifier, nowMs: EpochMs) {
        let p = session.persistent
        let stat = session.stats.userInfoDelivered
        // Most entry points deliver nothing: the same engine, stores and receive logs as last
        // time leave the view as it is (checked before anything is allocated or written back).
        if let v = receivers[role], v.engine == engine, v.incarnation == p.incarnation, v.peerIncarnation == p.peerIncarnation,
           v.deliveredCount == stat, v.delivered.count == 2,
           v.delivered[UserInfoStream.ordinary.rawValue] == p.lastDeliveredFromPeer,
           v.delivered[UserInfoStream.complication.rawValue] == p.lastComplicationDeliveredFromPeer
        {
            return
        }
        let logs: [UInt64] = [p.lastDeliveredFromPeer, p.lastComplicationDeliveredFromPeer]
        guard var v = receivers[role] else {
            receivers[role] = ReceiverView(engine: engine, incarnation: p.incarnation, peerIncarnation: p.peerIncarnation, delivered: logs, deliveredCount: stat)
            return
        }
        // Store damage explains what a restarted receiver lost, once (at its first look).
        var damage = ReceiverDamage()
        if v.engine != engine {  // restarted: counters start again
            v.engine = engine
            v.deliveredCount = 0
            damage = receiverDamage.removeValue(forKey: role) ?? ReceiverDamage()
        }
        let sender = role.peer
        if v.incarnation != p.incarnation {
            // The receiver's store was reset: every delivery it held is gone.
            if !damage.corrupted {
                violations.append("\(nowMs) \(role): started a new store (its receive logs empty) though the run did not damage its store")
            }
            if v.peerIncarnation != 0 {
                for s in UserInfoStream.allCases { erase(StreamKey(sender: sender, incarnation: v.peerIncarnation, stream: s), above: 0, through: UInt64.max) }
            }
            v.incarnation = p.incarnation
            v.peerIncarnation = p.peerIncarnation
            v.delivered = logs
            v.deliveredCount = stat
            receivers[role] = v
            return
        }
        if v.peerIncarnation != p.peerIncarnation {
            // A new sender store: its streams are counted from zero. A receiver whose store the
            // run rolled back to before it knew the sender's current store lost every delivery
            // from that store: the sender may deliver them again once it is known again.
            if damage.floors != nil, v.peerIncarnation != 0 {
                for s in UserInfoStream.allCases { erase(StreamKey(sender: sender, incarnation: v.peerIncarnation, stream: s), above: 0, through: UInt64.max) }
            }
            v.peerIncarnation = p.peerIncarnation
            v.delivered = [0, 0]
            if damage.floors != nil {
                // Rolled back to a time it knew an earlier sender store: what its logs hold of
                // that store was delivered then and counted then; deliveries past them are lost.
                for s in UserInfoStream.allCases {
                    let sk = StreamKey(sender: sender, incarnation: p.peerIncarnation, stream: s)
                    guard seqs[sk, default: []].contains(where: { entries[Key(sender: sender, incarnation: p.peerIncarnation, seq: $0)]!.deliveries > 0 }) else { continue }
                    erase(sk, above: logs[s.rawValue], through: UInt64.max)
                    v.delivered[s.rawValue] = logs[s.rawValue]
                }
            }
        }
        // Transfers the receive logs moved past. Acknowledged ones among them were delivered
        // before (to a store that has since lost them): the sender does not resend those, so
        // the log passes them without a delivery, unless an old frame of one was still in flight.
        // The same holds for one the sender's rollback lost after the receiver delivered it.
        var queued: [Key] = []
        var passedAcknowledged: [Key] = []
        for s in UserInfoStream.allCases {
            let old = v.delivered[s.rawValue], new = logs[s.rawValue]
            let sk = StreamKey(sender: sender, incarnation: p.peerIncarnation, stream: s)
            if new > old {
                for seq in seqs[sk, default: []] where seq > old && seq <= new {
                    let key = Key(sender: sender, incarnation: p.peerIncarnation, seq: seq)
                    let e = entries[key]!
                    // Still queued at the sender, or gone from it (acknowledged, or lost with a
                    // rollback of the sender's store): those are not resent.
                    if !e.acknowledged, !e.erasedAtSender { queued.append(key) } else if e.deliveries == 0 { passedAcknowledged.append(key) }
                }
            } else if new < old {
                if let floors = damage.floors {
                    if new < floors[s.rawValue] {
                        violations.append("\(nowMs) \(role): its receive log for the \(s) stream went back from \(old) to \(new), past the \(floors[s.rawValue]) its rolled-back store holds")
                    }
                } else {
                    violations.append("\(nowMs) \(role): its receive log for the \(s) stream went back from \(old) to \(new) though the run did not damage its store")
                }
                erase(sk, above: new, through: old)
            }
        }
        let delivered = stat - v.deliveredCount
        if stat >= v.deliveredCount {
            if delivered < queued.count {
                violations.append("\(nowMs) \(role): its receive log passed \(queued.count) transfers still queued at the \(sender) (\(queued.map { "u\($0.seq)" }.joined(separator: ", "))) but delivered only \(delivered)")
            } else if delivered > queued.count + passedAcknowledged.count {
                violations.append("\(nowMs) \(role): delivered \(delivered) user-info transfers but its receive logs passed only \(queued.count + passedAcknowledged.count) known ones")
            }
            for key in queued + passedAcknowledged.prefix(max(0, delivered - queued.count)) { deliver(key, nowMs: nowMs) }
        }
        v.delivered = logs
        v.deliveredCount = stat
        receivers[role] = v
    }

    /// Counts one delivery of `key`.
    mutating func deliver(_ key: Key, nowMs: EpochMs) {
        entries[key]!.deliveries += 1
        deliveredCount += 1
        if entries[key]!.deliveries > 1 { violations.append("\(nowMs) \(key): delivered twice") }
    }

    /// Erases the deliveries of `sk` in `(above, through]` (the receiver's store lost them).
    mutating func erase(_ sk: StreamKey, above: UInt64, through: UInt64) {
        for seq in seqs[sk, default: []] where seq > above && seq <= through {
            let key = Key(sender: sk.sender, incarnation: sk.incarnation, seq: seq)
            guard entries[key]!.deliveries > 0 else { continue }
            entries[key]!.deliveries -= 1
            entries[key]!.erased = true
            erasedCount += 1
        }
    }
}
