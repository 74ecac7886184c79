import Shared

/// The WatchConnectivity session of one node, as a pure state machine.
///
/// Inputs are `on…` methods (connection opened, frame, closed, tick) and the app API
/// (`activate`, `transferUserInfo`…); outputs are `LinkAction`s collected in order and taken
/// with `drainActions()`. It never touches a socket, a file or a clock: the shell does, and
/// the same core runs over TCP and over the simulated network.
///
/// Roles: the phone listens, the watch connects. Each connection first runs the pairing
/// handshake (`LinkSession+Handshake`); only then does it carry channel frames.
public struct LinkSession: Sendable {
    public let config: LinkConfig
    public internal(set) var persistent: LinkPersistent
    var outbox: OutboxQueue
    public internal(set) var activationState: ActivationState = .notActivated

    // MARK: Connections
    var handshakes: [ConnectionID: Handshake] = [:]
    var active: ActiveConnection?

    // MARK: Reachability
    /// This node's app state (set by the app shell).
    public internal(set) var localAppState = AppState()
    /// The peer's app state as last reported.
    public internal(set) var peerAppState: AppState?
    public internal(set) var isReachable = false

    // MARK: Reconnect (connector only)
    var rng: SplitMix64
    var reconnectAttempt = 0
    /// When the shell should next try to connect; nil while connected or not a connector.
    public internal(set) var nextConnectAtMs: EpochMs?

    var actions: [LinkAction] = []
    /// An acknowledgement is owed for delivered user info (sent by `endOfInput`).
    var ackOwed = false

    /// Counters for tests, reports and figures.
    public internal(set) var stats = LinkStats()

    public init(config: LinkConfig, persistent: LinkPersistent, seed: UInt64) {
        self.config = config
        self.outbox = OutboxQueue(persistent.outbox)
        var p = persistent
        p.outbox = []
        self.persistent = p
        self.rng = SplitMix64(seed: seed)
        if config.role == .watch { nextConnectAtMs = 0 }
    }

    /// The actions produced since the last call, in order.
    public mutating func drainActions() -> [LinkAction] {
        defer { actions = [] }
        return actions
    }

    /// True while an authenticated connection to the peer is up.
    public var isConnected: Bool { active != nil }

    /// Frames sent and received on the authenticated connection since it came up: when the
    /// two sides' counts match crosswise, nothing is in flight between them.
    public var activeFrameCounts: (sent: Int, received: Int)? { active.map { ($0.framesSent, $0.framesReceived) } }

    /// Connections still in the pairing handshake.
    public var handshakesInProgress: Int { handshakes.count }

    /// `isPaired`: this node holds a pairing secret (meaningful once activated).
    public var isPaired: Bool { activationState == .activated && config.pairingSecret != nil }

    /// `isWatchAppInstalled` (phone): a watch with this pairing has authenticated at least once.
    public var isWatchAppInstalled: Bool { activationState == .activated && persistent.peerEverSeen }

    /// `isComplicationEnabled` (phone): the watch reports its complication on the active face.
    public var isComplicationEnabled: Bool { activationState == .activated && (peerAppState?.complicationEnabled ?? false) }

    // MARK: - Activation

    /// `activate()`: the session becomes usable; completion is reported as an event.
    public mutating func activate() {
        guard activationState != .activated else { return }
        activationState = .activated
        actions.append(.deliver(.activationDidComplete(.activated)))
    }

    // MARK: - App state and reachability

    /// The app's own state changed (foreground, background, workout…).
    public mutating func setLocalAppState(_ state: AppState) {
        guard state != localAppState else { return }
        localAppState = state
        if let a = active { send(a.id, Frame(.appState, [state.flags])) }
        updateReachability()
    }

    func computeReachable() -> Bool {
        guard active != nil, activationState == .activated else { return false }
        switch config.role {
        case .watch: return localAppState.watchAppReachable
        case .phone: return peerAppState?.watchAppReachable ?? false
        }
    }

    mutating func updateReachability() {
        let r = computeReachable()
        if r != isReachable {
            isReachable = r
            actions.append(.deliver(.reachabilityDidChange(r)))
        }
    }

    // MARK: - Output helpers

    mutating func send(_ id: ConnectionID, _ frame: Frame) {
        actions.append(.send(id, frame))
        stats.framesSent += 1
        if var a = active, a.id == id {
            a.lastSentMs = a.nowMs
            a.framesSent += 1
            active = a
        }
    }

    mutating func emitLog(_ level: LogLevel, _ message: String) {
        actions.append(.log(level, message))
    }
}

/// Counters a session keeps about itself.
public struct LinkStats: Sendable, Equatable {
    public var framesSent = 0
    public var framesReceived = 0
    public var userInfoDelivered = 0
    public var userInfoDuplicatesDropped = 0
    public var retransmits = 0
    public var connectionsRejected = 0
    public init() {}
}

/// The authenticated connection.
struct ActiveConnection: Sendable, Equatable {
    var id: ConnectionID
    var peerIncarnation: UInt64
    /// The latest time the session was told about (ticks and events).
    var nowMs: EpochMs
    var lastHeardMs: EpochMs
    var lastSentMs: EpochMs
    /// The highest outbox seq sent on this connection.
    var sentThrough: UInt64
    /// When the peer last acknowledged new progress (or when sending began).
    var lastProgressMs: EpochMs
    /// Frames sent and received on this connection since it came up (after the handshake).
    var framesSent = 0
    var framesReceived = 0
}
