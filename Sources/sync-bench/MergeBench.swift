import PeerLinkCore
import FitnessDomain

/// The `merge` suite: the replicated state's write and merge speed, its size, and what a
/// resync after a partition costs, beside a plain dictionary and raw SQLite.
///
/// Workload (the same for every rate; `--quick` divides the set count by 10):
/// - 1,000 keys `bench/k0` … `bench/k999`, one field `v` each.
/// - 1,000,000 sets. Set `i` goes to writer A (replica 1) when `i` is even and to writer B
///   (replica 2) when odd; its key is drawn uniformly from the 1,000 by a SplitMix64
///   generator (seed 42) before timing; its value is the small integer `i % 100`; its wall
///   time is a virtual clock that advances 1 ms per set (both writers read the same clock).
/// - Then merge: the two `ReplicaSync`s exchange deltas (made, encoded, decoded, received,
///   confirmed) until neither has anything to send; both digests MUST then be equal.
///
/// Figures:
/// - `lww_sets_per_s`: 1,000,000 / (time of all sets + time of the merge), change tracking on
///   (as in a node). Best of 5 runs. `lww_sets_per_s_untracked` is the same with
///   `tracksChanges = false` (nothing would be persisted: the pure CRDT).
/// - `state_bytes`: after that, the encoded full state *as sent to a reset peer*: the sum of
///   the encoded parts of the delta A makes when B announces a store reset (base 0, every
///   record, B's writes included). `state_row_bytes` is what A's store rows hold (keys and
///   values of the `replica` table, before SQLite's page overhead).
/// - `resync_bytes`: after the merge, a partition during which 100 distinct keys change
///   (drawn by the same generator; alternately by A and B, so 50 each, 1 ms apart); then one
///   delta each way, made before either is received; the sum of both encoded deltas. Both
///   MUST then have equal digests and nothing more to send. `resync_conflict_bytes` is the
///   same when both writers change the same 100 keys (every key conflicts).
/// - `dictionary_sets_per_s`: the same key/value sequence as `[String: Int]` subscript sets.
/// - `raw_sqlite_sets_per_s`: the same sequence as `INSERT OR REPLACE INTO kv(k TEXT PRIMARY
///   KEY, v INTEGER)` with one prepared statement in one transaction, in a temporary *file*
///   (WAL, synchronous=NORMAL, like the node's store), commit included.
let mergeSuite = BenchSuite(name: "merge") { quick in
    let w = MergeWorkload(sets: quick ? 100_000 : 1_000_000, keys: 1_000, seed: 42)
    let runs = quick ? 1 : 5
    var best = UInt64.max, bestUntracked = UInt64.max
    var pair = MergePair()
    for _ in 0..<runs {
        var p = MergePair()
        best = min(best, try p.run(w, tracking: true))
        pair = p
        var q = MergePair()
        bestUntracked = min(bestUntracked, try q.run(w, tracking: false))
    }
    let stateBytes = try pair.stateBytesForResetPeer()
    let rowBytes = pair.storedRowBytes()
    let resync = try pair.resync(w, changedKeys: 100, conflicting: false)
    var conflictPair = MergePair()
    _ = try conflictPair.run(w, tracking: true)
    let resyncConflict = try conflictPair.resync(w, changedKeys: 100, conflicting: true)
    let dictionaryNs = (0..<runs).map { _ in w.timeDictionary() }.min()!
    let sqliteNs = try (0..<runs).map { _ in try w.timeRawSQLite() }.min()!
    func rate(_ ns: UInt64) -> PlistValue { .int(Int64((Double(w.sets) * 1e9 / Double(max(ns, 1))).rounded())) }
    return [
        "sets": .int(Int64(w.sets)), "keys": .int(Int64(w.keys)), "runs": .int(Int64(runs)),
        "lww_sets_per_s": rate(best), "lww_sets_per_s_untracked": rate(bestUntracked),
        "state_bytes": .int(Int64(stateBytes)), "state_row_bytes": .int(Int64(rowBytes)),
        "resync_bytes": .int(Int64(resync)), "resync_conflict_bytes": .int(Int64(resyncConflict)),
        "dictionary_sets_per_s": rate(dictionaryNs), "raw_sqlite_sets_per_s": rate(sqliteNs),
        "goal_lww_sets_per_s": .int(5_000_000), "goal_state_bytes": .int(16_384), "goal_resync_bytes": .int(1_024),
    ]
}

/// The generated workload: keys, the key index and value of every set.
struct MergeWorkload {
    let sets: Int
    let keys: Int
    let recordKeys: [RecordKey]
    let keyNames: [String]
    let keyIndex: [Int32]
    var seed: UInt64
    static let collection = "bench"
    static let field = "v"
    static let startMs: Int64 = 1_750_000_000_000

    init(sets: Int, keys: Int, seed: UInt64) {
        self.sets = sets
        self.keys = keys
        self.seed = seed
        keyNames = (0..<keys).map { "k\($0)" }
        recordKeys = keyNames.map { RecordKey(Self.collection, $0) }
        var rng = MergeBenchSplitMix64(seed: seed)
        keyIndex = (0..<sets).map { _ in Int32(truncatingIfNeeded: rng.next() % UInt64(keys)) }
    }

    /// The value of set `i`.
    @inline(__always) func value(_ i: Int) -> Int64 { Int64(i % 100) }
}

/// Two replicas with their sync bookkeeping, as the bench drives them.
struct MergePair {
    var a = ReplicaState(replica: 1, schema: .fitnessAndCountdown)
    var b = ReplicaState(replica: 2, schema: .fitnessAndCountdown)
    var syncA = ReplicaSync(replica: 1, peer: 2, persistent: ReplicaSync.Persistent(incarnation: 0xA11CE))
    var syncB = ReplicaSync(replica: 2, peer: 1, persistent: ReplicaSync.Persistent(incarnation: 0xB0B))
    var nowMs = MergeWorkload.startMs

    /// Runs the sets and the merge; returns the elapsed nanoseconds.
    mutating func run(_ w: MergeWorkload, tracking: Bool) throws -> UInt64 {
        a.tracksChanges = tracking
        b.tracksChanges = tracking
        let t0 = monotonicNs()
        var i = 0
        while i < w.sets {
            a.set(w.recordKeys[Int(w.keyIndex[i])], field: MergeWorkload.field, to: .int(w.value(i)), wallMs: nowMs)
            nowMs += 1
            b.set(w.recordKeys[Int(w.keyIndex[i + 1])], field: MergeWorkload.field, to: .int(w.value(i + 1)), wallMs: nowMs)
            nowMs += 1
            i += 2
        }
        _ = try exchange(crossing: false)
        let elapsed = monotonicNs() - t0
        try check("after the merge")
        return elapsed
    }

    /// Sends deltas until neither side has one; returns the encoded bytes sent.
    mutating func exchange(crossing: Bool) throws -> Int {
        var bytes = 0
        for _ in 0..<16 {
            let (n, sent) = try exchangeOnce(crossing: crossing)
            bytes += n
            if !sent { return bytes }
        }
        throw MergeBenchFailure("sync did not go quiet")
    }

    /// One delta each way (when due). With `crossing`, both sides make their delta before
    /// either receives (a reconnect). Returns the bytes and whether anything was sent.
    mutating func exchangeOnce(crossing: Bool) throws -> (bytes: Int, sent: Bool) {
        var bytes = 0
        let fromA = syncA.makeDelta(from: a)
        var fromB = crossing ? syncB.makeDelta(from: b) : nil
        if let parts = fromA { bytes += try deliver(parts, to: &b, sync: &syncB, confirm: &syncA) }
        if !crossing { fromB = syncB.makeDelta(from: b) }
        if let parts = fromB { bytes += try deliver(parts, to: &a, sync: &syncA, confirm: &syncB) }
        return (bytes, fromA != nil || fromB != nil)
    }

    private func deliver(_ parts: [ReplicaDelta], to state: inout ReplicaState, sync: inout ReplicaSync, confirm: inout ReplicaSync) throws -> Int {
        var bytes = 0
        for p in parts {
            let encoded = ReplicaDeltaCodec.encode(p)
            bytes += encoded.count
            _ = sync.receive(try ReplicaDeltaCodec.decode(encoded), into: &state, wallMs: nowMs)
            confirm.onPartConfirmed()
        }
        return bytes
    }

    func check(_ when: String) throws {
        guard a.digest() == b.digest() else { throw MergeBenchFailure("digests differ \(when)") }
    }

    /// The bytes A would send to B after B announced a store reset.
    func stateBytesForResetPeer() throws -> Int {
        var sync = syncA
        var fakeB = ReplicaState(replica: 2, schema: .fitnessAndCountdown)
        var announce = ReplicaDelta(origin: 2, incarnation: 0xB0B2, baseSeq: 0, upToSeq: 0, ackIncarnation: 0, ackSeq: 0, records: [])
        announce.storeWasReset = true
        let r = sync.receive(announce, into: &fakeB, wallMs: nowMs)
        guard r.peerWasReset, let parts = sync.makeDelta(from: a) else { throw MergeBenchFailure("no full-state delta after a reset") }
        var restored = ReplicaState(replica: 2, schema: .fitnessAndCountdown)
        for p in parts { restored.apply(try ReplicaDeltaCodec.decode(ReplicaDeltaCodec.encode(p)), wallMs: nowMs) }
        guard restored.digest() == a.digest() else { throw MergeBenchFailure("the full-state delta does not restore the state") }
        return parts.reduce(0) { $0 + ReplicaDeltaCodec.encode($1).count }
    }

    /// Key and value bytes of A's store rows.
    func storedRowBytes() -> Int {
        a.records.reduce(0) { $0 + ReplicaPersistence.encodeKey($1.key).count + ReplicaPersistence.encodeEntry($1.value).count }
    }

    /// Changes `changedKeys` keys during a partition, then reconnects: returns the bytes of
    /// one delta each way.
    mutating func resync(_ w: MergeWorkload, changedKeys: Int, conflicting: Bool) throws -> Int {
        a.tracksChanges = true
        b.tracksChanges = true
        var rng = MergeBenchSplitMix64(seed: w.seed ^ 0x5EED)
        var order = Array(0..<w.keys)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        for j in 0..<changedKeys {
            let key = w.recordKeys[order[j]]
            if conflicting || j % 2 == 0 { a.set(key, field: MergeWorkload.field, to: .int(Int64(j % 100)), wallMs: nowMs); nowMs += 1 }
            if conflicting || j % 2 == 1 { b.set(key, field: MergeWorkload.field, to: .int(Int64((j + 7) % 100)), wallMs: nowMs); nowMs += 1 }
        }
        let bytes = try exchangeOnce(crossing: true).bytes
        try check("after the resync")
        guard syncA.makeDelta(from: a) == nil, syncB.makeDelta(from: b) == nil else {
            throw MergeBenchFailure("more than one exchange each way was needed")
        }
        return bytes
    }
}

/// A benchmark whose own check failed (the figures would be meaningless).
struct MergeBenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// SplitMix64: the bench's seeded generator.
struct MergeBenchSplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
