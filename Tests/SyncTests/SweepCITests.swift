import Testing
import PeerLinkScenarios

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
/// operations, the model's queries, a span of at least 20 min), so these cost about what
/// 200 plain seeds of 38 scenarios did; the libraries are optimized even in debug builds
/// (see Package.swift).
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

    @Test(arguments: Library.names)
    func randomFaultsAndTheScenariosWorkloadNeverBreakTheChecks(name: String) throws {
        let scenario = try Library.load(name)
        var options = SweepOptions()
        options.workload = WorkloadKind.default(for: scenario)
        var checked = options
        checked.checksDeterminism = true
        let sampled = Self.determinismSample.contains(name) ? Self.determinismSeeds : 0
        let outcomes = SweepSession(scenario: scenario, seeds: SeedSweep.seeds(from: 1, count: sampled), options: checked, jobs: 1).run()
            + SweepSession(scenario: scenario, seeds: SeedSweep.seeds(from: UInt64(sampled) + 1, count: Self.workloadSeeds - sampled), options: options, jobs: 1).run()
        #expect(outcomes.count == Self.workloadSeeds)
        #expect(outcomes.prefix(sampled).allSatisfy { $0.traceHashes.count == 2 }, "the sample ran twice")
        for o in outcomes where !o.passed {
            Issue.record("\(SweepSession.failureText(o, file: "scenarios/" + name, classes: options.classes, workload: options.workload, scenario: scenario))")
        }
    }

    @Test(arguments: Library.names)
    func randomFaultsKeepTheExpectationsMarkedAlways(name: String) throws {
        let scenario = try Library.load(name)
        let options = SweepOptions()
        let seeds = SeedSweep.seeds(from: UInt64(Self.workloadSeeds) + 1, count: Self.expectationSeeds)
        let outcomes = SweepSession(scenario: scenario, seeds: seeds, options: options, jobs: 1).run()
        #expect(outcomes.count == Self.expectationSeeds)
        for o in outcomes where !o.passed {
            Issue.record("\(SweepSession.failureText(o, file: "scenarios/" + name, classes: options.classes, scenario: scenario))")
        }
    }
}
