import Testing
@testable import PeerLinkCore
@testable import CountdownDomain

/// `removed` (read off the slots, not by building `changed`) and `forEachChangedOrRemoved`
/// (the apps' walk over both) must list exactly what the sets' definitions say, through
/// writes, deletes, merged tombstones and fields, collected tombstones, freed slots taken by
/// new records, and drains.
@Suite("Replica change lists")
struct ReplicaChangeListTests {
    /// The definitions: `removedKeys` less `changed`; the walk visits `changed ∪ removed`, each once.
    static func check(_ s: ReplicaState, _ note: Comment) {
        let reference = s.removedKeys.subtracting(s.changed)
        #expect(s.removed == reference, note)
        var walked: [RecordKey] = []
        s.forEachChangedOrRemoved { walked.append($0) }
        #expect(walked.count == Set(walked).count, note)
        #expect(Set(walked) == s.changed.union(reference), note)
        var entriesAgree = true
        s.forEachChangedOrRemovedEntry { key, entry in entriesAgree = entriesAgree && entry == s.entry(key) }
        #expect(entriesAgree, note)
    }

    @Test func listsAgreeWithTheirDefinitions() {
        var rng = ReplicaSplitMix64(seed: 0x5EED_CAFE)
        for round in 0..<40 {
            var s = ReplicaState(replica: 1, schema: .fitnessAndCountdown)
            var now = ReplicaFixture.start
            var peerCounter: UInt32 = 0
            for step in 0..<200 {
                now += 1_000
                let key = rng.chance(0.7) ? ReplicaFixture.goal(rng.below(12)) : ReplicaFixture.sample(rng.below(12))
                switch rng.below(8) {
                case 0, 1: _ = s.set(key, field: "title", to: ReplicaFixture.value(&rng), wallMs: now)
                case 2: _ = s.delete(key, wallMs: now)
                case 3:
                    // The peer's fields or tombstone (some of them for records collected here).
                    peerCounter += 1
                    let stamp = HLCTimestamp(wallMs: now - Int64(rng.below(3)) * 5_000, counter: peerCounter, replica: 2)
                    let r = rng.chance(0.5) ? DeltaRecord(key: key, fields: [], tombstone: stamp)
                        : DeltaRecord(key: key, fields: [DeltaField(name: "title", value: ReplicaFixture.value(&rng), stamp: stamp)], tombstone: nil)
                    s.merge(r, wallMs: now)
                case 4: s.collectTombstones(upTo: s.seq)
                case 5: s.collectTombstone(key)
                case 6: if rng.chance(0.3) { _ = s.drainChanges() }
                default: _ = s.set(ReplicaFixture.goal(100 + step), field: "title", to: "new", wallMs: now)  // may take a freed slot
                }
                Self.check(s, "round \(round) step \(step)")
            }
        }
    }
}
