import PeerLinkCore
import PeerLinkScenarios
import PeerLinkSim
import PhoneNode
import WatchNode

/// PeerLink's own two apps as a pair the scenario runner and sweeps run: the fitness and
/// countdown phone app and its watch companion. One pair per run: its phone's CSV exports
/// (the share sheet's stand-in) outlive the phone's crashes, not the run.
public struct PhoneWatchPair: AppPair {
    /// Where the phone's exports go.
    public let exports = MemoryExportFolder()

    public init() {}

    public func makePhone() -> PhoneApp { PhoneApp() }
    public func exports(_ role: DeviceRole) -> (any ExportFolder)? { role == .phone ? exports : nil }
    public func makeWatch() -> WatchApp { WatchApp() }

    /// Every screen the report shows: the phone's drawn screens, then the watch's.
    public static let screens: [(DeviceRole, String)] =
        PhoneApp.svgScreens.map { (.phone, $0) } + WatchApp.svgScreens.map { (.watch, $0) }

    public var reportScreens: [(DeviceRole, String)] { Self.screens }
}

extension SimApps {
    /// PeerLink's own phone and watch apps.
    public static let phoneAndWatch = SimApps("phone+watch") { PhoneWatchPair() }
}

// What `sync-sim`, `sync-bench` and the tests run unless told otherwise: the built-in pair.

extension SweepOptions {
    /// A sweep of the built-in apps.
    public init() { self.init(apps: .phoneAndWatch) }
}

extension SimConductor {
    /// Sim mode of the built-in apps.
    public init(options: SimOptions = SimOptions()) { self.init(apps: .phoneAndWatch, options: options) }
}

extension SimDriver where Pair == PhoneWatchPair {
    /// A sim driver of the built-in apps.
    public convenience init(options: SimOptions = SimOptions()) { self.init(pair: PhoneWatchPair(), options: options) }

    /// The phone's exports of this run.
    public var exports: MemoryExportFolder { pair.exports }
}

extension ConductorOptions {
    /// Process mode of `phone-node` and `watch-node` in `binDirectory`, with their screens in
    /// the report.
    public static func phoneAndWatch(binDirectory: String) -> ConductorOptions {
        var o = ConductorOptions(binDirectory: binDirectory)
        o.reportScreens = PhoneWatchPair.screens
        return o
    }

    /// Process mode of this executable run as each node (`sync-sim node phone|watch`).
    public static func phoneAndWatchInThisExecutable() -> ConductorOptions {
        var o = ConductorOptions(phone: .thisExecutable(as: .phone), watch: .thisExecutable(as: .watch))
        o.reportScreens = PhoneWatchPair.screens
        return o
    }
}

/// The simulated network of the built-in apps.
public typealias PhoneWatchNetwork = SimulatedNetwork<PhoneApp, WatchApp>

/// The sim driver of the built-in apps.
public typealias PhoneWatchSimDriver = SimDriver<PhoneWatchPair>
