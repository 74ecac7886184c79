#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import PeerLinkPOSIX

/// The shard → merge path end to end: deploy/parallel/sweep-hosts.sh runs eight shards through
/// GNU parallel on two hosts, this machine (sshlogin `:`) and `h1`, reached through a stand-in
/// for ssh that runs each command here in h1's own home directory, so parallel's transfers
/// (rsync), returns and cleanup run for real. Each job is `--shard auto/8` from parallel's job
/// number; the merged report must be the unsharded sweep of the same range, seed for seed, and
/// h1 is left empty. Three jobs at a time on h1 share its copy of the scenario: it must be
/// removed once, after the last of them (sent with each job, `--transferfile`, each job's
/// cleanup removed it, at times under another job that had not opened it yet: a shard lost).
@Suite("Sharded sweeps through GNU parallel")
struct ParallelShardTests {
    static let seeds = 20
    static let shards = 8

    /// `ssh [OPTIONS] HOST [--] COMMAND…`, run with /bin/sh in `$FAKE_HOMES/HOST`, its HOME,
    /// with the variables sshd sets from the login (HOME, SHELL, USER, LOGNAME): parallel's
    /// remote worker runs each job with the remote `$SHELL`, and without one it runs nothing and
    /// reports success (how this test failed on a CI machine whose environment has no SHELL).
    /// Each command is logged, a line each, to `$FAKE_HOMES/ssh.log`.
    static let fakeSSH = """
        #!/bin/sh
        while [ $# -gt 0 ]; do
          case "$1" in
            -l|-p|-o|-i|-F|-S) shift 2 ;;
            -*) shift ;;
            *) break ;;
          esac
        done
        host=$1; shift
        [ "${1:-}" = -- ] && shift
        echo "$host: $*" >> "$FAKE_HOMES/ssh.log"
        mkdir -p "$FAKE_HOMES/$host" && cd "$FAKE_HOMES/$host" && HOME="$FAKE_HOMES/$host" SHELL=/bin/sh USER=$host LOGNAME=$host exec /bin/sh -c "$*"

        """

    @Test func eightShardsOnTwoHostsThroughGNUParallelMergeToTheUnshardedSweep() throws {
        for tool in ["parallel", "rsync"] where ToolRun.findExecutable(tool) == nil {
            Issue.record("\(tool) is not installed: .ci/run installs it (apt-get install \(tool))")
            return
        }
        let dir = try FleetCommandLineTests.workDirectory()
        defer { removeTree(dir) }
        try writeTextFile(dir + "/ssh", Self.fakeSSH)
        try makeDirectories(dir + "/hosts")
        #expect(chmod(dir + "/ssh", 0o755) == 0)
        let script = Library.repositoryRoot + "/deploy/parallel/sweep-hosts.sh"
        var env = ToolRun.noEngine
        env["SYNC_SIM"] = executableDirectory() + "/sync-sim"
        // Unset (`= nil` would only drop the key, and the variable would be inherited). As on
        // the CI machine, no SHELL here: the stand-in host must give its own.
        env["PEERLINK_COMMIT"] = .some(nil)
        env["SHELL"] = .some(nil)
        env["PARALLEL_SSH"] = dir + "/ssh"
        env["FAKE_HOMES"] = dir + "/hosts"
        // parallel's rsync options without -z: compressing the executable costs a second, for
        // nothing on this machine.
        env["PARALLEL_RSYNC_OPTS"] = "-rlDR"
        let run = try ToolRun.exec("/bin/bash", [script, "tiny.scenario", "1", "\(Self.seeds)", "\(Self.shards)", "out", "3/h1", "1/:"], in: dir,
                                   environment: env, timeoutMs: 120_000)
        // The one sweep of the same range, in the directory the shards ran in (the same path
        // to the scenario, so the same replay commands).
        let whole = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--seeds", "\(Self.seeds)", "--json", "../whole.json"], in: dir + "/out/stage",
                                    environment: env)
        #expect(run.status == whole.status, "\(run.stdout)\n\(run.stderr)\njobs: \(readTextFile(dir + "/out/jobs.log") ?? "none")")
        #expect(run.stdout.last == whole.stdout.last && whole.stdout.last == "17 passed, 3 failed", "\(run.stdout.suffix(3)) vs \(whole.stdout.suffix(3))")
        let jobs = readTextFile(dir + "/out/jobs.log")?.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) } ?? []
        #expect(jobs.count == Self.shards, "parallel's job log: \(jobs)")
        #expect(Set(jobs.compactMap { $0.count > 1 ? $0[1] : nil }) == ["h1", ":"], "both hosts ran shards: \(jobs)")
        let shardLines = readTextFile(dir + "/out/shards.log") ?? ""
        for i in 1...Self.shards {
            let n = SeedSweep.seeds(from: 1, count: Self.seeds, shard: (i, Self.shards)).count
            #expect(shardLines.contains("(shard \(i)/\(Self.shards) from PARALLEL_SEQ=\(i) (GNU parallel job number): \(n) seeds)"), "shard \(i): \(shardLines)")
        }
        #expect(!shardLines.contains("error"), "\(shardLines)")
        let merged = try SweepReport.parse(try #require(readTextFile(dir + "/out/merged.json"), "no merged report: \(run.stderr)"))
        let expected = try SweepReport.parse(try #require(readTextFile(dir + "/out/whole.json")))
        #expect(merged.outcomes.map(\.seed) == Array(1...UInt64(Self.seeds)))
        for (m, e) in zip(merged.outcomes, expected.outcomes) where m != e {
            Issue.record("seed \(m.seed): merged \(m) but the unsharded sweep has \(e)")
        }
        #expect(merged == expected)
        #expect(merged.jsonText(includingTiming: false) == expected.jsonText(includingTiming: false))
        #expect(merged.outcomes.filter { !$0.passed }.allSatisfy { $0.failure?.contains("replay: sync-sim sweep tiny.scenario --seed") == true })
        #expect(merged.timing["shards"]?.arrayValue?.count == Self.shards)
        #expect(readTextFile(dir + "/out/merged.xml")?.contains("tests=\"\(Self.seeds)\" failures=\"3\"") == true)
        // The scenario went to h1 with the executable (--basefile), and was removed once, after
        // h1's last job.
        let ssh = readTextFile(dir + "/hosts/ssh.log")?.split(separator: "\n").map(String.init) ?? []
        let removals = ssh.indices.filter { ssh[$0].contains("rm -f ./tiny.scenario") }
        let lastJob = ssh.lastIndex { $0.contains("GNU_Parallel_worker") }
        #expect(removals.count == 1 && lastJob != nil && removals[0] > lastJob!,
                "h1's copy of the scenario is removed once, after its last job: \(ssh.map { String($0.prefix(90)) })")
        // --cleanup: h1 keeps nothing, neither the executable and scenario nor the reports.
        let left = try ToolRun.shell("find hosts/h1 -mindepth 1", in: dir)
        #expect(left.status == 0 && left.stdout.isEmpty, "left on h1: \(left.stdout) \(left.stderr)")
    }
}
