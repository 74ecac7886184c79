#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import PeerLinkPOSIX

/// deploy/k8s/nightly.sh, run as documented from the checkout's root, against a stand-in for
/// kubectl that keeps the manifests applied and answers the script's questions: its usage, the
/// manifests it renders (one run's own directory in both, the night's values), its waits and
/// their deadlines.
@Suite("deploy/k8s/nightly.sh")
struct NightlyScriptTests {
    /// `kubectl`: each call logged to `$KUBE/calls`; `apply -f -` keeps its input as
    /// `$KUBE/applied-N.yaml`; a Job has ended when `$KUBE/ended-NAME` exists; the merge's log
    /// and its pod's exit status are `$KUBE/log` and `$KUBE/status`.
    static let fakeKubectl = """
        #!/bin/sh
        echo "$*" >> "$KUBE/calls"
        case "$1" in
          apply) n=$(ls "$KUBE" | grep -c '^applied-'); cat > "$KUBE/applied-$n.yaml" ;;
          logs) cat "$KUBE/log" ;;
          get)
            case "$*" in
              *conditions*) [ -e "$KUBE/ended-$3" ] && echo Complete ;;
              *exitCode*) cat "$KUBE/status" ;;
              *failedIndexes*) echo "failed shards (index): " ;;
            esac ;;
        esac
        exit 0

        """

    /// A directory with the stand-in `kubectl` in `bin/`, and the environment that finds it first.
    static func kube() throws -> (dir: String, env: [String: String?]) {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-kube")
        try makeDirectories(dir + "/bin")
        try writeTextFile(dir + "/bin/kubectl", fakeKubectl)
        #expect(chmod(dir + "/bin/kubectl", 0o755) == 0)
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return (dir, ["PATH": dir + "/bin:" + path, "KUBE": dir, "SWEEP_TIMEOUT": nil, "MERGE_TIMEOUT": nil])
    }

    static func nightly(_ args: [String], _ env: [String: String?]) throws -> ToolRun {
        try ToolRun.exec("/bin/bash", ["deploy/k8s/nightly.sh"] + args, in: Library.repositoryRoot, environment: env, timeoutMs: 30_000)
    }

    @Test func tooFewArgumentsFromTheCheckoutsRootPrintTheUsage() throws {
        let (dir, env) = try Self.kube()
        defer { removeTree(dir) }
        let r = try Self.nightly(["registry.example.com/peerlink-sweep:abc", "scenarios/morning-run.scenario"], env)
        #expect(r.status == 2 && r.stdout.isEmpty)
        #expect(r.stderr.contains("#   deploy/k8s/nightly.sh IMAGE SCENARIO SEEDS SHARDS [PARALLELISM]") && !r.stderr.contains("sed:"), "\(r.stderr)")
        #expect(readTextFile(dir + "/calls") == nil, "kubectl was not called")
    }

    @Test func aRunAppliesBothJobsWithOneDirectoryOfItsOwnAndExitsAsTheMerge() throws {
        let (dir, env) = try Self.kube()
        defer { removeTree(dir) }
        for name in ["ended-peerlink-sweep", "ended-peerlink-sweep-merge"] { try writeTextFile(dir + "/" + name, "") }
        try writeTextFile(dir + "/log", "1999 passed, 1 failed\n")
        try writeTextFile(dir + "/status", "1")
        let r = try Self.nightly(["registry.example.com/peerlink-sweep:abc", "scenarios/morning-run.scenario", "2000", "4", "3"], env)
        #expect(r.status == 1 && r.stdout.last == "1999 passed, 1 failed", "\(r.stdout) \(r.stderr)")
        let sweepJob = try #require(readTextFile(dir + "/applied-0.yaml")), mergeJob = try #require(readTextFile(dir + "/applied-1.yaml"))
        let sweep = DeployFilesTests.envValues(sweepJob), merge = DeployFilesTests.envValues(mergeJob)
        let night = try #require(sweep["NIGHT"]), run = try #require(sweep["RUN"])
        #expect(night.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil && run.wholeMatch(of: /run-\d{6}/) != nil, "\(night) \(run)")
        #expect(merge["NIGHT"] == night && merge["RUN"] == run)
        #expect(r.stdout.first == "reports: /reports/\(night)/\(run) on the volume peerlink-sweep-reports")
        #expect(sweep["SEEDS"] == "2000" && sweep["PEERLINK_SHARD_COUNT"] == "4" && sweep["SCENARIO"] == "scenarios/morning-run.scenario")
        #expect(UInt64(sweep["FROM"] ?? "").map { $0 % 2000 == 1 } == true)
        for field in ["  completions: 4", "  parallelism: 3", "image: registry.example.com/peerlink-sweep:abc"] {
            #expect(sweepJob.contains(field), "\(field)")
        }
        #expect(mergeJob.contains("image: registry.example.com/peerlink-sweep:abc"))
        // The rendered Jobs, run: the merge finds this run's shards, and them only.
        let volume = try makeTemporaryDirectory(prefix: "peerlink-k8s")
        defer { removeTree(volume) }
        let m = try DeployFilesTests.sweepThenMerge(sweepJob: sweepJob, mergeJob: mergeJob, in: volume)
        #expect(m.status == 0 && m.stdout.last == "2 passed, 0 failed", "\(m.stdout)\n\(m.stderr)")
    }

    @Test func aJobThatDoesNotEndInTimeStopsTheWaitWithALine() throws {
        let (dir, base) = try Self.kube()
        defer { removeTree(dir) }
        let args = ["registry.example.com/peerlink-sweep:abc", "scenarios/morning-run.scenario", "2000", "4"]
        var env = base
        env["SWEEP_TIMEOUT"] = "0"
        let sweep = try Self.nightly(args, env)
        #expect(sweep.status == 3, "\(sweep.stdout) \(sweep.stderr)")
        #expect(sweep.stderrLines == ["nightly.sh: job peerlink-sweep has not ended after 0 s (raise SWEEP_TIMEOUT to wait longer); it is left as it is: kubectl get job peerlink-sweep"])
        #expect(access(dir + "/applied-1.yaml", F_OK) != 0, "no merge without the sweep's end")
        try writeTextFile(dir + "/ended-peerlink-sweep", "")
        env["SWEEP_TIMEOUT"] = nil
        env["MERGE_TIMEOUT"] = "0"
        let merge = try Self.nightly(args, env)
        #expect(merge.status == 3 && merge.stderr.hasPrefix("nightly.sh: job peerlink-sweep-merge has not ended after 0 s (raise MERGE_TIMEOUT"), "\(merge.stderr)")
        env["MERGE_TIMEOUT"] = "2h"
        let bad = try Self.nightly(args, env)
        #expect(bad.status == 2 && bad.stderrLines == ["nightly.sh: SWEEP_TIMEOUT and MERGE_TIMEOUT are whole seconds"], "\(bad.stderr)")
    }
}
