import Testing
import Simulator

/// The CI sweep: every scenario of the library under random fault schedules (sim mode),
/// checking convergence, exactly-once delivery of acknowledged user info, and monotonic
/// clocks and seqs after recovery (see docs/SCENARIOS.md, *Sweeps*).
///
/// Seeds per scenario are sized to the CI budget (`swift test` in a debug build on 2 cores
/// must stay under 10 minutes including the build): the morning run gets the most, long
/// scenarios (days of virtual time) fewer. Every fault class is on, store damage included
/// (one damaged store per seed, see `FaultSchedule.random`).
/// A failing seed's message has its faults, a shrunk list and the command that replays it.
@Suite("CI sweep of the scenario library")
struct SweepCITests {
    /// Seeds per scenario. The morning run gets the 200 of the brief; the others as many as
    /// fit about 12 s of one core each in a debug build (measured per seed, in parentheses, on
    /// a shared 2-core machine): long scenarios are dominated by the phone app's timer ticks.
    static let seeds: [String: Int] = [
        "morning-run.scenario": 200,              // 0.62 s
        "both-count-steps.scenario": 16,          // 0.75 s
        "corrupt-phone-store.scenario": 37,       // 0.32 s
        "countdown-both-sides.scenario": 170,     // 0.07 s
        "csv-export.scenario": 2,                 // 7.7 s (30 days)
        "flaky-day.scenario": 13,                 // 0.92 s
        "phone-store-rolled-back.scenario": 55,   // 0.22 s
        "step-goal-partition.scenario": 130,      // 0.09 s
        "summary-across-dst.scenario": 7,         // 1.7 s (7 days)
        "watch-clock-ahead.scenario": 20,         // 0.58 s
        "watch-crash-mid-workout.scenario": 10,   // 1.24 s
        "watch-offline-three-weeks.scenario": 10, // 1.23 s (3 weeks)
        "watch-out-of-range.scenario": 12,        // 0.98 s
        "week-with-monday-summary.scenario": 5,   // 2.4 s (7 days)
        "complication-60-pushes.scenario": 30,    // 0.39 s
        "phone-crash-mid-file.scenario": 24,      // 0.5 s
        "run-detection-starts-workout.scenario": 60, // 0.2 s
        "stranger-wrong-secret.scenario": 150,    // 0.08 s
    ]
    /// Scenarios added to the library later.
    static let defaultSeeds = 5

    @Test(arguments: Library.names)
    func randomFaultSchedulesNeverBreakTheInvariants(name: String) throws {
        let scenario = try Library.load(name)
        let options = SweepOptions()
        let count = Self.seeds[name] ?? Self.defaultSeeds
        let outcomes = SweepSession(scenario: scenario, seeds: SeedSweep.seeds(from: 1, count: count), options: options, jobs: 1).run()
        #expect(outcomes.count == count)
        for o in outcomes where !o.passed {
            Issue.record("\(SweepSession.failureText(o, file: "scenarios/" + name, classes: options.classes))")
        }
    }
}
