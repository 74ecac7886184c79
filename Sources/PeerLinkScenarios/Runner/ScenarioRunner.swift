import PeerLinkCore
import PeerLinkSim

/// Runs a scenario's steps against a driver: moves virtual time, applies faults, sends
/// commands, checks expectations, and reports.
public final class ScenarioRunner {
    let driver: ScenarioDriver
    // A runner runs on its caller's thread, and nothing it calls holds a reference to it (the
    // driver, the recorder and the workload are given what they need, never the runner), so
    // no two accesses to these variables overlap: they skip Swift's run-time exclusivity
    // check, as the driver's, the network's and the engine's do (docs/BENCHMARKS.md).
    @exclusivity(unchecked) public var convergeWithinMs: Int64 = 120_000
    @exclusivity(unchecked) public var keepState = false
    /// Skip heartbeats over a healthy idle link (see `advance`); off to step through every timer.
    @exclusivity(unchecked) public var fastForward = true
    @exclusivity(unchecked) var nowMs: EpochMs = 0
    @exclusivity(unchecked) var faults = LinkFaults()
    @exclusivity(unchecked) var clocks = PerRole(both: WallClockModel())
    @exclusivity(unchecked) var seed: UInt64 = 1
    @exclusivity(unchecked) var timeline: [String] = []
    /// The scenario being run.
    @exclusivity(unchecked) var scenario: Scenario?
    /// When each node's store was last damaged (corrupt, rollback): what it lost then may not
    /// come back (see `ConvergenceCheck`).
    @exclusivity(unchecked) var damagedAtMs: [DeviceRole: EpochMs] = [:]
    /// The file records each node's damages took (see `ConvergenceCheck`).
    @exclusivity(unchecked) var filesLostToDamage = FileRecordsLostToDamage()
    /// Nodes whose partial incoming file is to be damaged as soon as they hold one with
    /// committed content (`damage-partial-file`).
    @exclusivity(unchecked) var armedFileDamage: Set<DeviceRole> = []
    /// A sweep's workload: its operations are recorded here, and the scenario's own commands
    /// to the records it follows (see `WorkloadRun`).
    @exclusivity(unchecked) public var workload: WorkloadRun?
    /// Records the run for the HTML report (frames, faults, checks' times, screens); nil: off.
    @exclusivity(unchecked) public var recorder: RunRecorder?

    public init(driver: ScenarioDriver) { self.driver = driver }

    /// Runs `scenario`; never throws (failures are in the result).
    public func run(_ scenario: Scenario) -> ScenarioResult {
        let wallStart = ChildProcess.monotonicMs()
        var result = ScenarioResult(name: scenario.name, file: scenario.file, mode: driver.modeName, passed: false, checks: [],
                                    error: nil, stepsRun: 0, virtualMs: 0, wallMs: 0)
        nowMs = scenario.startMs
        seed = scenario.seed
        self.scenario = scenario
        do {
            try driver.start(scenario)
            recorder?.started(driver, atMs: nowMs)
            for step in scenario.steps {
                try advance(to: step.atMs)
                let checks = try perform(step)
                result.checks += checks
                recorder?.stepDone(step, checks: checks, faults: faults, driver: driver, atMs: nowMs)
                result.stepsRun += 1
            }
            _ = try driver.settle()
            for role in DeviceRole.allCases where driver.isRunning(role) {
                if case .success(let d) = try driver.call(role, "digest") {
                    if role == .phone { result.phoneDigest = d.stringValue } else { result.watchDigest = d.stringValue }
                }
            }
        } catch {
            result.error = "\(error)"
        }
        result.virtualMs = nowMs - scenario.startMs
        result.checks += driver.finalChecks()
        result.passed = result.error == nil && result.checks.allSatisfy(\.passed)
        timeline += driver.takeTimeline()
        result.timeline = timeline
        result.logs = driver.nodeLogs()
        result.traceHash = driver.traceHash(timeline: timeline)
        result.recording = recorder?.finish(driver, atMs: nowMs)
        result.notes += driver.stop(keepState: keepState || !result.passed)
        result.wallMs = ChildProcess.monotonicMs() - wallStart
        return result
    }
}
