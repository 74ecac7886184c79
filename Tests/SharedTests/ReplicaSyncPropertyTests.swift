import Testing
@testable import PeerLinkCore
@testable import CountdownDomain

/// Seeded property tests: random writes on two replicas, a lossy, duplicating, reordering
/// transport under a FIFO exactly-once channel, partitions and clock faults; after healing,
/// both replicas MUST show the same state and keep every delete.
@Suite("Replica sync properties")
struct ReplicaSyncPropertyTests {
    /// Runs one random history; returns the network after it settled.
    static func randomHistory(seed: UInt64, steps: Int, resets: Bool) -> (net: ReplicaNetwork, settled: Bool, deleted: Set<RecordKey>) {
        var rng = ReplicaSplitMix64(seed: seed)
        var net = ReplicaNetwork(a: ReplicaPeer(role: .phone, incarnation: 0xA000 + seed), b: ReplicaPeer(role: .watch, incarnation: 0xB000 + seed))
        net.a.skewMs = Int64(rng.below(49)) * ReplicaFixture.hourMs - 24 * ReplicaFixture.hourMs
        net.b.skewMs = Int64(rng.below(49)) * ReplicaFixture.hourMs - 24 * ReplicaFixture.hourMs
        let loss = [0.0, 0.1, 0.3][rng.below(3)]
        let duplication = [0.0, 0.1, 0.3][rng.below(3)]
        var deleted: Set<RecordKey> = []
        var sampleCount = 0
        for _ in 0..<steps {
            net.makeDeltas()
            for _ in 0..<(1 + rng.below(3)) { net.transportStep(&rng, lossRate: loss, duplicateRate: duplication) }
            let onA = rng.below(2) == 0
            var peer = onA ? net.a : net.b
            var known = onA ? net.knownDeletedA : net.knownDeletedB
            let wall = net.nowMs + peer.skewMs
            switch rng.below(20) {
            case 0..<8:
                let key = ReplicaFixture.goal(rng.below(12))
                if !known.contains(key) {
                    var fields: [String: PlistValue] = [:]
                    for _ in 0..<(1 + rng.below(2)) { fields[ReplicaFixture.fieldNames[rng.below(4)]] = ReplicaFixture.value(&rng) }
                    peer.state.set(key, fields, wallMs: wall)
                }
            case 8, 9:
                let key = ReplicaFixture.goal(rng.below(12))
                if case .success = peer.state.delete(key, wallMs: wall) {
                    known.insert(key)
                    deleted.insert(key)
                }
            case 10..<13:
                sampleCount += 1
                peer.state.set(ReplicaFixture.sample(sampleCount), ["value": .int(Int64(rng.below(100)))], wallMs: wall)
            case 13, 14:
                peer.state.set(ReplicaFixture.settings, field: ["stepGoal", "notifications"][rng.below(2)], to: ReplicaFixture.value(&rng), wallMs: wall)
            case 15:
                net.nowMs += Int64(rng.below(3_600_000))
            case 16:
                peer.skewMs -= ReplicaFixture.hourMs  // the wall clock jumps back an hour
            case 17:
                if net.connected { net.partition() } else { net.connected = true; net.toA.resendAll(); net.toB.resendAll() }
            default:
                net.nowMs += Int64(rng.below(1000))
            }
            if onA { net.a = peer; net.knownDeletedA = known } else { net.b = peer; net.knownDeletedB = known }
            if resets && rng.below(150) == 0 { net.resetB(incarnation: 0xC000 + rng.next() % 1000) }
        }
        let settled = net.settle(&rng)
        return (net, settled, deleted)
    }

    @Test(arguments: Array(UInt64(1)...40))
    func randomHistoriesConvergeToEqualDigests(seed: UInt64) {
        let (net, settled, deleted) = Self.randomHistory(seed: seed, steps: 400, resets: false)
        let replay = "replay: ReplicaSyncPropertyTests.randomHistory(seed: \(seed), steps: 400, resets: false)"
        #expect(settled, "seed \(seed): the network did not settle; \(replay)")
        #expect(net.a.state.digest() == net.b.state.digest(), "seed \(seed): digests differ; \(replay)")
        for side in [net.a.state, net.b.state] {
            #expect(side.records.values.filter { $0.tombstone != nil }.count == side.tombstoneCount, "seed \(seed): tombstone count drifted")
        }
        for key in deleted {
            #expect(net.a.state.fields(key) == nil && net.b.state.fields(key) == nil, "seed \(seed): deleted \(key) came back; \(replay)")
        }
        #expect(net.a.state.tombstoneCount == 0 && net.b.state.tombstoneCount == 0,
                "seed \(seed): tombstones left after every delete was acknowledged; \(replay)")
    }

    @Test(arguments: Array(UInt64(100)...120))
    func randomHistoriesWithStoreResetsConverge(seed: UInt64) {
        let (net, settled, _) = Self.randomHistory(seed: seed, steps: 500, resets: true)
        let replay = "replay: ReplicaSyncPropertyTests.randomHistory(seed: \(seed), steps: 500, resets: true)"
        #expect(settled, "seed \(seed): the network did not settle; \(replay)")
        #expect(net.a.state.digest() == net.b.state.digest(), "seed \(seed): digests differ; \(replay)")
    }

    @Test func reconnectSendsOneDeltaEachWayWithBytesForTheChangedRecordsOnly() {
        func resyncBytes(totalRecords: Int, changed: Int) -> ReplicaTraffic {
            var a = ReplicaPeer(role: .phone, incarnation: 1), b = ReplicaPeer(role: .watch, incarnation: 2)
            var now = ReplicaFixture.start
            for i in 0..<totalRecords { a.state.set(ReplicaFixture.goal(i), ["title": .string("goal \(i)"), "priority": .int(Int64(i))], wallMs: now); now += 1 }
            syncUntilQuiet(&a, &b, nowMs: now)
            for i in 0..<changed {
                if i % 2 == 0 { a.state.set(ReplicaFixture.goal(i * 3), field: "title", to: .string("edited \(i)"), wallMs: now) }
                else { b.state.set(ReplicaFixture.goal(i * 3), field: "priority", to: .int(Int64(-i)), wallMs: now) }
                now += 1
            }
            let t = syncUntilQuiet(&a, &b, nowMs: now)
            #expect(a.state.digest() == b.state.digest())
            return t
        }
        let small = resyncBytes(totalRecords: 200, changed: 20)
        let large = resyncBytes(totalRecords: 2_000, changed: 20)
        let more = resyncBytes(totalRecords: 2_000, changed: 200)
        #expect(small.rounds == 1 && small.deltasAtoB == 1 && small.deltasBtoA == 1)
        #expect(large.rounds == 1 && more.rounds == 1)
        // Ten times the state, same changes: the same bytes (ids are one digit longer at most).
        #expect(abs(large.total - small.total) <= 40, "\(small.total) vs \(large.total)")
        // Ten times the changes: about ten times the bytes.
        #expect(more.total > 8 * large.total && more.total < 12 * large.total, "\(large.total) vs \(more.total)")
    }

    static func freshPairWithRecords() -> (ReplicaPeer, ReplicaPeer) {
        var a = ReplicaPeer(role: .phone, incarnation: 1), b = ReplicaPeer(role: .watch, incarnation: 2)
        for i in 0..<50 { a.state.set(ReplicaFixture.goal(i), field: "title", to: .string("a\(i)"), wallMs: ReplicaFixture.start) }
        for i in 50..<100 { b.state.set(ReplicaFixture.goal(i), field: "title", to: .string("b\(i)"), wallMs: ReplicaFixture.start) }
        return (a, b)
    }

    @Test func firstContactSendsEachRecordOnce() throws {
        // Both new stores announce themselves in deltas that cross, as when a node's link
        // comes up: neither is a reset to resend for.
        var (a, b) = Self.freshPairWithRecords()
        let fromA = a.sync.makeDelta(from: a.state), fromB = b.sync.makeDelta(from: b.state)
        for p in try #require(fromA) { _ = b.sync.receive(p, into: &b.state, wallMs: ReplicaFixture.start) }
        for p in try #require(fromB) { #expect(!a.sync.receive(p, into: &a.state, wallMs: ReplicaFixture.start).peerWasReset) }
        a.sync.onPartConfirmed()
        b.sync.onPartConfirmed()
        let rest = syncUntilQuiet(&a, &b, nowMs: ReplicaFixture.start)
        #expect(rest.rounds == 0)
        #expect(a.state.digest() == b.state.digest())
        #expect(a.state.count(in: CountdownGoal.collection) == 100)
    }

    @Test func firstContactAfterAnEarlyConfirmationResendsOnlyOwnRecords() throws {
        var (a, b) = Self.freshPairWithRecords()
        var once = ReplicaTraffic()
        do {
            var a1 = a, b1 = b
            let fromA = a1.sync.makeDelta(from: a1.state)!, fromB = b1.sync.makeDelta(from: b1.state)!
            once.bytesAtoB = fromA.reduce(0) { $0 + ReplicaDeltaCodec.encode($1).count }
            once.bytesBtoA = fromB.reduce(0) { $0 + ReplicaDeltaCodec.encode($1).count }
        }
        // syncUntilQuiet confirms A's delta before B's first delta reaches A.
        let t = syncUntilQuiet(&a, &b, nowMs: ReplicaFixture.start)
        #expect(a.state.digest() == b.state.digest())
        #expect(t.bytesBtoA == once.bytesBtoA, "B's records are never echoed back to it")
        #expect(t.bytesAtoB <= 2 * once.bytesAtoB + 64, "A resends its own records once at most")
    }
}
