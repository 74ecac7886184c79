import Foundation
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkWatchConnectivity

/// A side of a WatchConnectivity app as a node process (process mode, or by hand): the
/// command line every PeerLinkPOSIX node speaks (`NodeMain`), the side's storage under
/// `STATE/wc` (its inbox and `watchDirectoryURL`, the app's saved state), the delegate's
/// calls on the node's one thread.
public enum WCNodeMain {
    /// Runs `side` as `role` with `arguments`; returns the exit status.
    public static func run<Side: WCAppSide>(_ side: Side.Type, role: DeviceRole, _ arguments: [String], programName: String) -> Int32 {
        let state = (try? NodeCommandLine(arguments: arguments, role: role, subcommands: ["pair"]))?.stateDirectory ?? ".state/\(role.rawValue)"
        let storage = WCSideStorage(persistentDirectory: URL(fileURLWithPath: state).appendingPathComponent("wc", isDirectory: true))
        return NodeMain.run(role: role, arguments, programName: programName) { WCNodeApp<Side>(storage: storage) }
    }
}
