import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// `cachedDigestHex` answers what `digestHex` would, after every kind of change.
@Suite("Replica digest cache")
struct ReplicaDigestCacheTests {
    @Test func theCachedDigestFollowsWritesMergesDeletesAndLoads() {
        var a = ReplicaState(replica: 1, schema: .fitnessAndCountdown)
        var b = ReplicaState(replica: 2, schema: .fitnessAndCountdown)
        var expected = a.digestHex()
        #expect(a.cachedDigestHex() == expected)
        _ = a.set(RecordKey("goals", "g1"), ["title": "run"], wallMs: 1_000)
        #expect(a.cachedDigestHex() == a.digestHex() && a.digestHex() != expected, "a write")
        let copy = a  // carries the cache of the state it copied
        _ = b.set(RecordKey("goals", "g2"), ["title": "swim"], wallMs: 2_000)
        _ = a.apply(b.changes(after: 0, excludingWriter: nil), wallMs: 3_000)
        #expect(a.cachedDigestHex() == a.digestHex(), "a merge")
        var c = copy
        _ = c.delete(RecordKey("goals", "g1"), wallMs: 4_000)
        #expect(c.cachedDigestHex() == c.digestHex(), "a delete in a copy")
        expected = a.digestHex()
        #expect(a.cachedDigestHex() == expected, "the original is unchanged by the copy's delete")
        var loaded = ReplicaState(replica: 1, schema: .fitnessAndCountdown)
        _ = loaded.cachedDigestHex()
        for (k, e) in a.records { loaded.load(k, e) }
        #expect(loaded.cachedDigestHex() == expected, "loading from the store clears the cache")
    }
}
