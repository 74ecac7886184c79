import PeerLinkCore
import PeerLinkScenarios

/// The two apps as a pair the scenario runner and sweeps run.
public struct WaterLogPair: AppPair {
    public init() {}
    public func makePhone() -> WaterPhone { WaterPhone() }
    public func makeWatch() -> WaterWatch { WaterWatch() }
}

extension SimApps {
    public static let waterLog = SimApps("water-log") { WaterLogPair() }
}
