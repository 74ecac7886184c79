import PeerLinkCore
import PeerLinkSim

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

    public internal(set) var entries: [Key: Entry] = [:]
    /// Per sender, incarnation and stream: the seqs known, ascending.
    var seqs: [StreamKey: [UInt64]] = [:]
    var senders: [DeviceRole: SenderView] = [:]
    var receivers: [DeviceRole: ReceiverView] = [:]
    var receiverDamage: [DeviceRole: ReceiverDamage] = [:]
    /// Broken rules, with the virtual time they were seen.
    public internal(set) var violations: [String] = []
    /// Transfers queued, acknowledged, and deliveries seen (for reports).
    public internal(set) var queuedCount = 0
    public internal(set) var acknowledgedCount = 0
    public internal(set) var deliveredCount = 0
    public internal(set) var erasedCount = 0

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

        /// The counters of the context's session (`inout` only to read it in place), with its
        /// engine's `outstandingUserInfoCount`.
        init(_ ctx: inout NodeContext, engine: ObjectIdentifier, outstanding: Int) {
            self.engine = engine
            incarnation = ctx.session.persistent.incarnation
            peerIncarnation = ctx.session.persistent.peerIncarnation
            nextSeq = ctx.session.persistent.nextSeq
            self.outstanding = outstanding
            lastDelivered = ctx.session.persistent.lastDeliveredFromPeer
            lastComplicationDelivered = ctx.session.persistent.lastComplicationDeliveredFromPeer
            delivered = ctx.session.stats.userInfoDelivered
        }
    }

    /// Per role, the counters of the last `observe` (nil: look in full next time).
    var lastObserved = PerRole<Counters?>(both: nil)

    /// `observe`, skipped when `counters` are those of the last look at `role`.
    mutating func observe(_ role: DeviceRole, counters: Counters, session: () -> LinkSession, store: MemoryStore, nowMs: EpochMs) {
        if lastObserved[role] == counters { return }
        observe(role, session: session(), engine: counters.engine, store: store, nowMs: nowMs)
        lastObserved[role] = counters
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
