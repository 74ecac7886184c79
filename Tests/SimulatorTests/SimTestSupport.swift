import Foundation
import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch

/// Helpers for sim-mode tests: scenarios written in the test, run on a fresh `SimDriver`.
enum SimTest {
    /// The repository root (the scenario library is read from there).
    static var repositoryRoot: String {
        let file = #filePath
        return String(file[..<file.range(of: "/Tests/SimulatorTests/")!.lowerBound])
    }

    /// Every scenario file of the library, sorted.
    static var libraryFiles: [String] {
        let dir = repositoryRoot + "/scenarios"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".scenario") }.sorted().map { dir + "/" + $0 }
    }

    /// Reads and parses a scenario file.
    static func load(_ path: String) throws -> Scenario {
        let text = try #require(readScenarioFile(path), "cannot read \(path)")
        return try ScenarioParser.parse(text, file: path)
    }

    /// A scenario from `body` (steps) under a standard header.
    static func scenario(_ body: String, seed: UInt64 = 7, start: String = "2026-06-01T07:00:00+09:00") throws -> Scenario {
        try ScenarioParser.parse("scenario \"test\"\nstart \(start)\nseed \(seed)\n" + body, file: "test.scenario")
    }

    /// Runs `scenario` in sim mode; returns the result and the driver (its network stays readable).
    static func run(_ scenario: Scenario, options: SimOptions = SimOptions(), fastForward: Bool = true) -> (ScenarioResult, PhoneWatchSimDriver) {
        let driver = PhoneWatchSimDriver(options: options)
        let runner = ScenarioRunner(driver: driver)
        runner.fastForward = fastForward
        runner.convergeWithinMs = options.convergeWithinMs
        return (runner.run(scenario), driver)
    }

    /// A sweep's shrunk run of `scenarios/NAME.scenario` replayed through `SeedSweep.run`, as
    /// `sync-sim sweep scenarios/NAME.scenario --seed S --faults "…" [--workload W --ops "…"]`.
    static func replay(_ name: String, seed: UInt64, faults: String, workload: WorkloadKind? = nil, ops: String? = nil) throws -> SeedOutcome {
        var o = SweepOptions()
        o.workload = workload
        return SeedSweep.run(try load(repositoryRoot + "/scenarios/\(name).scenario"), seed: seed, faults: try FaultSchedule.parse(faults),
                             ops: try ops.map { try WorkloadOps.parse($0) }, options: o)
    }

    /// Runs `scenario` with `faults` and a workload's `ops` as `SeedSweep.run` does for `seed`
    /// (no trace), keeping the driver and the workload's record of the run.
    static func runWorkload(_ scenario: Scenario, seed: UInt64, faults: FaultSchedule, ops: WorkloadOps,
                            options: SweepOptions) throws -> (driver: PhoneWatchSimDriver, workload: WorkloadRun) {
        var o = SimOptions()
        o.recordsTrace = false
        o.networkSeed = seed
        let driver = PhoneWatchSimDriver(options: o)
        let runner = ScenarioRunner(driver: driver)
        runner.convergeWithinMs = options.convergeWithinMs
        runner.workload = WorkloadRun(kind: try #require(options.workload))
        _ = runner.run(SeedSweep.faultedScenario(scenario, faults: faults, ops: ops, options: options))
        return (driver, try #require(runner.workload))
    }

    /// Parses and runs `body`.
    static func run(_ body: String, seed: UInt64 = 7, fastForward: Bool = true) throws -> (ScenarioResult, PhoneWatchSimDriver) {
        run(try scenario(body, seed: seed), fastForward: fastForward)
    }

    /// The check whose description is `text`.
    static func check(_ r: ScenarioResult, _ text: String) -> CheckOutcome? {
        r.checks.first { $0.description == text }
    }
}
