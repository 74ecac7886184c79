@testable import PeerLinkCore
@testable import FitnessDomain
@testable import CountdownDomain

/// ReplicaSplitMix64: the seeded generator of the replication tests.
struct ReplicaSplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in 0..<n.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
}

/// One replica with its sync bookkeeping and wall clock, as the tests drive it.
struct ReplicaPeer {
    var state: ReplicaState
    var sync: ReplicaSync
    /// This device's wall clock minus the true time (clock skew).
    var skewMs: Int64 = 0

    init(role: DeviceRole, incarnation: UInt64) {
        state = ReplicaState(replica: role.replicaID, schema: .fitnessAndCountdown)
        sync = ReplicaSync(replica: role.replicaID, peer: role.peer.replicaID, persistent: ReplicaSync.Persistent(incarnation: incarnation))
        sync.storeWasReset(newIncarnation: incarnation, lostData: false)  // a new store announces itself, as NodeEngine does
    }

    /// The store was found corrupt: start empty with a new incarnation.
    mutating func resetStore(incarnation: UInt64) {
        state = ReplicaState(replica: state.replica, schema: .fitnessAndCountdown)
        sync.storeWasReset(newIncarnation: incarnation)
    }
}

/// Bytes moved by `syncUntilQuiet`.
struct ReplicaTraffic: Equatable {
    var deltasAtoB = 0, deltasBtoA = 0
    var bytesAtoB = 0, bytesBtoA = 0
    var rounds = 0
    var total: Int { bytesAtoB + bytesBtoA }
}

/// Exchanges deltas over a perfect channel until neither side has one to send. Each round,
/// both sides make their delta before either receives (as on a reconnect); every part is
/// encoded, decoded, received and confirmed.
@discardableResult
func syncUntilQuiet(_ a: inout ReplicaPeer, _ b: inout ReplicaPeer, nowMs: Int64, maxRounds: Int = 20) -> ReplicaTraffic {
    var t = ReplicaTraffic()
    for _ in 0..<maxRounds {
        let fromA = a.sync.makeDelta(from: a.state)
        let fromB = b.sync.makeDelta(from: b.state)
        if fromA == nil && fromB == nil { return t }
        t.rounds += 1
        for part in fromA ?? [] {
            let bytes = ReplicaDeltaCodec.encode(part)
            t.bytesAtoB += bytes.count
            _ = b.sync.receive(try! ReplicaDeltaCodec.decode(bytes), into: &b.state, wallMs: nowMs + b.skewMs)
            a.sync.onPartConfirmed()
        }
        if fromA != nil { t.deltasAtoB += 1 }
        for part in fromB ?? [] {
            let bytes = ReplicaDeltaCodec.encode(part)
            t.bytesBtoA += bytes.count
            _ = a.sync.receive(try! ReplicaDeltaCodec.decode(bytes), into: &a.state, wallMs: nowMs + a.skewMs)
            b.sync.onPartConfirmed()
        }
        if fromB != nil { t.deltasBtoA += 1 }
    }
    return t
}

/// Record keys the tests write.
enum ReplicaFixture {
    static func goal(_ n: Int) -> RecordKey { RecordKey(CountdownGoal.collection, "g\(n)") }
    static func sample(_ n: Int) -> RecordKey { RecordKey(HealthSample.collection, "s\(n)") }
    static let settings = RecordKey(AppSettings.collection, AppSettings.recordID)
    static let fieldNames = ["title", "priority", "targetDate", "isAgeGoal"]
    static let start: Int64 = 1_750_000_000_000
    static let hourMs: Int64 = 3_600_000
    static let dayMs: Int64 = 86_400_000

    /// A random small value of a random kind.
    static func value(_ rng: inout ReplicaSplitMix64) -> PlistValue {
        switch rng.below(5) {
        case 0: .int(Int64(rng.below(200)) - 50)
        case 1: .string("t\(rng.below(1000))")
        case 2: .bool(rng.below(2) == 0)
        case 3: .double(Double(rng.below(10_000)) / 7)
        default: .array([.int(Int64(rng.below(5))), .string("x")])
        }
    }
}
