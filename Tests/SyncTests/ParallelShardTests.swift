#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLink
import Shared
import Simulator

/// The shard → merge path end to end: deploy/parallel/sweep-hosts.sh runs four shards through
/// GNU parallel (on this machine, sshlogin `:`), each `--shard auto/4` from parallel's job
/// number, ships the executable and the scenario as it would to hosts, brings the reports
/// back and merges them; the merged report must be the unsharded sweep of the same range,
/// seed for seed.
@Suite("Sharded sweeps through GNU parallel")
struct ParallelShardTests {
    static let seeds = 20

    @Test func fourShardsThroughGNUParallelMergeToTheUnshardedSweep() throws {
        guard findExecutable("parallel") != nil else {
            Issue.record("GNU parallel is not installed: .ci/run installs it (apt-get install parallel)")
            return
        }
        let dir = try FleetCommandLineTests.workDirectory()
        defer { removeTree(dir) }
        let script = Library.repositoryRoot + "/deploy/parallel/sweep-hosts.sh"
        var env = ToolRun.noEngine
        env["SYNC_SIM"] = executableDirectory() + "/sync-sim"
        env["PEERLINK_COMMIT"] = nil
        let run = try ToolRun.exec("/bin/bash", [script, "tiny.scenario", "1", "\(Self.seeds)", "4", "out", ":"], in: dir, environment: env,
                                   timeoutMs: 120_000)
        // The one sweep of the same range, in the directory the shards ran in (the same path
        // to the scenario, so the same replay commands).
        let whole = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--seeds", "\(Self.seeds)", "--json", "../whole.json"], in: dir + "/out/stage",
                                    environment: env)
        #expect(run.status == whole.status, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.last == whole.stdout.last && whole.stdout.last == "17 passed, 3 failed", "\(run.stdout.suffix(3)) vs \(whole.stdout.suffix(3))")
        let jobs = readTextFile(dir + "/out/jobs.log")?.split(separator: "\n").dropFirst() ?? []
        #expect(jobs.count == 4, "parallel's job log: \(jobs)")
        let shardLines = readTextFile(dir + "/out/shards.log") ?? ""
        for i in 1...4 {
            #expect(shardLines.contains("(shard \(i)/4 from PARALLEL_SEQ=\(i) (GNU parallel job number): 5 seeds)"), "shard \(i): \(shardLines)")
        }
        let merged = try SweepReport.parse(try #require(readTextFile(dir + "/out/merged.json"), "no merged report: \(run.stderr)"))
        let expected = try SweepReport.parse(try #require(readTextFile(dir + "/out/whole.json")))
        #expect(merged.outcomes.map(\.seed) == Array(1...UInt64(Self.seeds)))
        for (m, e) in zip(merged.outcomes, expected.outcomes) where m != e {
            Issue.record("seed \(m.seed): merged \(m) but the unsharded sweep has \(e)")
        }
        #expect(merged == expected)
        #expect(merged.jsonText(includingTiming: false) == expected.jsonText(includingTiming: false))
        #expect(merged.outcomes.filter { !$0.passed }.allSatisfy { $0.failure?.contains("replay: sync-sim sweep tiny.scenario --seed") == true })
        #expect(merged.timing["shards"]?.arrayValue?.count == 4)
        #expect(readTextFile(dir + "/out/merged.xml")?.contains("tests=\"\(Self.seeds)\" failures=\"3\"") == true)
    }

    func findExecutable(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
