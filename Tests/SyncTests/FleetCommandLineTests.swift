#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import PeerLinkPOSIX

/// `sync-sim sweep … --json/--junit/--shard auto/--check-determinism/--dry-run` and
/// `sync-sim merge`, as a fleet's jobs run them: the files they write, the lines they print,
/// and bad usage (exit 2, one line naming the user's thing).
@Suite("Command lines of sharded sweeps")
struct FleetCommandLineTests {
    /// A directory holding the cheap fixture as `tiny.scenario`.
    static func workDirectory() throws -> String {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-fleet")
        let text = try #require(readTextFile(Library.repositoryRoot + "/Tests/Fixtures/sweep-fixture.scenario"))
        try writeTextFile(dir + "/tiny.scenario", text)
        return dir
    }

    @Test func shardsWriteReportsThatMergeIntoOneOutcome() throws {
        let dir = try Self.workDirectory()
        defer { removeTree(dir) }
        for i in 1...2 {
            let r = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--seeds", "5", "--shard", "\(i)/2", "--json", "s\(i).json", "--junit", "s\(i).xml",
                                                 "--html", "s\(i).html"], in: dir, environment: ["PEERLINK_COMMIT": "4e1c0a"])
            #expect(r.status == 0 && r.stdout.last == "\(i == 1 ? 3 : 2) passed, 0 failed", "\(r.stdout)\n\(r.stderr)")
            #expect(readTextFile("\(dir)/s\(i).html")?.contains("<p class=\"provenance\">commit 4e1c0a, version \(PeerLinkVersion.string)</p>") == true)
            #expect(readTextFile("\(dir)/s\(i).xml")?.contains("<testcase classname=\"tiny.scenario\" name=\"seed \(i)\"/>") == true)
        }
        let m = try ToolRun.run("sync-sim", ["merge", "s2.json", "s1.json", "--json", "m.json", "--junit", "m.xml", "--html", "m.html"], in: dir)
        #expect(m.status == 0, "\(m.stdout)\n\(m.stderr)")
        #expect(m.stdout.first?.hasPrefix("merge of 2 shards of tiny sweep fixture (tiny.scenario): seeds 1…5, commit ") == true, "\(m.stdout)")
        #expect(m.stdout.last == "5 passed, 0 failed")
        let merged = try SweepReport.parse(try #require(readTextFile(dir + "/m.json")))
        #expect(merged.outcomes.map(\.seed) == [1, 2, 3, 4, 5] && merged.seeds.shard == nil)
        let page = try #require(readTextFile(dir + "/m.html"))
        #expect(page.contains("5 seeds, 5 passed, 0 failed"))
        // The page says where the outcome came from, as the merge's first line does: a
        // failure it shows replays at that commit.
        #expect(page.contains("<p class=\"provenance\">merge of 2 shards of tiny sweep fixture (tiny.scenario): seeds 1…5, commit \(merged.commit), version \(merged.version)</p>"))
        #expect(page.contains("<p class=\"provenance\">shards: s2.json, s1.json</p>"))
        // With a failing seed in range, the merge prints it and exits 1.
        let f = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--from", "6", "--seeds", "1", "--json", "s3.json"], in: dir,
                                environment: ["PEERLINK_COMMIT": "4e1c0a"])
        #expect(f.status == 1 && f.stdout.contains("FAIL seed 6: expectation: tiny.scenario:8:10: expect always phone settings step-goal == 9000 — actual 8000"))
        let g = try ToolRun.run("sync-sim", ["merge", "s1.json", "s2.json", "s3.json"], in: dir)
        #expect(g.status == 1 && g.stdout.last == "5 passed, 1 failed" && g.stdout.contains("  replay: sync-sim sweep tiny.scenario --seed 6"), "\(g.stdout)")
    }

    @Test func mergeWarnsOnStderrWhenTheCommitCannotTellTheBuild() throws {
        let dir = try Self.workDirectory()
        defer { removeTree(dir) }
        for commit in ["4e1c0a", "unknown", "4e1c0a-dirty"] {
            for i in 1...2 {
                let r = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--seeds", "2", "--shard", "\(i)/2", "--json", "w\(i).json"], in: dir,
                                        environment: ["PEERLINK_COMMIT": commit])
                #expect(r.status == 0, "\(r.stderr)")
            }
            let m = try ToolRun.run("sync-sim", ["merge", "w1.json", "w2.json"], in: dir)
            #expect(m.status == 0 && m.stdout.last == "2 passed, 0 failed", "\(commit): \(m.stdout) \(m.stderr)")
            if commit == "4e1c0a" {
                #expect(m.stderr.isEmpty, "\(m.stderr)")
            } else {
                #expect(m.stderrLines.count == 1 && m.stderr.hasPrefix("sync-sim: warning: commit \(commit): cannot tell the shards came from the same build"),
                        "\(commit): \(m.stderr)")
            }
        }
    }

    @Test func mergeRefusesWhatIsNotOneSweepWithOneLine() throws {
        let dir = try Self.workDirectory()
        defer { removeTree(dir) }
        for (i, commit) in [(1, "aaaa"), (2, "bbbb")] {
            let r = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--seeds", "2", "--shard", "\(i)/2", "--json", "c\(i).json"], in: dir,
                                    environment: ["PEERLINK_COMMIT": commit])
            #expect(r.status == 0, "\(r.stderr)")
        }
        try writeTextFile(dir + "/notjson.json", "{\"format\": ")
        try writeTextFile(dir + "/other.json", "{\"results\": []}")
        for (args, reason) in [
            (["c1.json", "c2.json"], "sync-sim: error: merge: shards of different commits: c1.json: aaaa; c2.json: bbbb"),
            (["c1.json", "missing.json"], "sync-sim: error: no report file missing.json"),
            (["c1.json", dir], "sync-sim: error: cannot read report \(dir)"),
            (["notjson.json"], "sync-sim: error: notjson.json: not JSON: "),
            (["other.json"], "sync-sim: error: other.json: not a sweep report"),
            (["c1.json"], "sync-sim: error: merge: the shards leave a gap: seed 2 is in no shard of seeds 1…2 (shard 2/2 of seeds 1…2 is missing)"),
            (["c1.json", "c1.json"], "sync-sim: error: merge: overlapping shards: c1.json and c1.json both hold seed 1"),
            ([], "sync-sim: error: merge takes the shards' reports"),
            (["c1.json", "--bogus"], "sync-sim: error: unknown option '--bogus' for merge"),
            (["c1.json", "--json", "\(dir)/no/such/dir/m.json"], "sync-sim: error: --json \(dir)/no/such/dir/m.json: cannot write in \(dir)/no/such/dir"),
        ] {
            let r = try ToolRun.run("sync-sim", ["merge"] + args, in: dir)
            #expect(r.status == 2, "\(args): \(r.stdout) \(r.stderr)")
            #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix(reason), "\(args): \(r.stderr)")
        }
    }

    @Test func shardAutoReadsTheEnginesVariablesAndSaysWhere() throws {
        let dir = try Self.workDirectory()
        defer { removeTree(dir) }
        let args = ["sweep", "tiny.scenario", "--seeds", "12", "--shard", "auto/4", "--dry-run"]
        var env = ToolRun.noEngine
        env["JOB_COMPLETION_INDEX"] = "2"
        let k = try ToolRun.run("sync-sim", args, in: dir, environment: env)
        #expect(k.status == 0, "\(k.stderr)")
        #expect(k.stdout == ["sweep tiny sweep fixture (tiny.scenario): seeds 1…12 (shard 3/4 from JOB_COMPLETION_INDEX=2 (Kubernetes Indexed Job): 3 seeds), 2 threads",
                             "dry run: 3 seeds (3, 7, 11) would run; nothing was run", "0 passed, 0 failed"])
        let none = try ToolRun.run("sync-sim", args, in: dir, environment: ToolRun.noEngine)
        #expect(none.status == 2 && none.stderrLines.count == 1)
        #expect(none.stderr.hasPrefix("sync-sim: error: --shard auto found no engine's shard index: run it as a Kubernetes Indexed Job"), "\(none.stderr)")
        let bad = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--shard", "3"], in: dir)
        #expect(bad.status == 2 && bad.stderr == "sync-sim: error: --shard takes i/n with 1 ≤ i ≤ n, or auto[/n] (docs/FLEET.md)\n")
    }

    @Test func theDeterminismCheckRunsEachSeedTwiceAndKeepsBothHashes() throws {
        let dir = try Self.workDirectory()
        defer { removeTree(dir) }
        let r = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--seeds", "3", "--check-determinism", "--json", "d.json"], in: dir)
        #expect(r.status == 0 && r.stdout.contains("determinism check: each seed runs twice, its traces compared"), "\(r.stdout)\n\(r.stderr)")
        let report = try SweepReport.parse(try #require(readTextFile(dir + "/d.json")))
        #expect(report.options.checkDeterminism)
        #expect(report.outcomes.count == 3 && report.outcomes.allSatisfy { $0.traceHashes.count == 2 && $0.traceHashes[0] == $0.traceHashes[1] })
    }

    /// A report that cannot be written once the seeds have run (its directory was writable
    /// when checked): the run's outcome is not kept, so the exit status is 1, whichever report.
    @Test func aReportThatFailsToBeWrittenAfterTheRunExitsOne() throws {
        let dir = try Self.workDirectory()
        defer { removeTree(dir) }
        for flag in ["--html", "--json", "--junit"] {
            // writeTextFile writes PATH.tmp, then renames it: a directory there makes it fail.
            let path = "r\(flag.dropFirst(2)).out"
            try makeDirectories(dir + "/" + path + ".tmp")
            let r = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--seeds", "1", flag, path], in: dir)
            #expect(r.status == 1, "\(flag): \(r.stdout) \(r.stderr)")
            #expect(r.stdout.last == "1 passed, 0 failed", "\(flag): \(r.stdout)")
            #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix("sync-sim: error: ") && r.stderr.contains(path), "\(flag): \(r.stderr)")
        }
    }

    @Test func anUnwritableReportPathIsBadUsageBeforeAnythingRuns() throws {
        let dir = try Self.workDirectory()
        defer { removeTree(dir) }
        let r = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--junit", "nowhere/x.xml"], in: dir)
        #expect(r.status == 2 && r.stdout.isEmpty)
        #expect(r.stderr == "sync-sim: error: --junit nowhere/x.xml: cannot write in nowhere: No such file or directory\n")
        let missing = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--json", "--seeds", "5"], in: dir)
        #expect(missing.status == 2 && missing.stderr == "sync-sim: error: --json takes a PATH to write, not '--seeds'\n")
        let v = try ToolRun.run("sync-sim", ["--version"], environment: ["PEERLINK_COMMIT": "c0ffee"])
        #expect(v.status == 0 && v.stdout == ["sync-sim \(PeerLinkVersion.string) (commit c0ffee)"])
    }
}
