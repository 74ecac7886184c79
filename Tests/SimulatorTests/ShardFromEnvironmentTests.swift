import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch

/// `--shard auto`: the shard from the variables each engine sets, and a clear line when
/// they are missing, wrong or contradict each other.
@Suite("Sweep shards from the engine's environment")
struct ShardFromEnvironmentTests {
    static func shard(_ spec: String, _ env: [String: String]) -> String {
        do {
            let f = try ShardFromEnvironment.resolve(spec, environment: env)
            return "\(f.shard) from \(f.source)"
        } catch { return "error: \(error)" }
    }

    @Test func eachEngineGivesItsShard() {
        // Kubernetes Indexed Job: 0-based.
        #expect(Self.shard("auto/4", ["JOB_COMPLETION_INDEX": "0"]) == "1/4 from JOB_COMPLETION_INDEX=0 (Kubernetes Indexed Job)")
        #expect(Self.shard("auto", ["JOB_COMPLETION_INDEX": "3", "PEERLINK_SHARD_COUNT": "4"]) == "4/4 from JOB_COMPLETION_INDEX=3 (Kubernetes Indexed Job)")
        // GNU parallel's {#}: 1-based.
        #expect(Self.shard("auto/4", ["PARALLEL_SEQ": "2", "PARALLEL_JOBSLOT": "1"]) == "2/4 from PARALLEL_SEQ=2 (GNU parallel job number)")
        // Any engine (the GitHub Actions workflow, from its matrix): 1-based, and it wins.
        #expect(Self.shard("auto", ["PEERLINK_SHARD_INDEX": "5", "PEERLINK_SHARD_COUNT": "5", "GITHUB_ACTIONS": "true"])
            == "5/5 from PEERLINK_SHARD_INDEX=5 (set by the engine's job)")
        #expect(Self.shard("auto/3", ["PEERLINK_SHARD_INDEX": "1", "JOB_COMPLETION_INDEX": "2"]) == "1/3 from PEERLINK_SHARD_INDEX=1 (set by the engine's job)")
    }

    @Test func noEngineIsAClearLine() {
        #expect(Self.shard("auto/4", [:]).hasPrefix("error: --shard auto found no engine's shard index: run it as a Kubernetes Indexed Job (JOB_COMPLETION_INDEX), under GNU parallel (PARALLEL_SEQ), or set PEERLINK_SHARD_INDEX; or give --shard i/n"))
        #expect(Self.shard("auto/4", ["GITHUB_ACTIONS": "true"])
            == "error: --shard auto found no engine's shard index: in GitHub Actions, set PEERLINK_SHARD_INDEX: ${{ matrix.shard }} and PEERLINK_SHARD_COUNT in the step's env; or give --shard i/n")
    }

    @Test func aMissingOrContradictoryCountOrIndexIsAClearLine() {
        #expect(Self.shard("auto", ["JOB_COMPLETION_INDEX": "1"])
            == "error: --shard auto: JOB_COMPLETION_INDEX=1 gives the shard but not how many there are: use --shard auto/N or set PEERLINK_SHARD_COUNT")
        #expect(Self.shard("auto/4", ["JOB_COMPLETION_INDEX": "1", "PEERLINK_SHARD_COUNT": "5"])
            == "error: --shard auto/4 and PEERLINK_SHARD_COUNT=5 disagree on the number of shards")
        #expect(Self.shard("auto/4", ["JOB_COMPLETION_INDEX": "4"]) == "error: --shard auto: JOB_COMPLETION_INDEX=4 is shard 5, beyond the 4 shards")
        #expect(Self.shard("auto/4", ["PARALLEL_SEQ": "0"]) == "error: --shard auto: PARALLEL_SEQ=0 is not a shard index (1, 2, 3…)")
        #expect(Self.shard("auto/4", ["JOB_COMPLETION_INDEX": "x"]) == "error: --shard auto: JOB_COMPLETION_INDEX=x is not a shard index (0, 1, 2…)")
        #expect(Self.shard("auto/4", ["JOB_COMPLETION_INDEX": "1", "PARALLEL_SEQ": "2"])
            == "error: --shard auto: both JOB_COMPLETION_INDEX=1 and PARALLEL_SEQ=2 are set: say which shard with PEERLINK_SHARD_INDEX or --shard i/n")
        #expect(Self.shard("auto/0", ["PARALLEL_SEQ": "1"]) == "error: --shard auto/N takes a shard count N of at least 1 (e.g. --shard auto/20)")
        #expect(Self.shard("auto/4", ["PARALLEL_SEQ": "1", "PEERLINK_SHARD_COUNT": "many"]) == "error: PEERLINK_SHARD_COUNT=many is not a shard count of at least 1")
        #expect(ShardFromEnvironment.isAuto("auto") && ShardFromEnvironment.isAuto("auto/3") && !ShardFromEnvironment.isAuto("2/3"))
    }
}
