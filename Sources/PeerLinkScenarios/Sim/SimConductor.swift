import PeerLinkCore

/// Sim mode in one call: `SimConductor(apps: apps, options: options).run(scenario)`.
public struct SimConductor {
    let apps: SimApps
    let options: SimOptions
    public init(apps: SimApps, options: SimOptions = SimOptions()) {
        self.apps = apps
        self.options = options
    }

    /// Runs `scenario` on a fresh simulated network; never throws (failures are in the result).
    public func run(_ scenario: Scenario) -> ScenarioResult {
        let runner = ScenarioRunner(driver: apps.driver(options))
        runner.convergeWithinMs = options.convergeWithinMs
        if options.recordsReport { runner.recorder = RunRecorder(scenario: scenario) }
        return runner.run(scenario)
    }
}
