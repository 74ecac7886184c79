import PeerLink
import Shared

/// Checks that each node's replicated state only moves forward: its hybrid logical clock
/// never goes back and its local change counter (`seq`) never decreases, across restarts
/// and crashes alike.
///
/// Two events legitimately take a node's durable state back and start a new baseline: a
/// store reset after corruption (the store starts empty, under a new incarnation) and a
/// rollback of the store (its last commits are gone by definition; the rollback step is
/// exactly that fault).
public struct NodeInvariants: Sendable {
    struct Baseline {
        var clock: HLCTimestamp
        var seq: UInt64
        var incarnation: UInt64
    }

    var baselines: [DeviceRole: Baseline] = [:]
    /// Broken rules, with the virtual time they were seen.
    public private(set) var violations: [String] = []

    public init() {}

    /// Looks at `role` after one of its entry points: its replica's clock and seq, and its
    /// store's incarnation.
    mutating func observe(_ role: DeviceRole, clock: HLCTimestamp, seq: UInt64, incarnation: UInt64, nowMs: EpochMs) {
        let now = Baseline(clock: clock, seq: seq, incarnation: incarnation)
        defer { baselines[role] = now }
        guard let b = baselines[role], b.incarnation == incarnation else { return }
        if now.clock < b.clock {
            violations.append("\(nowMs) \(role): the hybrid logical clock went back from \(b.clock) to \(now.clock)")
        }
        if now.seq < b.seq {
            violations.append("\(nowMs) \(role): the replica seq went back from \(b.seq) to \(now.seq)")
        }
    }

    /// The node's store went back on purpose (a rollback fault): start a new baseline.
    mutating func storeRolledBack(_ role: DeviceRole) { baselines[role] = nil }
}
