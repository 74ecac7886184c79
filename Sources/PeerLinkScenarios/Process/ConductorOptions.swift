import PeerLinkCore

/// How to start one node process: an executable and the arguments that come before the
/// node's own (`sync-sim node phone` is `sync-sim` with `["node", "phone"]`).
public struct NodeExecutable: Sendable, Equatable {
    public var path: String
    public var leadingArguments: [String]

    public init(path: String, leadingArguments: [String] = []) {
        self.path = path
        self.leadingArguments = leadingArguments
    }

    /// `phone-node` / `watch-node` in `directory`.
    public static func separate(_ role: DeviceRole, in directory: String) -> NodeExecutable {
        NodeExecutable(path: directory + "/\(role.rawValue)-node")
    }

    /// This very executable re-run as the node: `<self> node phone|watch …`.
    public static func thisExecutable(as role: DeviceRole) -> NodeExecutable {
        NodeExecutable(path: executablePath(), leadingArguments: ["node", role.rawValue])
    }
}

/// Options of a process-mode run.
public struct ConductorOptions: Sendable {
    /// How to start the phone and the watch.
    public var phone: NodeExecutable
    public var watch: NodeExecutable
    /// Keep the nodes' state directories after the run (their path is printed).
    public var keepState = false
    /// Real time allowed for the nodes to go quiet after each step.
    public var settleTimeoutMs: Int64 = 20_000
    /// Virtual time allowed for `expect converged` to be met.
    public var convergeWithinMs: Int64 = 120_000
    /// Record the run for the HTML report (`RunRecorder`: frames as data, screens at moments).
    public var recordsReport = false
    /// The screens the report draws at its moments (`show SCREEN --svg` of the nodes).
    public var reportScreens: [(DeviceRole, String)] = []

    /// `phone-node` and `watch-node` from `binDirectory`.
    public init(binDirectory: String) {
        phone = .separate(.phone, in: binDirectory)
        watch = .separate(.watch, in: binDirectory)
    }

    public init(phone: NodeExecutable, watch: NodeExecutable) {
        self.phone = phone
        self.watch = watch
    }

    func executable(_ role: DeviceRole) -> NodeExecutable { role == .phone ? phone : watch }
}

/// Process mode in one call: `ProcessConductor(options:).run(scenario)`.
public struct ProcessConductor {
    let options: ConductorOptions
    public init(options: ConductorOptions) { self.options = options }

    public func run(_ scenario: Scenario) -> ScenarioResult {
        let runner = ScenarioRunner(driver: ProcessDriver(options: options))
        runner.keepState = options.keepState
        runner.convergeWithinMs = options.convergeWithinMs
        if options.recordsReport { runner.recorder = RunRecorder(scenario: scenario) }
        return runner.run(scenario)
    }
}
