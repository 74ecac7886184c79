import PeerLinkCore
import PeerLinkSim

/// What a driver reports once both nodes and the link are quiet.
public struct QuietState: Sendable, Equatable {
    public var phoneConnected: Bool
    public var watchConnected: Bool
    /// Both nodes have nothing outstanding (no user info awaiting acknowledgement, no
    /// replica delta in flight).
    public var nothingOutstanding: Bool
    /// The earliest timer of either node or the link (held frames); nil for none.
    public var nextEventMs: EpochMs?
    /// The same, leaving out the timers that only keep an idle healthy link alive
    /// (heartbeats, silence checks): what a fast-forward over a healthy idle link stops at.
    public var nextWorkEventMs: EpochMs?
    /// A handshake or connection attempt is under way on either node.
    public var connecting: Bool = false

    public init(phoneConnected: Bool, watchConnected: Bool, nothingOutstanding: Bool, nextEventMs: EpochMs?,
                nextWorkEventMs: EpochMs? = nil, connecting: Bool = false) {
        self.phoneConnected = phoneConnected
        self.watchConnected = watchConnected
        self.nothingOutstanding = nothingOutstanding
        self.nextEventMs = nextEventMs
        self.nextWorkEventMs = nextWorkEventMs
        self.connecting = connecting
    }
}

/// Runs the two nodes for the scenario runner: as processes over TCP or in one process.
///
/// Every method is called from the runner's one thread, in virtual time.
public protocol ScenarioDriver: AnyObject {
    /// `process` or `sim`.
    var modeName: String { get }
    /// Starts both nodes, paired and connected, at the scenario's start.
    func start(_ scenario: Scenario) throws
    /// Stops everything; returns notes for the report (e.g. where state was kept).
    func stop(keepState: Bool) -> [String]
    /// Sends a command to a node.
    func call(_ role: DeviceRole, _ command: String) throws -> Result<PlistValue, NodeCallError>
    /// Waits until both nodes are idle and nothing deliverable is in flight.
    func settle() throws -> QuietState
    /// Moves both nodes' monotonic clocks (and the link's) to `ms`. With `idleLink`, the
    /// time passed over a healthy idle link: heartbeats count as exchanged.
    func advanceClocks(to ms: EpochMs, idleLink: Bool) throws
    /// Sets a node's wall-clock offset from its monotonic clock. A killed node keeps it for its
    /// restart, which starts it on that clock.
    func setWallOffset(_ role: DeviceRole, _ offsetMs: Int64) throws
    /// Replaces the link faults.
    func setFaults(_ faults: LinkFaults) throws
    /// Drops the current connection now.
    func resetConnection() throws
    /// `kill -9`.
    func kill(_ role: DeviceRole) throws
    /// Starts a killed node over its store.
    func restart(_ role: DeviceRole) throws
    /// Writes random bytes into a (killed) node's store file.
    func corruptStore(_ role: DeviceRole, seed: UInt64) throws
    /// Drops the last commits of a (killed) node's store: it stays consistent but older.
    /// Returns how many commits were dropped.
    func rollBackStore(_ role: DeviceRole, seed: UInt64) throws -> Int
    /// Changes bytes of the (killed) node's partial incoming file at `path` (in its files)
    /// within its first `committedBytes`; returns what was changed, or nil when there is no such file.
    func damagePartialFile(_ role: DeviceRole, path: String, committedBytes: Int64, seed: UInt64) throws -> String?
    /// A stranger opens a connection straight to the phone and sends `bytes` (a pairing
    /// attempt without the secret); returns what the phone answered before closing.
    func injectStranger(_ bytes: [UInt8]) throws -> [UInt8]
    /// Whether the node is running.
    func isRunning(_ role: DeviceRole) -> Bool
    /// Frame timeline lines recorded since the last call.
    func takeTimeline() -> [String]
    /// SHA-256 (hex) of the run's trace: `timeline` and whatever else the driver recorded;
    /// nil for a mode that is not deterministic, or a run that records no trace (sweeps).
    func traceHash(timeline: [String]) -> String?
    /// Checks the driver made along the way (e.g. invariants), added to the result at the end.
    func finalChecks() -> [CheckOutcome]
    /// The nodes' log lines (warnings and errors at least), for the report.
    func nodeLogs() -> [String]
    /// The run's frames as data (send and arrival times, size, fate), one per frame line of
    /// the timeline; empty unless the driver records them. Called once, at the end.
    func takeFrames() -> [FrameRecord]
    /// `screens` of the running node `role` drawn (`show SCREEN --svg`), by screen name.
    /// Read-only: asking changes nothing about the run.
    func captureScreens(_ role: DeviceRole, _ screens: [String]) -> [String: String]
    /// The screens the HTML report draws at its moments (`show SCREEN --svg`).
    var reportScreens: [(DeviceRole, String)] { get }
    /// The running node's partial incoming file: its path in the node's files and the bytes
    /// committed; nil when it has none or is not running. Read-only, as
    /// `query sync-state incomingFile` (what the default asks).
    func partialIncomingFile(_ role: DeviceRole) throws -> (path: String, committedBytes: Int64)?
}

extension ScenarioDriver {
    public func traceHash(timeline: [String]) -> String? { nil }
    public func finalChecks() -> [CheckOutcome] { [] }
    public func nodeLogs() -> [String] { [] }
    public func takeFrames() -> [FrameRecord] { [] }
    public func captureScreens(_ role: DeviceRole, _ screens: [String]) -> [String: String] { [:] }
    public var reportScreens: [(DeviceRole, String)] { [] }
    public func partialIncomingFile(_ role: DeviceRole) throws -> (path: String, committedBytes: Int64)? {
        guard case .success(let f) = try call(role, "query sync-state incomingFile"),
              let committed = f["committedBytes"]?.intValue, let path = f["path"]?.stringValue else { return nil }
        return (path, committed)
    }
}
