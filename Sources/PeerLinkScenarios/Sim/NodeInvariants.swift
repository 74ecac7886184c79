import PeerLinkCore
import PeerLinkSim

/// Checks that each node's durable counters only move forward, across restarts and crashes:
/// the hybrid logical clock, the replica's change counter and what it acknowledged of its
/// peer, the link's sequence, context, file and inbox counters and its receive logs.
///
/// Every value is observed after an entry point of the node, once its batch is committed, so
/// a value seen is durable: a node that comes back from a crash with less broke the rule.
/// The only legitimate way back is store damage the run did to that node:
/// - a corruption resets the store: the node may start a new store (new incarnations, every
///   counter from zero), and only then;
/// - a rollback cuts the store's last commits: each counter may go back to what the rolled-back
///   store holds (read from it at the rollback), not below; the node's replica may start new
///   incarnations when it notices (at its next handshake, and again for a delta addressed to
///   a store of its that is gone).
///
/// Counters that count what the *peer* holds (the peer's receive logs as acknowledged, the
/// replica's `ackedByPeer`, the context version the peer stored) may go back only after the
/// peer's store was damaged, or when the peer is a new store.
public struct NodeInvariants: Sendable {
    /// What is followed of one node.
    struct Counters: Equatable {
        var linkIncarnation: UInt64 = 0
        var replicaIncarnation: UInt64 = 0
        var linkPeer: UInt64 = 0
        var replicaPeer: UInt64 = 0
        var clock = HLCTimestamp(wallMs: 0, counter: 0, replica: 0)
        /// Must only grow while the store lasts (`ownNames`; fixed-size vectors: this is taken
        /// after every entry point of a node, and must not allocate).
        var own = SIMD8<UInt64>()
        /// Receive logs: must only grow while both stores last (`logNames`).
        var logs = SIMD8<UInt64>()
        /// What the peer acknowledged: may go back after the peer's store was damaged (`ackNames`).
        var acks = SIMD4<UInt64>()
    }

    static let ownNames = ["replica seq", "link nextSeq", "highest seq sent", "context version", "next file number", "next inbox seq"]
    static let logNames = ["receive log (ordinary)", "receive log (complication)", "last file delivered", "received context version",
                           "replica watermark of the peer"]
    static let ackNames = ["replica changes acknowledged by the peer", "user info acknowledged by the peer", "context version the peer stored"]

    /// The counters of a node's context (`inout` only to read it in place).
    static func counters(_ ctx: inout NodeContext) -> Counters {
        let p = ctx.session.persistent
        let s = ctx.syncPersistent
        return Counters(linkIncarnation: p.incarnation, replicaIncarnation: s.incarnation, linkPeer: p.peerIncarnation,
                        replicaPeer: s.peerIncarnation, clock: ctx.replica.clock.last,
                        own: SIMD8(ctx.replica.seq, p.nextSeq, p.highestSeqSent, p.contextVersion, p.nextFileNumber, p.nextInboxSeq, 0, 0),
                        logs: SIMD8(p.lastDeliveredFromPeer, p.lastComplicationDeliveredFromPeer, p.lastFileDelivered, p.receivedContextVersion,
                                    s.peerWatermark, 0, 0, 0),
                        acks: SIMD4(s.ackedByPeer, p.peerAckedThrough, p.contextAckedVersion, 0))
    }

    /// The counters a store holds (what a rolled-back node restarts with).
    static func counters(in store: KeyValueStore, role: DeviceRole) -> Counters? {
        guard let p = try? LinkPersistence.load(from: store, newIncarnation: 0), p.incarnation != 0,
              // Only counters are read: the app's schema (what merges may do) does not matter here.
              let (replica, sync) = try? ReplicaPersistence.load(from: store, replica: role.replicaID, schema: ReplicaSchema()), let s = sync else { return nil }
        return Counters(linkIncarnation: p.incarnation, replicaIncarnation: s.incarnation, linkPeer: p.peerIncarnation,
                        replicaPeer: s.peerIncarnation, clock: replica.clock.last,
                        own: SIMD8(replica.seq, p.nextSeq, p.highestSeqSent, p.contextVersion, p.nextFileNumber, p.nextInboxSeq, 0, 0),
                        logs: SIMD8(p.lastDeliveredFromPeer, p.lastComplicationDeliveredFromPeer, p.lastFileDelivered, p.receivedContextVersion,
                                    s.peerWatermark, 0, 0, 0),
                        acks: SIMD4(s.ackedByPeer, p.peerAckedThrough, p.contextAckedVersion, 0))
    }

    /// What the run did to a node's store since its counters were last taken as the baseline.
    struct Damage: Sendable {
        var corrupted = false
        var rolledBack = false
    }

    var baselines = PerRole<Counters?>(both: nil)
    /// Store damage of each node not yet accounted for by an incarnation change.
    var damage: [DeviceRole: Damage] = [:]
    /// Whether each node's store was ever damaged in the run (what excuses the peer's acks going back).
    var everDamaged: Set<DeviceRole> = []
    /// Broken rules, with the virtual time they were seen.
    public private(set) var violations: [String] = []

    public init() {}

    /// Looks at `role` after one of its entry points.
    mutating func observe(_ role: DeviceRole, _ now: Counters, nowMs: EpochMs) {
        guard let b = baselines[role] else { baselines[role] = now; return }
        if b == now { return }
        defer { baselines[role] = now }
        var d = damage[role] ?? Damage()
        let who = "\(nowMs) \(role)"
        // Own store: the same incarnations, or a new store after damage.
        let sameLink = now.linkIncarnation == b.linkIncarnation
        let sameReplica = now.replicaIncarnation == b.replicaIncarnation
        if !sameLink && !d.corrupted {
            violations.append("\(who): the link store changed incarnation (\(hex(b.linkIncarnation)) → \(hex(now.linkIncarnation))) without store corruption")
        }
        // A damaged store's replica may start anew more than once before it has its peer's
        // state back (each time it finds a delta addressed to a store of its that is gone).
        if !sameReplica && !everDamaged.contains(role) {
            violations.append("\(who): the replica changed incarnation (\(hex(b.replicaIncarnation)) → \(hex(now.replicaIncarnation))) without store damage")
        }
        if !sameLink { d = Damage() }
        damage[role] = d
        if sameReplica, now.clock < b.clock {
            violations.append("\(who): the hybrid logical clock went back from \(b.clock) to \(now.clock)")
        }
        if sameLink && sameReplica {
            for i in Self.ownNames.indices where now.own[i] < b.own[i] {
                violations.append("\(who): the \(Self.ownNames[i]) went back from \(b.own[i]) to \(now.own[i])")
            }
        }
        // Receive logs: per pair of stores (a new peer store starts them from zero).
        for i in Self.logNames.indices where now.logs[i] < b.logs[i] {
            let peerSame = i == 4 ? now.replicaPeer == b.replicaPeer : now.linkPeer == b.linkPeer
            guard sameLink && sameReplica && peerSame else { continue }
            violations.append("\(who): its \(Self.logNames[i]) went back from \(b.logs[i]) to \(now.logs[i]) without store damage")
        }
        let peerChanged = now.linkPeer != b.linkPeer || now.replicaPeer != b.replicaPeer
        if sameLink, b.linkPeer != 0, now.linkPeer != 0, now.linkPeer != b.linkPeer, !everDamaged.contains(role.peer) {
            violations.append("\(who): the \(role.peer)'s store changed incarnation (\(hex(b.linkPeer)) → \(hex(now.linkPeer))) without damage to it")
        }
        if sameLink && sameReplica && !peerChanged && !everDamaged.contains(role.peer) {
            for i in Self.ackNames.indices where now.acks[i] < b.acks[i] {
                violations.append("\(who): the \(Self.ackNames[i]) went back from \(b.acks[i]) to \(now.acks[i]) while the \(role.peer)'s store was never damaged")
            }
        }
    }

    /// The node's store was found corrupt and will be reset: a new store may follow.
    mutating func storeCorrupted(_ role: DeviceRole) {
        damage[role, default: Damage()].corrupted = true
        everDamaged.insert(role)
    }

    /// The node's store lost its last commits: its counters may go back to what `store` holds
    /// now (the rolled-back store), and no further.
    mutating func storeRolledBack(_ role: DeviceRole, store: KeyValueStore, nowMs: EpochMs) {
        damage[role, default: Damage()].rolledBack = true
        everDamaged.insert(role)
        guard let floor = Self.counters(in: store, role: role) else {
            baselines[role] = nil  // nothing usable left: the node starts as a new store
            return
        }
        if let b = baselines[role] {
            // The rollback can only take values back, never forward.
            for i in Self.ownNames.indices where floor.own[i] > b.own[i] {
                violations.append("\(nowMs) \(role): the rolled-back store holds \(Self.ownNames[i]) \(floor.own[i]), beyond the \(b.own[i]) seen")
            }
        }
        baselines[role] = floor
    }

    func hex(_ v: UInt64) -> String { String(String(v, radix: 16).prefix(6)) }
}
