import PeerLinkCore
import PeerLinkSim

/// The two app cores a simulation runs: the phone's and the watch's `NodeApp`, and what the
/// runner and its reports need to know of them. One value is made per run (sweeps make one per
/// seed), so it may hold what outlives a crash of its apps but not a run, such as a phone's
/// exports; `makePhone`/`makeWatch` are called at the start and after each restart.
///
///     struct WaterPair: AppPair {
///         func makePhone() -> WaterPhone { WaterPhone() }
///         func makeWatch() -> WaterWatch { WaterWatch() }
///     }
///     let result = SimConductor(apps: SimApps("water") { WaterPair() }).run(scenario)
public protocol AppPair {
    associatedtype Phone: NodeApp
    associatedtype Watch: NodeApp
    /// A fresh phone app, over the state its engine loads.
    func makePhone() -> Phone
    /// A fresh watch app.
    func makeWatch() -> Watch
    /// The screens the HTML report draws at its moments (each answered read-only by
    /// `show SCREEN --svg`); none by default.
    var reportScreens: [(DeviceRole, String)] { get }
    /// The export folder of `role`'s node (`AppEffect.export`); none by default (an export
    /// then fails with `noExportFolder`). A pair that exports returns a `MemoryExportFolder` it
    /// holds, so exports outlive the app's crashes, not the run (`PhoneWatchPair` does).
    func exports(_ role: DeviceRole) -> (any ExportFolder)?
}

extension AppPair {
    public var reportScreens: [(DeviceRole, String)] { [] }
    public func exports(_ role: DeviceRole) -> (any ExportFolder)? { nil }
}

/// What sweeps, the conductor and the reports need of a sim-mode driver, whatever its apps.
public protocol SimulationDriver: ScenarioDriver {
    /// What the invariant checks found (empty when they are off or all held).
    var problems: [String] { get }
}

/// A pair of apps by name, as sweeps and the conductor take it: it makes one simulation
/// driver per run. Two are equal when their names are (a report names the apps it ran).
public struct SimApps: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    let make: @Sendable (SimOptions) -> any SimulationDriver

    /// The apps of `makePair`'s pair, called once per run.
    public init<Pair: AppPair>(_ name: String, _ makePair: @escaping @Sendable () -> Pair) {
        self.name = name
        make = { options in SimDriver(pair: makePair(), options: options) }
    }

    /// A new driver for one run.
    public func driver(_ options: SimOptions) -> any SimulationDriver { make(options) }

    public var description: String { name }

    public static func == (a: SimApps, b: SimApps) -> Bool { a.name == b.name }
}
