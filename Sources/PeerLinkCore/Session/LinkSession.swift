
/// The WatchConnectivity session of one node, as a pure state machine.
///
/// Inputs are `on…` methods (connection opened, frame, closed, tick) and the app API
/// (`activate`, `sendMessage`, `updateApplicationContext`, `transferUserInfo`,
/// `transferCurrentComplicationUserInfo`, `transferFile`…); outputs are `LinkAction`s collected
/// in order and taken with `drainActions()`. It never touches a socket, a file or a clock: the
/// shell does, and the same core runs over TCP and over the simulated network.
///
/// Roles: the phone listens, the watch connects. Each connection first runs the pairing
/// handshake (`LinkSession+Handshake`, a Noise handshake with the pairing secret as
/// pre-shared key); only then does it carry channel frames, sealed by the engine's wire
/// with the keys the handshake gave (`LinkAction.startSealing`).
public struct LinkSession: Sendable {
    public let config: LinkConfig
    public internal(set) var persistent: LinkPersistent

    public internal(set) var activationState: ActivationState = .notActivated

    // MARK: Connections
    var handshakes: [ConnectionID: Handshake] = [:]
    var active: ActiveConnection?
    /// Refusals logged in the current interval and those left out (`LinkConfig.refusalLogBurst`).
    var refusalLog = RefusalLog()

    // MARK: Reachability
    /// This node's app state (set by the app shell).
    public internal(set) var localAppState = AppState()
    /// The peer's app state as last reported.
    public internal(set) var peerAppState: AppState?
    public internal(set) var isReachable = false

    // MARK: Reconnect (connector only)
    var reconnect: Reconnect

    // MARK: Channels
    var userInfoChannel: UserInfoChannel
    var messages: MessageChannel
    var appContext = ContextChannel()
    var fileSend: FileSendChannel
    var fileReceive: FileReceiveChannel


    /// What the session asks the shell to do, in order (`drainActions`).
    var out = ActionBuffer()
    /// The scalar state changed and must be written before the next send of an ack.
    var metaDirty = false

    /// Counters for tests, reports and figures.
    public internal(set) var stats = LinkStats()
    /// The latest (monotonic) time the shell reported; app calls without a `now` use it.
    public internal(set) var clockMs: EpochMs = 0

    public init(config: LinkConfig, persistent: LinkPersistent, seed: UInt64) {
        self.config = config
        var p = persistent
        userInfoChannel = UserInfoChannel(config: config, state: &p.userInfo)
        self.persistent = p
        fileReceive = FileReceiveChannel(config: config, state: p.fileReceive)
        reconnect = Reconnect(config: config, seed: seed)
        messages = MessageChannel(config: config)
        fileSend = FileSendChannel(config: config)
    }

    /// The shell's clock moved (called by the engine at every entry point).
    public mutating func onClock(now: EpochMs) {
        clockMs = max(clockMs, now)
        if active?.id != nil, active!.nowMs < now { active!.nowMs = now }
    }

    /// The actions produced since the last call, in order.
    public mutating func drainActions() -> [LinkAction] {
        flushMeta()
        return out.drain()
    }

    /// Appends the scalar state's write when it changed.
    mutating func flushMeta() {
        guard metaDirty else { return }
        metaDirty = false
        var b = WriteBatch()
        LinkPersistence.metaWrite(persistent, into: &b)
        out.persist(b)
    }

    // MARK: - State (WCSession properties)

    /// When the shell should next try to connect; nil while connected or not a connector.
    public var nextConnectAtMs: EpochMs? { reconnect.nextConnectAtMs }

    /// True while an authenticated connection to the peer is up.
    public var isConnected: Bool { active?.id != nil }

    /// The authenticated connection, if any.
    public var activeConnectionID: ConnectionID? { active?.id }

    /// Frames sent and received on the authenticated connection since it came up: when the
    /// two sides' counts match crosswise, nothing is in flight between them.
    public var activeFrameCounts: (sent: Int, received: Int)? { active.map { ($0.framesSent, $0.framesReceived) } }

    /// Connections still in the pairing handshake.
    public var handshakesInProgress: Int { handshakes.count }

    /// `isPaired`: this node holds a pairing secret (meaningful once activated).
    public var isPaired: Bool { activationState == .activated && config.pairingSecret != nil }

    /// `isWatchAppInstalled` (phone): a watch with this pairing has authenticated at least once.
    public var isWatchAppInstalled: Bool { activationState == .activated && persistent.peerEverSeen }

    /// `isComplicationEnabled` (phone): the watch last reported its complication on the active face.
    public var isComplicationEnabled: Bool { activationState == .activated && persistent.peerComplicationEnabled }

    /// The failure for a call that needs an activated, paired session; nil when it may go on.
    func readinessError() -> WCError? {
        switch activationState {
        case .notActivated: return WCError(.sessionNotActivated)
        case .inactive: return WCError(.sessionInactive)
        case .activated: return config.pairingSecret == nil ? WCError(.deviceNotPaired) : nil
        }
    }

    // MARK: - Activation

    /// `activate()`: the session becomes usable; completion is reported as an event.
    public mutating func activate() {
        guard activationState != .activated else { return }
        activationState = .activated
        out.deliver(.activationDidComplete(.activated))
        flushInbox()
        updateReachability()
    }

    /// iOS only: the user switched to another watch. The session becomes inactive (pending
    /// messages fail with `sessionInactive`), then deactivated (the link is closed); the app
    /// calls `activate()` again. Returns false on the watch (watchOS has no such states).
    @discardableResult
    public mutating func switchPairedWatch(now: EpochMs) -> Bool {
        guard config.role == .phone, activationState == .activated else { return false }
        activationState = .inactive
        out.deliver(.sessionDidBecomeInactive)
        failPendingMessages(WCError(.sessionInactive, "the session became inactive"), connection: nil)
        activationState = .notActivated
        if let a = active {
            out.close(a.id, reason: "the session was deactivated")
            onConnectionClosed(a.id, now: now)
        }
        updateReachability()
        out.deliver(.sessionDidDeactivate)
        return true
    }

    // MARK: - App state and reachability

    /// The app's own state changed (foreground, background, workout, launched…).
    public mutating func setLocalAppState(_ state: AppState) {
        guard state != localAppState else { return }
        let launched = !localAppState.isRunning && state.isRunning
        localAppState = state
        if let a = active { send(a.id, Frame(.appState, [state.flags])) }
        if launched { flushInbox() }
        updateReachability()
    }

    func computeReachable() -> Bool {
        guard active?.id != nil, activationState == .activated else { return false }
        switch config.role {
        case .watch: return localAppState.watchAppReachable
        case .phone: return peerAppState?.watchAppReachable ?? false
        }
    }

    mutating func updateReachability() {
        let r = computeReachable()
        if r != isReachable {
            isReachable = r
            out.deliver(.reachabilityDidChange(r))
        }
    }

    /// The peer reported its app state (appState, ping, pong, handshake).
    mutating func onPeerAppState(_ s: AppState) {
        if s != peerAppState { out.deliver(.peerAppStateDidChange(s)) }
        peerAppState = s
        if config.role == .phone, s.complicationEnabled != persistent.peerComplicationEnabled {
            persistent.peerComplicationEnabled = s.complicationEnabled
            metaDirty = true
            out.deliver(.watchStateDidChange)
        }
        updateReachability()
    }

    // MARK: - Output helpers

    mutating func send(_ id: ConnectionID, _ frame: Frame) {
        out.send(id, frame)
        countSent(id, frame.kind)
    }

    /// The liveness bookkeeping of the frames a channel appended since `mark` (`countSent`
    /// of each, in order: what `send` does at once for the session's own frames).
    mutating func noteSends(since mark: Int) {
        guard out.count > mark else { return }
        for action in out.actions[mark...] {
            switch action {
            case .send(let id, let frame): countSent(id, frame.kind)
            case .sendFileChunk(let id, _, _, _, _): countSent(id, .fileChunk)
            case .sendFileEnd(let id, _, _, _): countSent(id, .fileEnd)
            default: break
            }
        }
    }

    mutating func countSent(_ id: ConnectionID, _ kind: FrameKind? = nil) {
        stats.framesSent += 1
        guard active?.id == id else { return }
        // Changed in place (`active!`): a copy taken out and written back costs a retain and
        // a release of every buffer the connection holds, for every frame sent.
        active!.lastSentMs = active!.nowMs
        active!.framesSent += 1
        switch kind {
        case .userInfo?, .userInfoCancel?, .context?, .fileOffer?, .fileChunk?, .fileEnd?, .fileCancel?: active!.noteDataSent()
        case .ping?: active!.pingsSent += 1
        default: break
        }
    }

    mutating func emitLog(_ level: LogLevel, _ message: String) {
        out.log(level, message)
    }

    mutating func persist(_ body: (inout WriteBatch) -> Void) {
        out.persist(body)
    }
}
