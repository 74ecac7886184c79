import Testing
import Simulator

/// The CI sweep: every scenario of the library under random fault schedules (sim mode),
/// 200 seeds each, checking convergence, exactly-once delivery of acknowledged user info, and
/// monotonic clocks and seqs after recovery (see docs/SCENARIOS.md, *Sweeps*). Every fault
/// class is on, store damage included (one damaged store per seed, see `FaultSchedule.random`).
/// A failing seed's message has its faults, a shrunk list and the command that replays it.
///
/// 7,800 runs (39 scenarios) take about two minutes on 2 cores because the libraries are
/// optimized even in debug builds (see Package.swift).
@Suite("CI sweep of the scenario library")
struct SweepCITests {
    /// Seeds per scenario.
    static let seedsPerScenario = 200

    @Test(arguments: Library.names)
    func randomFaultSchedulesNeverBreakTheInvariants(name: String) throws {
        let scenario = try Library.load(name)
        let options = SweepOptions()
        let count = Self.seedsPerScenario
        let outcomes = SweepSession(scenario: scenario, seeds: SeedSweep.seeds(from: 1, count: count), options: options, jobs: 1).run()
        #expect(outcomes.count == count)
        for o in outcomes where !o.passed {
            Issue.record("\(SweepSession.failureText(o, file: "scenarios/" + name, classes: options.classes))")
        }
    }
}
