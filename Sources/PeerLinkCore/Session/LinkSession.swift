
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
    let sharedConfig: SharedLinkConfig
    /// The configuration the session was made with (held by reference: `SharedLinkConfig`).
    public var config: LinkConfig { sharedConfig.value }
    /// What survives restarts: the identity of both stores and each channel's durable slice.
    public internal(set) var persistent: LinkPersistent
    /// Every connection's phase (in the handshake, or the link) and the refusal log.
    var connections = ConnectionTable()
    /// The session's activation, the two apps' states and `isReachable`.
    var reach = Reachability()
    /// `WCSession.activationState`.
    public internal(set) var activationState: ActivationState {
        get { reach.activation }
        set { reach.activation = newValue }
    }
    /// When to connect next (connector only).
    var reconnect: Reconnect

    // MARK: Channels
    var userInfoChannel: UserInfoChannel
    var messages: MessageChannel
    var appContext = ContextChannel()
    var files: FileChannels

    /// What the session asks the shell to do, in order (`drainActions`), and whether the
    /// meta row must be written before the next send.
    var out = ActionBuffer()
    /// Counters for tests, reports and figures.
    public internal(set) var stats = LinkStats()
    /// Set when the last handshake found our store behind on files: the numbers the peer
    /// delivered from a history this store lost (it no longer knows it queued them). Read by
    /// the node with `selfLostData`; not persisted.
    public internal(set) var filesForgotten: ClosedRange<UInt64>?
    /// The latest (monotonic) time the shell reported; app calls without a `now` use it.
    public internal(set) var clockMs: EpochMs = 0

    public init(config: LinkConfig, persistent: LinkPersistent, seed: UInt64) {
        let shared = SharedLinkConfig(config)
        sharedConfig = shared
        var p = persistent
        userInfoChannel = UserInfoChannel(shared: shared, state: &p.userInfo)
        self.persistent = p
        files = FileChannels(send: FileSendChannel(shared: shared), receive: FileReceiveChannel(shared: shared, state: p.fileReceive))
        reconnect = Reconnect(shared: shared, seed: seed)
        messages = MessageChannel(shared: shared)
    }

    /// The shell's clock moved (called by the engine at every entry point).
    public mutating func onClock(now: EpochMs) {
        clockMs = max(clockMs, now)
        if connections.activeID != nil, active!.liveness.nowMs < now { active!.liveness.nowMs = now }
    }

    /// The actions produced since the last call, in order.
    public mutating func drainActions() -> [LinkAction] {
        flushMeta()
        return out.drain()
    }

    /// The actions produced since the last call, in order, into `taken` (emptied first);
    /// the session keeps `taken`'s storage for the next ones (`ActionBuffer.drain(into:)`).
    public mutating func drainActions(into taken: inout [LinkAction]) {
        flushMeta()
        out.drain(into: &taken)
    }

    /// Appends the scalar state's write when it changed.
    mutating func flushMeta() {
        guard metaDirty else { return }
        metaDirty = false
        var b = WriteBatch()
        LinkPersistence.metaWrite(persistent, into: &b)
        out.persist(b)
    }

    /// This node's app state (set by the app shell).
    public internal(set) var localAppState: AppState {
        get { reach.local }
        set { reach.local = newValue }
    }
    /// The peer's app state as last reported.
    public internal(set) var peerAppState: AppState? {
        get { reach.peer }
        set { reach.peer = newValue }
    }
    public internal(set) var isReachable: Bool {
        get { reach.isReachable }
        set { reach.isReachable = newValue }
    }
    /// The scalar state changed and must be written before the next send of an ack.
    var metaDirty: Bool {
        get { out.metaDirty }
        set { out.metaDirty = newValue }
    }
    /// Refusals logged in the current interval and those left out (`LinkConfig.refusalLogBurst`).
    var refusalLog: RefusalLog {
        get { connections.refusalLog }
        _modify { yield &connections.refusalLog }
    }

    /// The link that is up, changed in place (`active!.liveness.…`).
    var active: LinkUp? {
        get { connections.active }
        _modify { yield &connections.active }
    }

    // MARK: - State (WCSession properties)

    /// When the shell should next try to connect; nil while connected or not a connector.
    public var nextConnectAtMs: EpochMs? { reconnect.nextConnectAtMs }

    /// True while an authenticated connection to the peer is up.
    public var isConnected: Bool { connections.activeID != nil }

    /// The authenticated connection, if any.
    public var activeConnectionID: ConnectionID? { connections.activeID }

    /// Frames sent and received on the authenticated connection since it came up: when the
    /// two sides' counts match crosswise, nothing is in flight between them.
    public var activeFrameCounts: (sent: Int, received: Int)? { active.map { ($0.liveness.framesSent, $0.liveness.framesReceived) } }

    /// Connections still in the pairing handshake.
    public var handshakesInProgress: Int { connections.handshakeCount }

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
        if let id = connections.activeID {
            out.close(id, reason: "the session was deactivated")
            onConnectionClosed(id, now: now)
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
        if let id = connections.activeID { send(id, Frame(.appState, [state.flags])) }
        if launched { flushInbox() }
        updateReachability()
    }

    func computeReachable() -> Bool {
        reach.compute(role: config.role, linkUp: connections.activeID != nil)
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
        guard connections.activeID == id else { return }
        active!.liveness.noteSent(kind)
    }

    mutating func emitLog(_ level: LogLevel, _ message: String) {
        out.log(level, message)
    }

    mutating func persist(_ body: (inout WriteBatch) -> Void) {
        out.persist(body)
    }
}
