import Testing
import PeerLinkPOSIX
import PeerLinkScenarios
import PhoneWatch

/// The CI sweep: every scenario of the library under random fault schedules (sim mode), every
/// fault class on (store damage included: one damaged store per seed, see
/// `FaultSchedule.random`), checking convergence of everything both sides must agree on,
/// exactly-once delivery of acknowledged user info, durable counters that only go back by store
/// damage (see docs/SCENARIOS.md, *Sweeps*), and
/// - with each scenario's workload (fitness or countdown, `WorkloadKind.default(for:)`), 80
///   seeds: seeded app actions on both devices mixed into the run, their reference model checked
///   against both nodes after the recovery;
/// - without a workload, 20 more seeds: the scenario's `expect always` expectations.
/// A failing seed's message has its faults (and operations), the shrunk ones and the commands
/// that replay it.
///
/// The determinism check (`--check-determinism`) runs on a sample: the first seeds of two
/// scenarios run twice with their traces recorded and compared (6 runs more).
///
/// 4,500 runs (45 scenarios × 100 seeds). A workload seed costs about 1.5 plain ones (its
/// operations, the model's queries, a span of at least 20 min). They run in the release build
/// of `sync-sim` (`ReleaseSyncSim`: the libraries have no `unsafeFlags`, so this debug build is
/// unoptimized), as a user runs them — `sync-sim sweep scenarios/NAME --seeds N --json
/// REPORT` — and each report is read back and checked seed by seed.
@Suite("CI sweep of the scenario library")
struct SweepCITests {
    /// Seeds per scenario with its workload, and seeds with its `expect always` expectations.
    static let workloadSeeds = 80
    static let expectationSeeds = 20
    /// Scenarios whose first `determinismSeeds` workload seeds are checked for determinism: a
    /// fitness and a countdown workload, with every fault class.
    static let determinismSample = ["flaky-day.scenario", "countdown-both-sides.scenario"]
    static let determinismSeeds = 3

    @Test func theDeterminismSampleIsInTheLibrary() {
        #expect(Self.determinismSample.allSatisfy(Library.names.contains), "\(Self.determinismSample)")
    }

    /// `sync-sim sweep scenarios/NAME ARGS… --jobs 1 --json REPORT` in the release build, run
    /// from the repository's root (so its replay commands are the ones to type there); the
    /// report read back.
    static func sweep(_ name: String, _ args: [String]) throws -> SweepReport {
        let bin = try ReleaseSyncSim.require()
        let dir = try makeTemporaryDirectory(prefix: "peerlink-ci-sweep")
        defer { removeTree(dir) }
        let report = dir + "/report.json"
        let r = try ToolRun.exec(bin, ["sweep", "scenarios/" + name] + args + ["--jobs", "1", "--json", report], in: Library.repositoryRoot,
                                 environment: ToolRun.noEngine, timeoutMs: 15 * 60_000)
        #expect(r.status == 0 || r.status == 1, "sync-sim sweep \(name) \(args.joined(separator: " ")): status \(r.status)\n\(r.stderr)")
        return try SweepReport.parse(try #require(readTextFile(report), "no report: \(r.stdout.suffix(3)) \(r.stderr)"))
    }

    static func recordFailures(_ report: SweepReport) {
        for s in report.outcomes where !s.passed {
            Issue.record("\(report.failureText(s))")
        }
    }

    @Test(arguments: Library.names)
    func randomFaultsAndTheScenariosWorkloadNeverBreakTheChecks(name: String) throws {
        let sampled = Self.determinismSample.contains(name) ? Self.determinismSeeds : 0
        var outcomes: [SweepReport.Seed] = []
        if sampled > 0 {
            let checked = try Self.sweep(name, ["--from", "1", "--seeds", "\(sampled)", "--workload", "default", "--check-determinism"])
            #expect(checked.outcomes.allSatisfy { $0.traceHashes.count == 2 }, "the sample ran twice")
            Self.recordFailures(checked)
            outcomes += checked.outcomes
        }
        let rest = try Self.sweep(name, ["--from", "\(sampled + 1)", "--seeds", "\(Self.workloadSeeds - sampled)", "--workload", "default"])
        Self.recordFailures(rest)
        outcomes += rest.outcomes
        #expect(outcomes.map(\.seed) == Array(1...UInt64(Self.workloadSeeds)))
    }

    @Test(arguments: Library.names)
    func randomFaultsKeepTheExpectationsMarkedAlways(name: String) throws {
        let report = try Self.sweep(name, ["--from", "\(Self.workloadSeeds + 1)", "--seeds", "\(Self.expectationSeeds)"])
        #expect(report.outcomes.count == Self.expectationSeeds)
        Self.recordFailures(report)
    }
}
