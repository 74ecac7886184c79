#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkScenarios
import PhoneWatch

/// The engines' files in deploy/ hold the fields each engine needs, and the command lines in
/// them run with this sync-sim as they are written: the sweeps (with `--dry-run` added, and
/// the variables the engine would set), the merges for real on shard reports, the workflow's
/// plan step. A renamed option, a wrong variable or a count that disagrees fails here.
/// (deploy/parallel/sweep-hosts.sh runs for real in `ParallelShardTests`, on a stand-in host.)
@Suite("The engines' files in deploy/")
struct DeployFilesTests {
    static func read(_ path: String) throws -> String {
        try #require(readTextFile(Library.repositoryRoot + "/" + path), "\(path) is missing")
    }

    /// The block under line `i` (a YAML block scalar: `- >-`, `run: |`): the lines indented
    /// deeper than it, without that indentation.
    static func block(after i: Int, in lines: [String]) -> [String] {
        let indent = lines[i].prefix { $0 == " " }.count
        let body = lines[(i + 1)...].prefix { $0.trimmingCharacters().isEmpty || $0.prefix { $0 == " " }.count > indent }
        let inner = body.filter { !$0.trimmingCharacters().isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return body.map { String($0.dropFirst(min(inner, $0.count))) }
    }

    /// The folded (`- >-`) command of a manifest's container, as one line.
    static func foldedCommand(_ text: String) throws -> String {
        let lines = text.components(separatedBy: "\n")
        let i = try #require(lines.firstIndex { $0.trimmingCharacters() == "- >-" }, "no folded args block")
        return block(after: i, in: lines).joined(separator: " ").trimmingCharacters()
    }

    /// The `- name: X` / `value: Y` pairs of a manifest's env.
    static func envValues(_ text: String) -> [String: String] {
        let lines = text.components(separatedBy: "\n").map { $0.trimmingCharacters() }
        var out: [String: String] = [:]
        for (a, b) in zip(lines, lines.dropFirst()) where a.hasPrefix("- name: ") && b.hasPrefix("value: ") {
            out[String(a.dropFirst(8))] = String(b.dropFirst(7)).replacingOccurrences(of: "\"", with: "")
        }
        return out
    }

    /// Two shard reports (seeds 1…2 of the fixture) in `dir` as `prefix1.json`, `prefix2.json`.
    static func shardReports(in dir: String, prefix: String) throws {
        let fixture = try FleetCommandLineTests.workDirectory()
        defer { removeTree(fixture) }
        for i in 1...2 {
            let r = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--seeds", "2", "--shard", "\(i)/2", "--json", "\(dir)/\(prefix)\(i).json"], in: fixture)
            #expect(r.status == 0, "\(r.stderr)")
        }
    }

    @Test func theKubernetesIndexedJobRunsEachShardWithShardAuto() throws {
        let text = try Self.read("deploy/k8s/sweep-job.yaml")
        for field in ["completionMode: Indexed", "backoffLimitPerIndex: ", "parallelism: ", "restartPolicy: Never", "action: FailIndex",
                      "claimName: peerlink-sweep-reports", "kind: PersistentVolumeClaim"] {
            #expect(text.contains(field), "\(field)")
        }
        let completionsLine = try #require(text.components(separatedBy: "\n").first { $0.hasPrefix("  completions: ") })
        let completions = try #require(Int(completionsLine.dropFirst(15)))
        let values = Self.envValues(text)
        var env: [String: String?] = ToolRun.noEngine
        for (k, v) in values { env[k] = v }
        #expect(values["PEERLINK_SHARD_COUNT"] == "\(completions)", "PEERLINK_SHARD_COUNT must equal completions")
        let seeds = try #require(Int(values["SEEDS"] ?? ""))
        let command = try Self.foldedCommand(text)
        #expect(command.contains("sync-sim sweep") && command.contains("--shard auto") && command.contains("shard-$JOB_COMPLETION_INDEX.json"))
        let dir = try makeTemporaryDirectory(prefix: "peerlink-k8s")
        defer { removeTree(dir) }
        let dry = command.replacingOccurrences(of: "/reports", with: dir + "/reports") + " --dry-run"
        for index in [0, completions - 1] {
            env["JOB_COMPLETION_INDEX"] = "\(index)"
            let r = try ToolRun.shell(dry, in: Library.repositoryRoot, environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            let shardSeeds = SeedSweep.seeds(from: 1, count: seeds, shard: (index + 1, completions)).count
            #expect(r.stdout.first?.contains("(shard \(index + 1)/\(completions) from JOB_COMPLETION_INDEX=\(index) (Kubernetes Indexed Job): \(shardSeeds) seeds)") == true,
                    "\(r.stdout)")
        }
        env["JOB_COMPLETION_INDEX"] = "\(completions)"
        #expect(try ToolRun.shell(dry, in: Library.repositoryRoot, environment: env).status == 2, "an index past completions is refused")
    }

    /// Runs two shards (seeds 1…2 of the fixture) through `sweepJob`'s command, then
    /// `mergeJob`'s, each with its own env values (the sweep's scenario and counts replaced by
    /// the fixture's), the volume at `dir/reports`. Reports of earlier runs lie beside: a shard
    /// of seeds 1…2 in the night's directory (where every run wrote before runs had their own)
    /// and in another run's. The merge must take this run's two shards, and them only.
    static func sweepThenMerge(sweepJob: String, mergeJob: String, in dir: String) throws -> ToolRun {
        let fixture = try FleetCommandLineTests.workDirectory()
        defer { removeTree(fixture) }
        let values = envValues(sweepJob)
        var env: [String: String?] = ToolRun.noEngine
        for (k, v) in values { env[k] = v }
        for (k, v) in ["SCENARIO": "tiny.scenario", "FROM": "1", "SEEDS": "2", "PEERLINK_SHARD_COUNT": "2"] { env[k] = v }
        let sweep = try foldedCommand(sweepJob).replacingOccurrences(of: "/reports", with: dir + "/reports")
        let night = try #require(values["NIGHT"])
        for (i, stale) in ["\(dir)/reports/\(night)", "\(dir)/reports/\(night)/run-000001"].enumerated() {
            try makeDirectories(stale)
            let r = try ToolRun.run("sync-sim", ["sweep", "tiny.scenario", "--seeds", "2", "--shard", "\(i + 1)/2", "--json", "\(stale)/shard-7.json"], in: fixture)
            #expect(r.status == 0, "\(r.stderr)")
        }
        for index in 0...1 {
            env["JOB_COMPLETION_INDEX"] = "\(index)"
            let r = try ToolRun.shell(sweep, in: fixture, environment: env)
            #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        }
        let merge = try foldedCommand(mergeJob).replacingOccurrences(of: "/reports", with: dir + "/reports")
        return try ToolRun.shell(merge, in: dir, environment: envValues(mergeJob))
    }

    @Test func theKubernetesMergeJobMergesTheShardsOfItsRunOnly() throws {
        let sweepJob = try Self.read("deploy/k8s/sweep-job.yaml"), mergeJob = try Self.read("deploy/k8s/merge-job.yaml")
        #expect(try Self.foldedCommand(mergeJob).contains("sync-sim merge shard-*.json"))
        let dir = try makeTemporaryDirectory(prefix: "peerlink-k8s")
        defer { removeTree(dir) }
        let (sweepValues, mergeValues) = (Self.envValues(sweepJob), Self.envValues(mergeJob))
        #expect(sweepValues["NIGHT"] == mergeValues["NIGHT"] && sweepValues["RUN"] == mergeValues["RUN"] && mergeValues["RUN"] != nil)
        let r = try Self.sweepThenMerge(sweepJob: sweepJob, mergeJob: mergeJob, in: dir)
        #expect(r.status == 0 && r.stdout.last == "2 passed, 0 failed", "\(r.stdout)\n\(r.stderr)")
        let run = "\(dir)/reports/\(mergeValues["NIGHT"] ?? "")/\(mergeValues["RUN"] ?? "")"
        for file in ["merged.json", "merged.xml", "merged.html"] { #expect(access("\(run)/\(file)", R_OK) == 0, "\(file)") }
    }

    @Test func theGitHubWorkflowPlansSweepsAMatrixAndMergesItsArtifacts() throws {
        let text = try Self.read("deploy/github/sweep.yml")
        for field in ["shard: ${{ fromJSON(needs.plan.outputs.shards) }}", "PEERLINK_SHARD_INDEX: ${{ matrix.shard }}",
                      "PEERLINK_SHARD_COUNT: ${{ needs.plan.outputs.count }}", "PEERLINK_COMMIT: ${{ github.sha }}", "actions/upload-artifact@",
                      "actions/download-artifact@", "merge-multiple: true", "fail-fast: false", "--static-swift-stdlib"] {
            #expect(text.contains(field), "\(field)")
        }
        let lines = text.components(separatedBy: "\n")
        // The token reads the checkout and nothing more (artifacts of the run need no scope).
        let permissionsLine = lines.firstIndex(of: "permissions:")
        let permissions = try #require(permissionsLine, "no top-level permissions: the token would get the repository's default")
        #expect(Self.block(after: permissions, in: lines).filter { !$0.isEmpty } == ["contents: read"])
        // The merge runs after failed shards (their reports are there), not without a plan
        // (its matrix would be fromJSON of nothing) or a build, nor when the run was cancelled.
        let mergeLine = lines.firstIndex(of: "  merge:")
        let mergeJob = try #require(mergeLine, "no merge job")
        let condition = try #require(Self.block(after: mergeJob, in: lines).first { $0.hasPrefix("if: ") })
        #expect(condition == "if: ${{ !cancelled() && needs.plan.result == 'success' && needs.build.result == 'success' }}")
        let runs = lines.indices.filter { lines[$0].trimmingCharacters() == "run: |" }.map { Self.block(after: $0, in: lines) }
        let plan = try #require(runs.first { $0.joined().contains("GITHUB_OUTPUT") })
        let sweep = try #require(runs.first { $0.joined().contains("sync-sim sweep") })
        let merge = try #require(runs.first { $0.joined().contains("sync-sim merge") })
        #expect(runs.allSatisfy { !$0.joined().contains("${{") }, "expressions go through env, not into run blocks")
        let dir = try makeTemporaryDirectory(prefix: "peerlink-gha")
        defer { removeTree(dir) }
        // The plan step, over this checkout's scenarios.
        let p = try ToolRun.shell(plan.joined(separator: "\n"), in: Library.repositoryRoot,
                                  environment: ["GITHUB_OUTPUT": dir + "/outputs", "SEEDS": "20000", "SHARDS": "5"])
        #expect(p.status == 0, "\(p.stderr)")
        var outputs: [String: String] = [:]
        for line in (readTextFile(dir + "/outputs") ?? "").split(separator: "\n") {
            if let eq = line.firstIndex(of: "=") { outputs[String(line[..<eq])] = String(line[line.index(after: eq)...]) }
        }
        #expect(outputs["shards"] == "[1,2,3,4,5]" && outputs["count"] == "5" && outputs["seeds"] == "20000")
        let scenarios = try PlistValue.parseJSON(try #require(outputs["scenarios"])).arrayValue?.compactMap(\.stringValue) ?? []
        #expect(scenarios.count == Library.names.count && Set(scenarios) == Set(Library.names))
        let from = try #require(UInt64(outputs["from"] ?? ""))
        #expect(from % 20000 == 1 && from > 20000 * 20_000)
        // A matrix job's sweep (dry run), then the merge of two shards' artifacts.
        try makeDirectories(dir + "/bin")
        try makeDirectories(dir + "/shards")
        #expect(symlink(executableDirectory() + "/sync-sim", dir + "/bin/sync-sim") == 0)
        #expect(symlink(Library.repositoryRoot + "/scenarios", dir + "/scenarios") == 0)
        var env = ToolRun.noEngine
        for (k, v) in ["PEERLINK_SHARD_INDEX": "2", "PEERLINK_SHARD_COUNT": "5", "SCENARIO": "scenarios/morning-run.scenario", "FROM": "\(from)",
                       "SEEDS": "20000", "SHARD": "2", "PEERLINK_COMMIT": "abc123"] { env[k] = v }
        let dry = sweep.map { $0.contains("sync-sim sweep") ? $0 + " --dry-run" : $0 }.joined(separator: "\n")
        let s = try ToolRun.shell(dry, in: dir, environment: env)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(s.stdout.first?.contains("(shard 2/5 from PEERLINK_SHARD_INDEX=2 (set by the engine's job): 4000 seeds)") == true, "\(s.stdout)")
        try Self.shardReports(in: dir + "/shards", prefix: "shard-")
        let m = try ToolRun.shell(merge.joined(separator: "\n"), in: dir)
        #expect(m.status == 0 && m.stdout.last == "2 passed, 0 failed", "\(m.stdout)\n\(m.stderr)")
        for file in ["sweep.json", "sweep.xml", "sweep.html"] { #expect(access("\(dir)/merged/\(file)", R_OK) == 0, "\(file)") }
    }

    @Test func theParallelScriptShipsTheExecutableAndBringsTheReportsBack() throws {
        let text = try Self.read("deploy/parallel/sweep-hosts.sh")
        for field in ["--sshlogin", "--return 'shard-{#}.json'", "--env PEERLINK_COMMIT", "--shard \"auto/$shards\"", "merge shard-*.json"] {
            #expect(text.contains(field), "\(field)")
        }
        // The executable and the scenario go once to each host and stay until its last job:
        // a --transferfile is removed by --cleanup when its job ends, under the host's others.
        let lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("parallel ") }, "no parallel command")
        let end = lines[start...].firstIndex { !$0.hasSuffix("\\") } ?? lines.count - 1
        let parallel = lines[start...end].joined(separator: " ")
        #expect(parallel.contains("--basefile sync-sim --basefile \"$scenario\"") && parallel.contains("--cleanup"), "\(parallel)")
        #expect(!parallel.contains("--transferfile"), "\(parallel)")
        #expect(access(Library.repositoryRoot + "/deploy/parallel/sweep-hosts.sh", X_OK) == 0)
        let usage = try ToolRun.exec("/bin/bash", [Library.repositoryRoot + "/deploy/parallel/sweep-hosts.sh"], in: nil, environment: [:], timeoutMs: 10_000)
        #expect(usage.status == 2 && usage.stderr.contains("sweep-hosts.sh SCENARIO FROM SEEDS SHARDS OUT [SSHLOGIN…]"))
    }
}
