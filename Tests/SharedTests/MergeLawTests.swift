import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// Merge laws on random deltas: commutative, associative, idempotent; and the rules that
/// make them hold (equal stamps, delete wins, grow-only samples).
@Suite("Merge laws")
struct MergeLawTests {
    /// Three replicas with skewed clocks write, delete and partly merge at random; returns
    /// each one's full state as a delta.
    static func randomFullStates(seed: UInt64) -> [[DeltaRecord]] {
        var rng = ReplicaSplitMix64(seed: seed)
        var states = (1...3).map { ReplicaState(replica: UInt16($0), schema: .fitnessAndCountdown) }
        let skews = (0..<3).map { _ in Int64(rng.below(49) - 24) * ReplicaFixture.hourMs }
        var now = ReplicaFixture.start
        for _ in 0..<60 {
            let i = rng.below(3)
            let wall = now + skews[i]
            let key = ReplicaFixture.goal(rng.below(8))
            switch rng.below(10) {
            case 0: states[i].delete(key, wallMs: wall)
            case 1: states[i].set(ReplicaFixture.sample(rng.below(6)), ["value": ReplicaFixture.value(&rng)], wallMs: wall)
            case 2:
                let j = rng.below(3)
                if j != i { states[i].apply(states[j].changes(after: UInt64(rng.below(20)), excludingWriter: nil), wallMs: wall) }
            default: states[i].set(key, field: ReplicaFixture.fieldNames[rng.below(4)], to: ReplicaFixture.value(&rng), wallMs: wall)
            }
            now += Int64(rng.below(3))  // often the same millisecond: many equal wall times
        }
        return states.map { $0.fullState() }
    }

    static func merged(_ parts: [[DeltaRecord]], replica: UInt16 = 9) -> ReplicaState {
        var s = ReplicaState(replica: replica, schema: .fitnessAndCountdown)
        for p in parts { s.apply(p, wallMs: ReplicaFixture.start) }
        return s
    }

    @Test(arguments: Array(UInt64(1)...60))
    func mergeIsCommutative(seed: UInt64) {
        let d = Self.randomFullStates(seed: seed)
        let ab = Self.merged([d[0], d[1]]), ba = Self.merged([d[1], d[0]])
        #expect(ab.digest() == ba.digest(), "seed \(seed): A⊔B ≠ B⊔A (replay: MergeLawTests.randomFullStates(seed: \(seed)))")
        let abc = Self.merged([d[0], d[1], d[2]]), cba = Self.merged([d[2], d[1], d[0]]), bca = Self.merged([d[1], d[2], d[0]])
        #expect(abc.digest() == cba.digest() && abc.digest() == bca.digest(), "seed \(seed): order matters")
    }

    @Test(arguments: Array(UInt64(1)...60))
    func mergeIsAssociative(seed: UInt64) {
        let d = Self.randomFullStates(seed: seed)
        let left = Self.merged([Self.merged([d[0], d[1]]).fullState(), d[2]])
        let right = Self.merged([d[0], Self.merged([d[1], d[2]]).fullState()])
        #expect(left.digest() == right.digest(), "seed \(seed): (A⊔B)⊔C ≠ A⊔(B⊔C) (replay: MergeLawTests.randomFullStates(seed: \(seed)))")
    }

    @Test(arguments: Array(UInt64(1)...60))
    func mergeIsIdempotent(seed: UInt64) {
        let d = Self.randomFullStates(seed: seed)
        var s = Self.merged([d[0], d[1]])
        let digest = s.digest()
        #expect(s.apply(d[0], wallMs: ReplicaFixture.start) == 0, "seed \(seed): re-applying changed records")
        #expect(s.apply(s.fullState(), wallMs: ReplicaFixture.start) == 0, "seed \(seed): A⊔A changed A")
        #expect(s.digest() == digest, "seed \(seed): A⊔A ≠ A")
    }

    @Test func equalStampsWithDifferentValuesPickTheSameValueInEitherOrder() {
        let key = ReplicaFixture.goal(1)
        let stamp = HLCTimestamp(wallMs: ReplicaFixture.start, counter: 0, replica: 2)
        let x = DeltaRecord(key: key, fields: [DeltaField(name: "title", value: "before reset", stamp: stamp)], tombstone: nil)
        let y = DeltaRecord(key: key, fields: [DeltaField(name: "title", value: "after reset", stamp: stamp)], tombstone: nil)
        let xy = Self.merged([[x], [y]]), yx = Self.merged([[y], [x]])
        #expect(xy.digest() == yx.digest())
        #expect(xy.fields(key)?["title"] == yx.fields(key)?["title"])
    }

    @Test func aDeleteWinsOverAnEditStampedLater() {
        let key = ReplicaFixture.goal(1)
        let delete = DeltaRecord(key: key, fields: [], tombstone: HLCTimestamp(wallMs: ReplicaFixture.start, counter: 0, replica: 1))
        let edit = DeltaRecord(key: key, fields: [DeltaField(name: "title", value: "x", stamp: HLCTimestamp(wallMs: ReplicaFixture.start + 99_999, counter: 0, replica: 2))], tombstone: nil)
        for order in [[[delete], [edit]], [[edit], [delete]]] {
            let s = Self.merged(order)
            #expect(s.fields(key) == nil && s.isDeleted(key))
        }
    }

    @Test func differentFieldsOfOneRecordMergePerField() {
        var phone = ReplicaState(replica: 1, schema: .fitnessAndCountdown), watch = ReplicaState(replica: 2, schema: .fitnessAndCountdown)
        let key = ReplicaFixture.goal(1)
        phone.set(key, ["title": "Trip", "priority": 10], wallMs: ReplicaFixture.start)
        watch.apply(phone.fullState(), wallMs: ReplicaFixture.start)
        phone.set(key, field: "title", to: "Trip to Kyoto", wallMs: ReplicaFixture.start + 10)
        watch.set(key, field: "priority", to: 5, wallMs: ReplicaFixture.start + 20)
        phone.apply(watch.fullState(), wallMs: ReplicaFixture.start + 30)
        watch.apply(phone.fullState(), wallMs: ReplicaFixture.start + 30)
        #expect(phone.fields(key) == ["title": "Trip to Kyoto", "priority": 5])
        #expect(phone.digest() == watch.digest())
    }

    @Test func samplesAreAGrowOnlySet() {
        var s = ReplicaState(replica: 1, schema: .fitnessAndCountdown)
        let key = ReplicaFixture.sample(1)
        #expect((try? s.set(key, ["value": 10], wallMs: ReplicaFixture.start).get()) != nil)
        #expect(s.set(key, ["value": 11], wallMs: ReplicaFixture.start) == .failure(.immutableRecord(key)))
        #expect(s.delete(key, wallMs: ReplicaFixture.start) == .failure(.notDeletable(key)))
        // A tombstone from elsewhere does not remove a sample either.
        s.apply([DeltaRecord(key: key, fields: [], tombstone: HLCTimestamp(wallMs: ReplicaFixture.start + 5, counter: 0, replica: 2))], wallMs: ReplicaFixture.start)
        #expect(s.fields(key) == ["value": 10])
    }

    @Test func whichCollectionsAreGrowOnlyIsTheSchemasChoice() {
        // An app whose grow-only collection is "water": its water records refuse a second
        // write and a delete; its samples are ordinary records.
        var s = ReplicaState(replica: 1, schema: ReplicaSchema(growOnly: ["water"]))
        let water = RecordKey("water", "w1"), sample = ReplicaFixture.sample(1)
        #expect((try? s.set(water, ["ml": 250], wallMs: ReplicaFixture.start).get()) != nil)
        #expect(s.set(water, ["ml": 300], wallMs: ReplicaFixture.start) == .failure(.immutableRecord(water)))
        #expect(s.delete(water, wallMs: ReplicaFixture.start) == .failure(.notDeletable(water)))
        #expect((try? s.set(sample, ["value": 10], wallMs: ReplicaFixture.start).get()) != nil)
        #expect((try? s.set(sample, ["value": 11], wallMs: ReplicaFixture.start).get()) != nil)
        #expect((try? s.delete(sample, wallMs: ReplicaFixture.start).get()) != nil)
        #expect(s.fields(sample) == nil)
        // With no grow-only collection, a water record is an ordinary record too.
        var plain = ReplicaState(replica: 1, schema: ReplicaSchema())
        plain.set(water, ["ml": 250], wallMs: ReplicaFixture.start)
        #expect((try? plain.delete(water, wallMs: ReplicaFixture.start).get()) != nil)
    }

    @Test func digestsAreEqualExactlyWhenTheVisibleStatesAre() {
        var a = ReplicaState(replica: 1, schema: .fitnessAndCountdown), b = ReplicaState(replica: 2, schema: .fitnessAndCountdown)
        a.set(ReplicaFixture.goal(1), ["title": "x", "priority": 1], wallMs: ReplicaFixture.start)
        a.set(ReplicaFixture.goal(2), ["title": "y"], wallMs: ReplicaFixture.start)
        a.delete(ReplicaFixture.goal(3), wallMs: ReplicaFixture.start)
        // B learns the same records in another order, without the tombstone, with other seqs.
        for r in a.fullState().reversed() where r.tombstone == nil { b.apply([r], wallMs: ReplicaFixture.start) }
        b.set(ReplicaFixture.goal(4), field: "title", to: "z", wallMs: ReplicaFixture.start)
        b.delete(ReplicaFixture.goal(4), wallMs: ReplicaFixture.start)
        #expect(a.digest() == b.digest(), "tombstones and local seqs are not part of the visible state")
        var c = b
        c.apply([DeltaRecord(key: ReplicaFixture.goal(2), fields: [DeltaField(name: "title", value: "y2", stamp: HLCTimestamp(wallMs: ReplicaFixture.start + 1, counter: 0, replica: 1))], tombstone: nil)], wallMs: ReplicaFixture.start)
        #expect(c.digest() != b.digest(), "one changed value changes the digest")
        var e = b
        e.set(ReplicaFixture.goal(5), [:], wallMs: ReplicaFixture.start)
        #expect(e.digest() == b.digest(), "an empty write shows nothing")
    }
}
