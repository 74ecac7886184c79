import Testing
@testable import PeerLinkCore
@testable import FitnessDomain
@testable import PeerLinkScenarios
import PhoneWatch

/// The strict checkers: durable counters and receive logs only go forward, unless the run
/// damaged that node's store, and then only back to what the damage explains.
@Suite("Strict checkers: monotonic per node, erasures only by store damage")
struct StrictCheckerTests {
    static func counters(log: UInt64 = 5, seq: UInt64 = 10, clock: Int64 = 1_000, link: UInt64 = 0xA1, replica: UInt64 = 0xB1) -> NodeInvariants.Counters {
        NodeInvariants.Counters(linkIncarnation: link, replicaIncarnation: replica, linkPeer: 0xC1, replicaPeer: 0xD1,
                                clock: HLCTimestamp(wallMs: clock, counter: 0, replica: 1),
                                own: SIMD8(seq, 4, 3, 1, 1, 1, 0, 0), logs: SIMD8(log, 0, 0, 2, 7, 0, 0, 0), acks: SIMD4(6, 3, 1, 0))
    }

    /// A store holding `log` as its receive log (what a rolled-back node restarts with).
    static func store(log: UInt64) -> MemoryStore {
        var p = LinkPersistent(incarnation: 0xA1)
        p.peerIncarnation = 0xC1
        p.lastDeliveredFromPeer = log
        var sync = ReplicaSync.Persistent(incarnation: 0xB1)
        sync.peerIncarnation = 0xD1
        var state = ReplicaState(replica: 1, schema: .fitnessAndCountdown)
        var b = WriteBatch()
        LinkPersistence.metaWrite(p, into: &b)
        ReplicaPersistence.persistChanges(of: &state, sync: sync, into: &b)
        let s = MemoryStore()
        try! s.commit(b)
        return s
    }

    @Test func aReceiveLogThatGoesBackWithoutStoreDamageIsAViolation() {
        var inv = NodeInvariants()
        inv.observe(.phone, Self.counters(log: 5), nowMs: 1)
        inv.observe(.phone, Self.counters(log: 3), nowMs: 2)
        #expect(inv.violations.count == 1)
        #expect(inv.violations.first?.contains("receive log (ordinary) went back from 5 to 3 without store damage") == true)
    }

    @Test func aRollbackExplainsGoingBackOnlyToWhatTheRolledBackStoreHolds() {
        var inv = NodeInvariants()
        inv.observe(.phone, Self.counters(log: 5), nowMs: 1)
        inv.storeRolledBack(.phone, store: Self.store(log: 4), nowMs: 2)
        inv.observe(.phone, Self.counters(log: 4, seq: 0), nowMs: 3)
        #expect(inv.violations.isEmpty, "\(inv.violations)")
        var below = NodeInvariants()
        below.observe(.phone, Self.counters(log: 5), nowMs: 1)
        below.storeRolledBack(.phone, store: Self.store(log: 4), nowMs: 2)
        below.observe(.phone, Self.counters(log: 2, seq: 0), nowMs: 3)
        #expect(below.violations.contains { $0.contains("went back from 4 to 2") })
    }

    @Test func aNewStoreIsAllowedOnlyAfterCorruption() {
        var inv = NodeInvariants()
        inv.observe(.watch, Self.counters(), nowMs: 1)
        inv.observe(.watch, Self.counters(log: 0, seq: 0, link: 0xA2, replica: 0xB2), nowMs: 2)
        #expect(inv.violations.contains { $0.contains("link store changed incarnation") })
        var ok = NodeInvariants()
        ok.observe(.watch, Self.counters(), nowMs: 1)
        ok.storeCorrupted(.watch)
        ok.observe(.watch, Self.counters(log: 0, seq: 0, link: 0xA2, replica: 0xB2), nowMs: 2)
        #expect(ok.violations.isEmpty)
    }

    @Test func theClockAndTheSeqMayNotGoBack() {
        var inv = NodeInvariants()
        inv.observe(.phone, Self.counters(seq: 10, clock: 2_000), nowMs: 1)
        inv.observe(.phone, Self.counters(seq: 9, clock: 1_500), nowMs: 2)
        #expect(inv.violations.contains { $0.contains("hybrid logical clock went back") })
        #expect(inv.violations.contains { $0.contains("replica seq went back from 10 to 9") })
    }

    @Test func whatThePeerAcknowledgedMayGoBackOnlyAfterThePeersStoreWasDamaged() {
        var acks = Self.counters()
        acks.acks[0] = 0
        var inv = NodeInvariants()
        inv.observe(.phone, Self.counters(), nowMs: 1)
        inv.observe(.phone, acks, nowMs: 2)
        #expect(inv.violations.contains { $0.contains("acknowledged by the peer went back") })
        var ok = NodeInvariants()
        ok.observe(.phone, Self.counters(), nowMs: 1)
        ok.storeRolledBack(.watch, store: Self.store(log: 0), nowMs: 2)
        ok.observe(.phone, acks, nowMs: 3)
        #expect(ok.violations.isEmpty)
    }

    // MARK: - The transfer ledger's receive logs

    static func session(log: UInt64, incarnation: UInt64 = 0xA1) -> LinkSession {
        var p = LinkPersistent(incarnation: incarnation)
        p.peerIncarnation = 0xC1
        p.lastDeliveredFromPeer = log
        return LinkSession(config: LinkConfig(role: .phone, pairingSecret: nil), persistent: p, seed: 1)
    }

    final class Engine {}

    @Test func theLedgerCallsAReceiveLogThatGoesBackAcrossARestartWithoutDamageAViolation() {
        var l = TransferLedger()
        let first = Engine(), second = Engine()
        l.observeReceiver(.phone, session: Self.session(log: 3), engine: ObjectIdentifier(first), nowMs: 1)
        l.observeReceiver(.phone, session: Self.session(log: 1), engine: ObjectIdentifier(second), nowMs: 2)
        #expect(l.violations.contains { $0.contains("went back from 3 to 1 though the run did not damage its store") })
    }

    @Test func theLedgerAcceptsARollbackBackToWhatTheStoreHoldsAndNoFurther() {
        var l = TransferLedger()
        let first = Engine(), second = Engine()
        l.observeReceiver(.phone, session: Self.session(log: 3), engine: ObjectIdentifier(first), nowMs: 1)
        l.receiverDamage[.phone] = TransferLedger.ReceiverDamage(corrupted: false, floors: [2, 0])
        l.observeReceiver(.phone, session: Self.session(log: 2), engine: ObjectIdentifier(second), nowMs: 2)
        #expect(l.violations.isEmpty)
        var deeper = TransferLedger()
        deeper.observeReceiver(.phone, session: Self.session(log: 3), engine: ObjectIdentifier(first), nowMs: 1)
        deeper.receiverDamage[.phone] = TransferLedger.ReceiverDamage(corrupted: false, floors: [2, 0])
        deeper.observeReceiver(.phone, session: Self.session(log: 1), engine: ObjectIdentifier(second), nowMs: 2)
        #expect(deeper.violations.contains { $0.contains("past the 2 its rolled-back store holds") })
    }

    @Test func theLedgerAcceptsANewReceiverStoreOnlyAfterCorruption() {
        var l = TransferLedger()
        let first = Engine(), second = Engine()
        l.observeReceiver(.phone, session: Self.session(log: 3), engine: ObjectIdentifier(first), nowMs: 1)
        l.observeReceiver(.phone, session: Self.session(log: 0, incarnation: 0xA2), engine: ObjectIdentifier(second), nowMs: 2)
        #expect(l.violations.contains { $0.contains("started a new store") })
        var ok = TransferLedger()
        ok.observeReceiver(.phone, session: Self.session(log: 3), engine: ObjectIdentifier(first), nowMs: 1)
        ok.storeCorrupted(.phone)
        ok.observeReceiver(.phone, session: Self.session(log: 0, incarnation: 0xA2), engine: ObjectIdentifier(second), nowMs: 2)
        #expect(ok.violations.isEmpty)
    }
}
