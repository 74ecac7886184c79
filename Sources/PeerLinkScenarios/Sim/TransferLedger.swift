import PeerLinkCore

/// Follows every user-info transfer between the two simulated nodes, from the sender's
/// durable outbox to the receiver's receive log, across crashes, store resets and rollbacks.
///
/// It watches each node after every entry point (the batch committed, before its frames go
/// out), so a transfer is always seen queued before the peer can deliver it:
/// - **queued**: a new seq in the sender's outbox (stream and payload read from its store);
/// - **acknowledged**: the seq left the outbox while the sender's store kept its incarnation.
///   Neither app cancels transfers, so this is `didFinishUserInfoTransfer` without error;
/// - **delivered**: the receiver's receive log for that stream (same sender incarnation)
///   moved past the seq. The receiver's delivery counter must move by as many transfers.
///
/// A delivery is *erased* when the receiver's store lost it: a store reset after corruption
/// (its receive logs start empty) or a rollback that took its log back past the seq — and
/// only then: a receive log that goes back (or a receiver that starts a new store) when the
/// run did not damage that node's store, or further back than what its rolled-back store
/// holds, is a violation (an acknowledgement given before the log was durable). An
/// erased delivery does not count, so a later redelivery of an unacknowledged transfer is not
/// a duplicate; an acknowledged transfer whose delivery was erased cannot be sent again by
/// design (the sender learns `peerLostData` at the next handshake and its replica resends),
/// so it is not counted as lost either: convergence is what checks that its data came back.
public struct TransferLedger: Sendable {
    /// One transfer: the sender, its store incarnation, and the outbox seq.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        public var sender: DeviceRole
        public var incarnation: UInt64
        public var seq: UInt64
        public var description: String { "\(sender)→\(sender.peer) u\(seq) (store \(String(incarnation, radix: 16).prefix(6)))" }
    }

    /// What is known about one transfer.
    public struct Entry: Sendable {
        public var stream: UserInfoStream
        /// FNV-1a of the encoded payload (tells a resent transfer from a new one on a reused seq).
        public var payloadHash: UInt64
        public var acknowledged = false
        /// Deliveries that the receiver's store still holds.
        public var deliveries = 0
        /// A delivery of it was erased by a reset or rollback of the receiver's store.
        public var erased = false
        /// The sender's store lost it (a rollback) before it was acknowledged.
        public var erasedAtSender = false
    }

    struct SenderView {
        var incarnation: UInt64
        var nextSeq: UInt64
        var outstanding: Set<UInt64>
    }

    struct ReceiverView {
        var engine: ObjectIdentifier
        var incarnation: UInt64
        var peerIncarnation: UInt64
        var delivered: [UInt64]
        var deliveredCount: Int
    }

    /// Store damage the run did to a receiver since it was last looked at: what may explain its
    /// receive logs going back.
    struct ReceiverDamage {
        var corrupted = false
        /// After a rollback: the receive logs (per stream) its rolled-back store holds.
        var floors: [UInt64]?
    }

    public private(set) var entries: [Key: Entry] = [:]
    /// Per sender, incarnation and stream: the seqs known, ascending.
    var seqs: [StreamKey: [UInt64]] = [:]
    var senders: [DeviceRole: SenderView] = [:]
    var receivers: [DeviceRole: ReceiverView] = [:]
    var receiverDamage: [DeviceRole: ReceiverDamage] = [:]
    /// Broken rules, with the virtual time they were seen.
    public private(set) var violations: [String] = []
    /// Transfers queued, acknowledged, and deliveries seen (for reports).
    public private(set) var queuedCount = 0
    public private(set) var acknowledgedCount = 0
    public private(set) var deliveredCount = 0
    public private(set) var erasedCount = 0

    struct StreamKey: Hashable { var sender: DeviceRole; var incarnation: UInt64; var stream: UserInfoStream }

    public init() {}

    // MARK: - Observation

    /// Looks at `role`'s session after one of its entry points.
    mutating func observe(_ role: DeviceRole, session: LinkSession, engine: ObjectIdentifier, store: MemoryStore, nowMs: EpochMs) {
        observeSender(role, session: session, store: store, nowMs: nowMs)
        observeReceiver(role, session: session, engine: engine, nowMs: nowMs)
    }

    /// Everything `observe` reads of a session, but the outbox's contents (read only when
    /// these move): when they are what the last `observe` saw, on the same engine, looking
    /// again changes nothing, and the caller need not copy the session to ask.
    struct Counters: Equatable {
        var engine: ObjectIdentifier
        var incarnation: UInt64
        var peerIncarnation: UInt64
        var nextSeq: UInt64
        var outstanding: Int
        var lastDelivered: UInt64
        var lastComplicationDelivered: UInt64
        var delivered: Int

        /// The counters of the context's session (`inout` only to read it in place).
        init(_ ctx: inout NodeContext, engine: ObjectIdentifier) {
            self.engine = engine
            incarnation = ctx.session.persistent.incarnation
            peerIncarnation = ctx.session.persistent.peerIncarnation
            nextSeq = ctx.session.persistent.nextSeq
            outstanding = ctx.session.outstandingUserInfoCount
            lastDelivered = ctx.session.persistent.lastDeliveredFromPeer
            lastComplicationDelivered = ctx.session.persistent.lastComplicationDeliveredFromPeer
            delivered = ctx.session.stats.userInfoDelivered
        }
    }

    /// Per role, the counters of the last `observe` (nil: look in full next time).
    var lastObserved: [DeviceRole: Counters] = [:]

    /// `observe`, skipped when `counters` are those of the last look at `role`.
    mutating func observe(_ role: DeviceRole, counters: Counters, session: () -> LinkSession, store: MemoryStore, nowMs: EpochMs) {
        if lastObserved[role] == counters { return }
        observe(role, session: session(), engine: counters.engine, store: store, nowMs: nowMs)
        lastObserved[role] = counters
    }

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

    // MARK: - Verdict

    /// Acknowledged transfers that the receiver never delivered (erased ones excepted).
    public var lost: [Key] {
        entries.filter { $0.value.acknowledged && $0.value.deliveries == 0 && !$0.value.erased && !$0.value.erasedAtSender }.map(\.key)
            .sorted { ($0.sender.rawValue, $0.incarnation, $0.seq) < ($1.sender.rawValue, $1.incarnation, $1.seq) }
    }

    /// Every broken rule: the violations seen on the way and the lost transfers.
    public var problems: [String] {
        violations + lost.map { "\($0): acknowledged to the sender but never delivered" }
    }
}
