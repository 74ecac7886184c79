#if canImport(Glibc)
import Glibc
#endif
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import PeerLinkPOSIX

/// The `sim` suite: how fast the scenario runner replays.
///
/// - `workout_hour_wall_ms_process`: wall time of a one-hour running workout with a heart
///   rate every second (3,600 samples), then `expect converged`, in process mode (real
///   node processes: this executable as `sync-bench node phone|watch`, the fault proxy between them).
/// - `workout_hour_wall_ms_sim`: the same scenario in sim mode (one process).
/// - `sweep_seeds_per_min`: sim-mode runs of the morning run with random fault schedules
///   (`sync-sim sweep`), on as many threads as there are processors, without shrinking:
///   200 seeds, swept three times after an untimed sweep of 20, the median of the three
///   rates (`_rounds_min`/`_max` give the other two).
/// - `workout_hour_instructions`: the instructions of the sim-mode hour, counted by callgrind
///   inside `SimConductor.run` only (`SimInstructionCount`); left out, with the reason in
///   `workout_hour_instructions_method`, when valgrind is not installed.
let simSuite = BenchSuite(name: "sim") { quick in
    let minutes = quick ? 5 : 60
    let scenario = try ScenarioParser.parse(workoutScenarioText(minutes: minutes), file: "workout-hour.scenario")
    let start = monotonicNs()
    let r = ProcessConductor(options: .phoneAndWatchInThisExecutable()).run(scenario)
    let wallMs = Int64((monotonicNs() - start) / 1_000_000)
    guard r.passed else { throw BenchFailure(message: "the workout scenario failed in process mode:\n\(r.text())") }
    var figures: [String: PlistValue] = [
        "workout_minutes": .int(Int64(minutes)),
        "workout_hour_wall_ms_process": .int(wallMs),
        "workout_hour_steps": .int(Int64(r.stepsRun)),
    ]

    let simStart = monotonicNs()
    let s = SimConductor().run(scenario)
    figures["workout_hour_wall_ms_sim"] = .int(Int64((monotonicNs() - simStart) / 1_000_000))
    guard s.passed else { throw BenchFailure(message: "the workout scenario failed in sim mode:\n\(s.text())") }
    guard s.phoneDigest == r.phoneDigest else {
        throw BenchFailure(message: "sim and process mode ended with different digests (\(s.phoneDigest ?? "?") vs \(r.phoneDigest ?? "?"))")
    }

    let path = "scenarios/morning-run.scenario"
    guard let morningText = readTextFile(path) else { throw BenchFailure(message: "cannot read \(path) (run from the repository root)") }
    let morning = try ScenarioParser.parse(morningText, file: path)
    let jobs = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    let seedCount = quick ? 8 : 200
    let rounds = quick ? 1 : 3
    var options = SweepOptions()
    options.shrinks = false
    // The same seeds swept `rounds` times, after an untimed sweep of 20 (the process's first
    // sweep pays for lazy statics, the simulator's key pool and the allocator's growth): the
    // work is then the same each time, so what differs between the rounds is the machine;
    // the figure is their median.
    _ = SweepSession(scenario: morning, seeds: SeedSweep.seeds(from: 1, count: quick ? 2 : 20), options: options, jobs: jobs).run()
    var rates: [Double] = []
    var failed = 0
    for _ in 0..<rounds {
        let sweepStart = monotonicNs()
        let outcomes = SweepSession(scenario: morning, seeds: SeedSweep.seeds(from: 1, count: seedCount), options: options, jobs: jobs).run()
        let sweepMs = max(1, Double(monotonicNs() - sweepStart) / 1_000_000)
        failed = max(failed, outcomes.filter { !$0.passed }.count)
        rates.append(Double(seedCount) * 60_000 / sweepMs)
    }
    rates.sort()
    figures["sweep_seeds"] = .int(Int64(seedCount))
    figures["sweep_rounds"] = .int(Int64(rounds))
    figures["sweep_threads"] = .int(Int64(jobs))
    figures["sweep_failed_seeds"] = .int(Int64(failed))
    figures["sweep_seeds_per_min"] = .int(Int64(median(rates)))
    figures["sweep_seeds_per_min_rounds_min"] = .int(Int64(rates.first!))
    figures["sweep_seeds_per_min_rounds_max"] = .int(Int64(rates.last!))

    let counted = SimInstructionCount.measure(quick: quick)
    if let n = counted.instructions { figures["workout_hour_instructions"] = .int(n) }
    figures["workout_hour_instructions_method"] = .string(counted.note)
    var goals: [String: PlistValue] = [
        "workout_hour_wall_ms_sim_le_100": .bool((figures["workout_hour_wall_ms_sim"]?.intValue ?? .max) <= 100),
        "sweep_seeds_per_min_ge_10000": .bool((figures["sweep_seeds_per_min"]?.intValue ?? 0) >= 10_000),
    ]
    if let n = counted.instructions { goals["workout_hour_instructions_le_0_4G"] = .bool(n <= 400_000_000) }
    if !quick { figures["goals_met"] = .dictionary(goals) }  // issue 20's goals are for the hour
    return figures
}

/// The bench's workout: a heart rate every second for `minutes`, then `expect converged`.
func workoutScenarioText(minutes: Int) -> String {
    """
    scenario "workout hour"
    start 2026-06-01T07:00:00+09:00
    07:00:00 watch workout start running
    07:00:01 every 1s for \(minutes)m: watch hr 110..175
    +1s watch workout end
    +1m expect converged
    """
}

/// A benchmark whose workload did not succeed.
struct BenchFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
