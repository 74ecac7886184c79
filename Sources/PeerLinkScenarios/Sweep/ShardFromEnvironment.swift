import PeerLinkCore
import PeerLinkPOSIX

/// `--shard auto` and `--shard auto/N`: the shard from the environment the engine that started
/// this process set (docs/FLEET.md):
/// - `PEERLINK_SHARD_INDEX` (1 ≤ i ≤ n), set by whatever starts the shards — the GitHub Actions
///   workflow sets it from its matrix (`${{ matrix.shard }}`); it wins over the others;
/// - `JOB_COMPLETION_INDEX` (0-based), which Kubernetes sets in each pod of an Indexed Job;
/// - `PARALLEL_SEQ` (1-based), GNU parallel's job number `{#}`, set on remote hosts too (not
///   the job slot `{%}`, which later jobs reuse).
/// The number of shards is `N` of `auto/N`, or `PEERLINK_SHARD_COUNT` (both given must agree):
/// none of these engines tells a job how many there are.
public enum ShardFromEnvironment {
    public static let indexVariable = "PEERLINK_SHARD_INDEX"
    public static let countVariable = "PEERLINK_SHARD_COUNT"

    /// The shard, and where it came from (`JOB_COMPLETION_INDEX=3 (Kubernetes Indexed Job)`).
    public struct Found: Sendable, Equatable {
        public var shard: SweepShard
        public var source: String
    }

    /// Whether `--shard` was given `auto` or `auto/N` (rather than `i/n`).
    public static func isAuto(_ spec: String) -> Bool { spec == "auto" || spec.hasPrefix("auto/") }

    static let engines: [(variable: String, base: Int, engine: String)] = [
        ("JOB_COMPLETION_INDEX", 0, "Kubernetes Indexed Job"),
        ("PARALLEL_SEQ", 1, "GNU parallel job number"),
    ]

    /// The shard `spec` (`auto`, `auto/N`) names in `environment`; a usage error says what is
    /// missing or wrong.
    public static func resolve(_ spec: String, environment: [String: String]) throws(UsageError) -> Found {
        var count: Int?
        if spec != "auto" {
            guard spec.hasPrefix("auto/"), let n = Int(spec.dropFirst(5)), n >= 1 else {
                throw UsageError("--shard auto/N takes a shard count N of at least 1 (e.g. --shard auto/20)")
            }
            count = n
        }
        if let text = environment[countVariable] {
            guard let n = Int(text), n >= 1 else { throw UsageError("\(countVariable)=\(text) is not a shard count of at least 1") }
            if let c = count, c != n { throw UsageError("--shard auto/\(c) and \(countVariable)=\(n) disagree on the number of shards") }
            count = n
        }
        let found: (variable: String, value: String, base: Int, engine: String)
        if let v = environment[indexVariable] {
            found = (indexVariable, v, 1, "set by the engine's job")
        } else {
            let set = engines.compactMap { e in environment[e.variable].map { (e.variable, $0, e.base, e.engine) } }
            if set.count > 1 {
                throw UsageError("--shard auto: both \(set.map { "\($0.0)=\($0.1)" }.joined(separator: " and ")) are set: "
                    + "say which shard with \(indexVariable) or --shard i/n")
            }
            guard let only = set.first else {
                let hint = environment["GITHUB_ACTIONS"] == "true"
                    ? "in GitHub Actions, set \(indexVariable): ${{ matrix.shard }} and \(countVariable) in the step's env"
                    : "run it as a Kubernetes Indexed Job (JOB_COMPLETION_INDEX), under GNU parallel (PARALLEL_SEQ), or set \(indexVariable)"
                throw UsageError("--shard auto found no engine's shard index: \(hint); or give --shard i/n")
            }
            found = only
        }
        guard let raw = Int(found.value), raw >= found.base else {
            throw UsageError("--shard auto: \(found.variable)=\(found.value) is not a shard index (\(found.base == 0 ? "0, 1, 2…" : "1, 2, 3…"))")
        }
        guard let of = count else {
            throw UsageError("--shard auto: \(found.variable)=\(found.value) gives the shard but not how many there are: "
                + "use --shard auto/N or set \(countVariable)")
        }
        let index = raw + 1 - found.base
        guard index <= of else {
            throw UsageError("--shard auto: \(found.variable)=\(found.value) is shard \(index), beyond the \(of) shards")
        }
        return Found(shard: SweepShard(index: index, of: of), source: "\(found.variable)=\(found.value) (\(found.engine))")
    }
}
