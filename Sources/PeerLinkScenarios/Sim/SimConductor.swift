import PeerLinkCore

/// Sim mode in one call: `SimConductor(options:).run(scenario)`.
public struct SimConductor {
    let options: SimOptions
    public init(options: SimOptions = SimOptions()) { self.options = options }

    /// Runs `scenario` on a fresh simulated network; never throws (failures are in the result).
    public func run(_ scenario: Scenario) -> ScenarioResult {
        let runner = ScenarioRunner(driver: SimDriver(options: options))
        runner.convergeWithinMs = options.convergeWithinMs
        if options.recordsReport { runner.recorder = RunRecorder(scenario: scenario) }
        return runner.run(scenario)
    }
}
