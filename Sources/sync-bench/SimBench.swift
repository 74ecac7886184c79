import PeerLink
import Shared
import Simulator

/// The `sim` suite: how fast the scenario runner replays.
///
/// - `workout_hour_wall_ms_process`: wall time of a one-hour running workout with a heart
///   rate every second (3,600 samples), then `expect converged`, in process mode (real
///   `phone-node` and `watch-node` next to `sync-bench`, the fault proxy between them).
/// - `workout_hour_wall_ms_sim`: the same scenario in sim mode (one process).
/// - `sweep_seeds_per_min`: sim-mode runs of the morning run with random fault schedules.
let simSuite = BenchSuite(name: "sim") { quick in
    let minutes = quick ? 5 : 60
    let text = """
        scenario "workout hour"
        start 2026-06-01T07:00:00+09:00
        07:00:00 watch workout start running
        07:00:01 every 1s for \(minutes)m: watch hr 110..175
        +1s watch workout end
        +1m expect converged
        """
    let scenario = try ScenarioParser.parse(text, file: "workout-hour.scenario")
    let start = monotonicNs()
    let r = ProcessConductor(options: ConductorOptions(binDirectory: executableDirectory())).run(scenario)
    let wallMs = Int64((monotonicNs() - start) / 1_000_000)
    guard r.passed else { throw BenchFailure(message: "the workout scenario failed in process mode:\n\(r.text())") }
    var figures: [String: PlistValue] = [
        "workout_minutes": .int(Int64(minutes)),
        "workout_hour_wall_ms_process": .int(wallMs),
        "workout_hour_steps": .int(Int64(r.stepsRun)),
    ]
    figures["workout_hour_wall_ms_sim"] = .string("not measured: sim mode not built yet")
    figures["sweep_seeds_per_min"] = .string("not measured: sweeps not built yet")
    return figures
}

/// A benchmark whose workload did not succeed.
struct BenchFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
