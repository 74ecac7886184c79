import Testing
@testable import PeerLinkCore
@testable import PeerLinkScenarios

/// The watch delivered u1 – u5 of the phone's store; the phone's store was then reset and the
/// watch delivered u1 of the new one; then the watch's store went back to a time it knew only
/// the phone's first store. What its receive log holds of that store was delivered then and
/// counted then. Found by a fitness workload sweep (seed 500970 of
/// `watch-store-rolled-back-after-workout.scenario`): the ledger counted u5 of the first store
/// again ("delivered twice") though nothing was delivered.
@Suite("Transfer ledger: a receiver rolled back to an earlier sender store")
struct LedgerRollbackToEarlierSenderTests {
    static let first: UInt64 = 0xC1, second: UInt64 = 0xC2
    final class Engine {}

    static func session(peer: UInt64, log: UInt64, delivered: Int) -> LinkSession {
        var p = LinkPersistent(incarnation: 0xA1)
        p.peerIncarnation = peer
        p.lastDeliveredFromPeer = log
        var s = LinkSession(config: LinkConfig(role: .watch, pairingSecret: nil), persistent: p, seed: 1)
        s.stats.userInfoDelivered = delivered
        return s
    }

    static func key(_ incarnation: UInt64, _ seq: UInt64) -> TransferLedger.Key {
        TransferLedger.Key(sender: .phone, incarnation: incarnation, seq: seq)
    }

    /// The ledger up to the rollback; the engine the restarted watch runs on.
    static func beforeTheRollback(floor: UInt64) -> (TransferLedger, Engine) {
        var l = TransferLedger()
        for n in UInt64(1)...5 { l.queued(key(first, n), TransferLedgerTests.item(n, "a\(n)"), nowMs: 0) }
        l.queued(key(second, 1), TransferLedgerTests.item(1, "b1"), nowMs: 0)
        let before = Engine(), after = Engine()
        l.observeReceiver(.watch, session: session(peer: first, log: 0, delivered: 0), engine: ObjectIdentifier(before), nowMs: 1)
        l.observeReceiver(.watch, session: session(peer: first, log: 5, delivered: 5), engine: ObjectIdentifier(before), nowMs: 2)
        l.observeReceiver(.watch, session: session(peer: second, log: 1, delivered: 6), engine: ObjectIdentifier(before), nowMs: 3)
        #expect(l.problems.isEmpty, "\(l.problems)")
        l.receiverDamage[.watch] = TransferLedger.ReceiverDamage(corrupted: false, floors: [floor, 0])
        return (l, after)
    }

    @Test func whatItsLogHoldsOfTheEarlierStoreIsNotCountedAgain() {
        var (l, after) = Self.beforeTheRollback(floor: 5)
        l.observeReceiver(.watch, session: Self.session(peer: Self.first, log: 5, delivered: 0), engine: ObjectIdentifier(after), nowMs: 4)
        #expect(l.problems.isEmpty, "\(l.problems)")
        #expect(l.entries[Self.key(Self.first, 5)]!.deliveries == 1)
        #expect(l.entries[Self.key(Self.second, 1)]!.erased, "the second store's delivery went with the rollback")
    }

    @Test func deliveriesPastItsLogAreErasedAndMayComeAgain() {
        var (l, after) = Self.beforeTheRollback(floor: 4)
        l.observeReceiver(.watch, session: Self.session(peer: Self.first, log: 4, delivered: 0), engine: ObjectIdentifier(after), nowMs: 4)
        #expect(l.entries[Self.key(Self.first, 5)]!.deliveries == 0 && l.entries[Self.key(Self.first, 5)]!.erased)
        l.observeReceiver(.watch, session: Self.session(peer: Self.first, log: 5, delivered: 1), engine: ObjectIdentifier(after), nowMs: 5)
        #expect(l.problems.isEmpty, "\(l.problems)")
        #expect(l.entries[Self.key(Self.first, 5)]!.deliveries == 1)
    }

    @Test func aDeliveryItsLogDoesNotAccountForIsStillAViolation() {
        var (l, after) = Self.beforeTheRollback(floor: 5)
        l.observeReceiver(.watch, session: Self.session(peer: Self.first, log: 5, delivered: 1), engine: ObjectIdentifier(after), nowMs: 4)
        #expect(l.problems.contains { $0.contains("delivered 1 user-info transfers but its receive logs passed only 0") }, "\(l.problems)")
    }

    /// Replay: `sync-sim sweep scenarios/watch-store-rolled-back-after-workout.scenario --seed
    /// 500970 --workload default --faults "…" --ops "…"`, the shrunk run the sweep gave.
    @Test func theSweepSeedPasses() throws {
        let ops = "@3m20s phone complication-push; @3m20s phone steps 948; @3m23s watch step-goal 24500; @4m55s phone complication-push; @5m30s phone switch notifications off; @5m42s watch step-goal 27500; @8m56s watch step-goal 15500"
        let out = try SimTest.replay("watch-store-rolled-back-after-workout", seed: 500970,
                                     faults: "@3m48s link tamper 20% for 4m21s; @5m7s corrupt phone", workload: .fitness, ops: ops)
        #expect(out.passed, "\(out.problems)")
    }
}
