import Foundation
import PeerLinkCore
import PeerLinkScenarios
import PeerLinkWatchConnectivity

/// Two sides of a WatchConnectivity app as a pair the scenario runner and sweeps run: each
/// side's app object in a `WCNodeApp`, over storage (a real directory, the app's saved state)
/// that outlives the side's restarts but not the run.
///
///     let apps = SimApps.watchConnectivity("shopping-list", phone: ListPhone.self, watch: ListWatch.self)
///     let result = SimConductor(apps: apps).run(scenario)
public struct WCAppPair<Phone: WCAppSide, Watch: WCAppSide>: AppPair {
    let storage: WCPairStorage

    public init() { storage = WCPairStorage() }

    public func makePhone() -> WCNodeApp<Phone> { WCNodeApp(storage: storage.phone) }
    public func makeWatch() -> WCNodeApp<Watch> { WCNodeApp(storage: storage.watch) }
}

extension SimApps {
    /// The WatchConnectivity app whose sides are `phone` and `watch`, by `name`.
    public static func watchConnectivity<P: WCAppSide, W: WCAppSide>(_ name: String, phone: P.Type, watch: W.Type) -> SimApps {
        SimApps(name) { WCAppPair<P, W>() }
    }
}

/// A run's directories for both sides, under the temporary directory, removed with the pair.
final class WCPairStorage: @unchecked Sendable {
    // Unchecked: made once, then only read.
    let root: URL
    let phone: WCSideStorage
    let watch: WCSideStorage

    private static let lock = NSLock()
    nonisolated(unsafe) private static var made = 0

    init() {
        Self.lock.lock()
        Self.made += 1
        let n = Self.made
        Self.lock.unlock()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("peerlink-wc-\(ProcessInfo.processInfo.processIdentifier)-\(n)", isDirectory: true)
        phone = WCSideStorage(directory: root.appendingPathComponent("phone", isDirectory: true))
        watch = WCSideStorage(directory: root.appendingPathComponent("watch", isDirectory: true))
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}
