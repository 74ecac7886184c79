import PeerLinkCore
import PeerLinkSim

/// Records a run for the HTML report while the runner plays it: the runner tells it about each
/// step and each clock move, and it asks the driver for screens at each expectation, each
/// fault step, and every `intervalMs` of virtual time (at the instants the runner stops at
/// anyway: the recorder never moves a clock). Screens are read with `show SCREEN --svg`, which
/// the apps answer without changing anything, so a recorded run plays exactly as an
/// unrecorded one (the sim-mode trace hash is the same with and without it).
public final class RunRecorder {
    /// The most moments kept (the periodic ones stop first).
    public static let maxMoments = 160

    public private(set) var recording: RunRecording
    let intervalMs: Int64
    var nextPeriodicMs: EpochMs
    var openFault: (fromMs: EpochMs, text: String)?
    /// The screens drawn at each moment: the driver's apps' (`ScenarioDriver.reportScreens`).
    var screens: [(DeviceRole, String)] = []

    /// A recorder for `scenario`; the periodic interval is 5 minutes, or longer for long
    /// scenarios (about 48 periodic moments over the scenario's span).
    public init(scenario: Scenario) {
        recording = RunRecording(startMs: scenario.startMs, timeZone: scenario.timeZone, language: scenario.language)
        let span = scenario.endMs - scenario.startMs
        let fiveMinutes: Int64 = 5 * 60_000
        intervalMs = max(fiveMinutes, (span / 48 + fiveMinutes - 1) / fiveMinutes * fiveMinutes)
        nextPeriodicMs = scenario.startMs
    }

    // MARK: - From the runner

    /// The nodes are up: the first moment.
    func started(_ driver: ScenarioDriver, atMs: EpochMs) {
        screens = driver.reportScreens
        recording.screens = screens.map { "\($0.0.rawValue)/\($0.1)" }
        capture(driver, atMs: atMs, reason: "start")
        nextPeriodicMs = atMs + intervalMs
    }

    /// The clocks moved to `ms`: a periodic moment when one is due.
    func timePassed(_ driver: ScenarioDriver, to ms: EpochMs) {
        recording.endMs = max(recording.endMs, ms)
        guard ms >= nextPeriodicMs else { return }
        capture(driver, atMs: ms, reason: "every \(intervalMs / 60_000) min")
        while nextPeriodicMs <= ms { nextPeriodicMs += intervalMs }
    }

    /// `step` ran at `ms` with `faults` now in force and gave `checks`.
    func stepDone(_ step: ScenarioStep, checks: [CheckOutcome], faults: LinkFaults, driver: ScenarioDriver, atMs ms: EpochMs) {
        recording.endMs = max(recording.endMs, ms)
        recording.checkTimesMs += Array(repeating: ms, count: checks.count)
        var isFault = true
        switch step.action {
        case .link(let change):
            if change == .reset { mark(.reset, nil, step, ms) }
            let text = faults.isClear ? nil : "\(faults)"
            if openFault?.text != text {
                if let f = openFault { recording.faults.append(FaultSpan(fromMs: f.fromMs, toMs: ms, text: f.text)) }
                openFault = text.map { (ms, $0) }
            }
        case .kill(let role): mark(.kill, role, step, ms)
        case .restart(let role): mark(.restart, role, step, ms)
        case .clock(let role, _): mark(.clock, role, step, ms)
        case .corruptStore(let role): mark(.corruption, role, step, ms)
        case .rollbackStore(let role): mark(.rollback, role, step, ms)
        case .damagePartialFile(let role): mark(.corruption, role, step, ms)
        case .stranger: mark(.stranger, .phone, step, ms)
        case .expectValue, .expectConverged, .expectRefusal, .checkWorkload: isFault = false
        case .node, .workload: return
        }
        capture(driver, atMs: ms, reason: step.text, force: !isFault || recording.moments.count < Self.maxMoments)
    }

    /// The run ended at `ms`: closes an open fault span and takes the frames.
    func finish(_ driver: ScenarioDriver, atMs ms: EpochMs) -> RunRecording {
        recording.endMs = max(recording.endMs, ms)
        if let f = openFault { recording.faults.append(FaultSpan(fromMs: f.fromMs, toMs: recording.endMs, text: f.text)) }
        openFault = nil
        recording.frames = driver.takeFrames()
        return recording
    }

    // MARK: - Internals

    func mark(_ kind: RunMark.Kind, _ role: DeviceRole?, _ step: ScenarioStep, _ ms: EpochMs) {
        recording.marks.append(RunMark(atMs: ms, kind: kind, role: role, text: step.text))
    }

    func capture(_ driver: ScenarioDriver, atMs ms: EpochMs, reason: String, force: Bool = false) {
        guard force || recording.moments.count < Self.maxMoments else { return }
        var drawn: [String: String] = [:]
        for role in DeviceRole.allCases where driver.isRunning(role) {
            for (key, svg) in driver.captureScreens(role, screens.filter { $0.0 == role }.map(\.1)) {
                drawn["\(role.rawValue)/\(key)"] = svg
            }
        }
        recording.moments.append(ScreenMoment(atMs: ms, reason: reason, screens: drawn))
    }
}
