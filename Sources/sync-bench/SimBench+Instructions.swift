import Foundation
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkScenarios
import PhoneWatch

/// The instruction count of the simulated hour, by callgrind: `sync-bench sim-hour` (this
/// executable, running only the sim-mode hour) under `valgrind --tool=callgrind` with
/// collection switched on inside `SimConductor.run` alone (`--toggle-collect`), which is the
/// span `workout_hour_wall_ms_sim` times. Nil, with the reason, when valgrind is missing or
/// the run fails: the figure is then left out, never guessed.
enum SimInstructionCount {
    /// `SimConductor.run(_:)` as callgrind names it (Swift's mangled name).
    static let toggle = "*SimConductorV3run*"

    static func measure(quick: Bool) -> (instructions: Int64?, note: String) {
        let out = NSTemporaryDirectory() + "/sync-bench-callgrind-\(getpid()).out"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=\(out)", "--toggle-collect=\(toggle)",
                       executablePath(), "sim-hour"] + (quick ? ["--quick"] : [])
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch { return (nil, "valgrind could not start: \(error)") }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            return (nil, p.terminationStatus == 127 ? "valgrind is not installed (apt-get install valgrind)" : "the callgrind run failed (exit \(p.terminationStatus))")
        }
        guard let n = collected(text) else { return (nil, "callgrind printed no 'Collected' count") }
        // Zero means the toggle matched no function (SimConductor.run inlined away): no figure.
        guard n > 0 else { return (nil, "callgrind collected nothing: no function matched \(toggle)") }
        return (n, "callgrind, collection on inside SimConductor.run only (valgrind --tool=callgrind --toggle-collect=\(toggle))")
    }

    /// The count in callgrind's `==PID== Collected : N` line.
    static func collected(_ stderr: String) -> Int64? {
        for line in stderr.split(separator: "\n") where line.contains("Collected :") {
            if let n = line.split(separator: ":").last.flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }) { return n }
        }
        return nil
    }
}

/// `sync-bench sim-hour [--quick]`: the sim-mode hour alone (what callgrind counts). Exit 0
/// when it passed.
func runSimHourOnly(quick: Bool) -> Int32 {
    do {
        let scenario = try ScenarioParser.parse(workoutScenarioText(minutes: quick ? 5 : 60), file: "workout-hour.scenario")
        return SimConductor().run(scenario).passed ? 0 : 1
    } catch {
        StandardError.write("sync-bench: error: \(error)\n")
        return 1
    }
}
