import PeerLinkCore

/// An in-memory network between a phone and a watch `NodeEngine`, on a virtual clock with a
/// seeded generator: the deterministic shell.
///
/// Time moves only through `advance(to:)`, `advance(by:)` and `runUntilQuiet(maxMs:)`; every
/// random choice (nonces, latency jitter, faults, seeds of rebuilt nodes) comes from one
/// `SplitMix64`, so the same seed and the same calls give the same `trace`, line for line.
/// Faults (`faults`, `setLink(up:)`, `resetConnection()`, `crash(_:)`) can be injected at
/// any time. Both nodes' stores (`MemoryStore`) and files (`MemoryFileStorage`) outlive a
/// crash: what was committed survives, the rest is lost.
public final class SimulatedNetwork<Phone: NodeApp, Watch: NodeApp> {
    /// How to (re)build a node.
    public struct NodeSetup<App: NodeApp> {
        public var makeApp: () -> App
        public var config: LinkConfig
        public var calendar: LocalCalendar
        public var language: AppLanguage
        /// Where the node's exports go (`AppEffect.export`); nil: it has no export folder.
        public var exports: (any ExportFolder)?

        public init(makeApp: @escaping () -> App, config: LinkConfig, calendar: LocalCalendar, language: AppLanguage = .ja,
                    exports: (any ExportFolder)? = nil) {
            self.makeApp = makeApp
            self.config = config
            self.calendar = calendar
            self.language = language
            self.exports = exports
        }
    }

    // MARK: - State
    // The network runs on its caller's thread and calls out (observer, relay) only between
    // its own accesses, never inside one: its variables skip Swift's run-time exclusivity
    // check (`@exclusivity(unchecked)`, as NodeEngine's; docs/BENCHMARKS.md).
    //
    // The variables other modules read at every step (the clock, the two engines, the trace)
    // are stored under other names and read through computed properties. Swift still checks,
    // at run time, a direct access to a generic class's stored property compiled in another
    // module, `@exclusivity(unchecked)` notwithstanding (checking the driver's reads of these
    // four cost 0.7 % of the simulated hour; docs/BENCHMARKS.md); the accessor is compiled here.
    @exclusivity(unchecked) var clockMs: EpochMs
    @exclusivity(unchecked) var phoneEngine: NodeEngine<Phone>
    @exclusivity(unchecked) var watchEngine: NodeEngine<Watch>
    @exclusivity(unchecked) var traceLines: [String] = []

    /// The virtual clock (monotonic ms).
    public internal(set) var now: EpochMs {
        get { clockMs }
        set { clockMs = newValue }
    }
    public internal(set) var phone: NodeEngine<Phone> {
        get { phoneEngine }
        set { phoneEngine = newValue }
    }
    public internal(set) var watch: NodeEngine<Watch> {
        get { watchEngine }
        set { watchEngine = newValue }
    }
    public let phoneStore = MemoryStore()
    public let watchStore = MemoryStore()
    public let phoneFiles = MemoryFileStorage()
    public let watchFiles = MemoryFileStorage()
    /// The faults in force (change them at any time): the one fault model of the scenario
    /// language, the fault proxy of process mode, and this network (`LinkFaults`). Latency ±
    /// jitter is a base of latency − jitter plus a uniform 0…2×jitter per frame (frames in order
    /// never overtake each other). `down` is applied by `setFaults(_:)` or `setLink(up:)`, which
    /// cut the connection; assigning this property alone leaves the link's range as it is.
    /// 2 ms of latency until set.
    @exclusivity(unchecked) public var faults = LinkFaults.simulatedDefault
    /// A relay on the link (tests: an attacker on the wire). It is given each write the link
    /// carries — whole records — with its sender and connection, and what it returns is carried
    /// instead: changed, dropped, repeated, or with writes of its own.
    @exclusivity(unchecked) public var relay: ((_ from: DeviceRole, _ connection: ConnectionID, _ bytes: [UInt8]) -> [[UInt8]])?
    /// False while the link is down (out of range): connections fail, the current one is cut.
    @exclusivity(unchecked) public internal(set) var isLinkUp = true
    /// One line per frame and per network event: `time direction kind fate`.
    public var trace: [String] { traceLines }
    /// The frames of `trace` as data (send and arrival times, size, fate), kept only with
    /// `recordsFrames` (the run report); the trace and its hash do not depend on it.
    @exclusivity(unchecked) public internal(set) var frames: [FrameRecord] = []
    /// Keep `frames` (needs `recordsTrace`: frames are labelled only then).
    @exclusivity(unchecked) public var recordsFrames = false
    /// The nodes' log lines, with time and role.
    @exclusivity(unchecked) public internal(set) var logs: [String] = []
    /// Set when a node's store failed to commit.
    @exclusivity(unchecked) public internal(set) var fatal: String?
    /// The nodes that are killed and not restarted yet (see `kill(_:)`).
    public var down: Set<DeviceRole> { Set(DeviceRole.allCases.filter(isDown)) }
    /// `down` as a flag per role: asked several times per event, and a `Set`'s `contains` hashed.
    @exclusivity(unchecked) var downRoles = PerRole(both: false)
    /// The device clock's offset a killed node is started with, when it was set while the node
    /// was down (the device's clock kept running, and was moved, while the app was dead).
    @exclusivity(unchecked) var offsetAtRestart = PerRole<Int64?>(both: nil)
    /// Called after every entry point of a node (its batch committed, before its frames go
    /// out): lets an observer look at the node's state step by step.
    @exclusivity(unchecked) public var observer: ((DeviceRole) -> Void)?
    /// False: `trace` is not kept (sweeps that only need the outcome run faster).
    @exclusivity(unchecked) public var recordsTrace = true {
        didSet { phone.summarizesFrames = recordsTrace; watch.summarizesFrames = recordsTrace }
    }

    let phoneSetup: NodeSetup<Phone>
    let watchSetup: NodeSetup<Watch>
    @exclusivity(unchecked) var rng: SplitMix64
    @exclusivity(unchecked) var queue = SimEventQueue()
    @exclusivity(unchecked) var generation = PerRole<Int>(both: 0)
    @exclusivity(unchecked) var nextConnection: ConnectionID = 1
    /// The connection between the two nodes, when one is open.
    @exclusivity(unchecked) var link: SimLink?
    /// Connections opened to the phone by `injectConnection` (raw bytes, not a node).
    @exclusivity(unchecked) var rawConnections: Set<ConnectionID> = []
    /// What the phone wrote on each raw connection (see `rawReply(_:)`).
    @exclusivity(unchecked) var rawReplies: [ConnectionID: [UInt8]] = [:]
    @exclusivity(unchecked) var connecting = false
    /// Per direction: when the wire is free again (bandwidth) and the last in-order arrival.
    @exclusivity(unchecked) var wireFreeAt = PerRole<EpochMs>(both: 0)
    @exclusivity(unchecked) var lastArrival = PerRole<EpochMs>(both: 0)
    @exclusivity(unchecked) var tickedAt = PerRole<EpochMs>(both: -1)
    /// Names the frames of the timeline (and marks retries).
    @exclusivity(unchecked) var labeler = FrameLabeler()
    /// Per node (phone, watch): its deadlines as of its last entry point (see `deadline`).
    @exclusivity(unchecked) var deadlines: [(all: EpochMs?, work: EpochMs?)?] = [nil, nil]
    /// An empty array with room, lent to each `route` and handed back (see `NodeProcess`).
    @exclusivity(unchecked) var spareOutputs: [NodeOutput] = []
    /// The pairs of `X25519.SimulatorKeys` this network's connections used (`ephemeralKeyPair`).
    @exclusivity(unchecked) var usedKeyPairs = Set<Int>()

    /// Builds both nodes over empty stores at `startMs`.
    public init(seed: UInt64, startMs: EpochMs, phone phoneSetup: NodeSetup<Phone>, watch watchSetup: NodeSetup<Watch>) throws {
        self.clockMs = startMs
        self.phoneSetup = phoneSetup
        self.watchSetup = watchSetup
        rng = SplitMix64(seed: seed)
        phoneStore.undoJournalLimit = Self.undoJournalCommits
        watchStore.undoJournalLimit = Self.undoJournalCommits
        var r = rng
        phoneEngine = try Self.build(phoneSetup, role: .phone, store: phoneStore, files: phoneFiles, now: startMs, rng: &r)
        watchEngine = try Self.build(watchSetup, role: .watch, store: watchStore, files: watchFiles, now: startMs, rng: &r)
        rng = r
        phone.summarizesFrames = true
        watch.summarizesFrames = true
        route(.phone)
        route(.watch)
    }

    /// How many of its latest commits each store can undo (`rollBack(_:commits:)`).
    public static var undoJournalCommits: Int { 256 }

    /// `wallOffsetMs`: the node's wall-clock offset when it starts (a restarted node's device
    /// clock is as wrong as it was before).
    static func build<App: NodeApp>(_ s: NodeSetup<App>, role: DeviceRole, store: MemoryStore, files: MemoryFileStorage, now: EpochMs,
                                    wallOffsetMs: Int64 = 0, rng: inout SplitMix64) throws -> NodeEngine<App> {
        let seed = rng.next(), incarnation = rng.next() | 1
        do {
            return try NodeEngine(app: s.makeApp(), role: role, store: store, config: s.config, calendar: s.calendar, language: s.language,
                                  now: now, wallOffsetMs: wallOffsetMs, seed: seed, newIncarnation: incarnation, files: files, exports: s.exports)
        } catch let e as StoreCorruption {
            store.reset()
            return try NodeEngine(app: s.makeApp(), role: role, store: store, config: s.config, calendar: s.calendar, language: s.language,
                                  now: now, wallOffsetMs: wallOffsetMs, seed: seed, newIncarnation: incarnation,
                                  opening: .resetAfterCorruption(reason: e.reason, quarantinedAs: "memory"), files: files, exports: s.exports)
        }
    }

    // MARK: - Faults

    /// Brings the link down (cutting the connection: both sides see it close) or up.
    /// Puts `f` in force, its `down` included (the scenario runner's way in).
    public func setFaults(_ f: LinkFaults) {
        setLink(up: !f.down)
        faults = f
    }

    /// The latency every frame has (latency − jitter, at least 0).
    public var baseLatencyMs: EpochMs { max(0, faults.latencyMs - max(0, faults.jitterMs)) }
    /// The uniform extra latency's range, 0…this (twice the jitter).
    public var jitterSpreadMs: EpochMs { max(0, faults.jitterMs) * 2 }

    public func setLink(up: Bool) {
        guard up != isLinkUp else { return }
        isLinkUp = up
        note("\(now) link \(up ? "up" : "down")")
        if !up { cut(reason: "link down") }
    }

    /// Resets the current connection (both sides see it close at once); the watch reconnects.
    public func resetConnection() {
        note("\(now) reset")
        cut(reason: "connection reset")
    }

    /// Kills `role` (kill -9) and starts it again over the same store and files.
    public func crash(_ role: DeviceRole) throws {
        kill(role, note: "crash")
        try restart(role, note: nil)
    }

    /// Opens a connection to the phone that is not the watch and sends it `bytes` (garbage,
    /// a stranger's handshake…). Returns its connection id.
    @discardableResult
    /// `direct`: the bytes arrive at once (a connection that does not cross the faulty link).
    public func injectConnection(bytes: [UInt8], direct: Bool = false) -> ConnectionID {
        let id = nextConnection
        nextConnection += 1
        rawConnections.insert(id)
        note("\(now) raw connection \(id) opened (\(bytes.count) bytes)")
        phone.connectionOpened(id, isInitiator: false, ephemeralKey: ephemeralKey(), now: now)
        route(.phone)
        queue.push(now + (direct ? 0 : baseLatencyMs), .bytes(conn: id, to: .phone, generation: generation[.phone], bytes: bytes))
        return id
    }

    /// True while the raw connection `id` is still open at the phone.
    public func isRawConnectionOpen(_ id: ConnectionID) -> Bool { rawConnections.contains(id) }

    /// The bytes the phone wrote on the raw connection `id` so far.
    public func rawReply(_ id: ConnectionID) -> [UInt8] { rawReplies[id] ?? [] }

    // MARK: - Commands

    /// The language `role`'s node speaks.
    public func language(_ role: DeviceRole) -> AppLanguage { role == .phone ? phoneSetup.language : watchSetup.language }

    /// Runs a node command (as a scenario step would) at the current time.
    @discardableResult
    public func command(_ role: DeviceRole, _ line: String) -> CommandReply {
        guard let c = NodeCommand(line: line) else {
            return .error(L10n.shellUnclosedQuote(line)(language(role)))
        }
        return command(role, c)
    }

    /// Runs an already parsed node command at the current time.
    @discardableResult
    public func command(_ role: DeviceRole, _ c: NodeCommand) -> CommandReply {
        // As a node process does: a command that only reads is answered in place, with
        // nothing to route or observe.
        if let r = role == .phone ? phone.readOnlyCommand(c, now: now) : watch.readOnlyCommand(c, now: now) { return r }
        let r = role == .phone ? phone.command(c, now: now, readOnlyAsked: true) : watch.command(c, now: now, readOnlyAsked: true)
        route(role)
        return r
    }

    /// Lets the test act on a node's context (the app's calls) at the current time.
    public func withPhone<R>(_ body: (inout NodeContext) -> R) -> R {
        let r = phone.withContext(now: now, body)
        route(.phone)
        return r
    }

    /// Lets the test act on the watch's context at the current time.
    public func withWatch<R>(_ body: (inout NodeContext) -> R) -> R {
        let r = watch.withContext(now: now, body)
        route(.watch)
        return r
    }

    /// 32 bytes from the network's seeded generator: a node's Noise ephemeral private key
    /// for a connection (the process shell's come from the system's secure generator).
    func ephemeralKey() -> [UInt8] {
        rng.nextBytes(X25519.keyBytes)
    }

    /// The ephemeral private keys of a new connection between the nodes: a pair of the
    /// simulator's pool (`X25519.SimulatorKeys`, whose public keys and secrets are computed
    /// once per process), chosen by the seeded generator and never one this network used
    /// before. Each pair has its own phone key and its own watch key, so no key repeats on
    /// either side: no two connections share transport keys, and an earlier connection's
    /// handshake replayed on a later one is refused. The generator gives the same eight draws
    /// as two `ephemeralKey()` calls, so everything drawn after is as it was. Once every pair
    /// was used (`X25519.SimulatorKeys.pairs` connections), the keys are the draws themselves.
    func ephemeralKeyPair() -> (phone: [UInt8], watch: [UInt8]) {
        let phone = ephemeralKey(), watch = ephemeralKey()
        let pairs = X25519.SimulatorKeys.pairs
        guard usedKeyPairs.count < pairs else { return (phone, watch) }
        var p = Int(phone[0]) % pairs
        while usedKeyPairs.contains(p) { p = (p + 1) % pairs }
        usedKeyPairs.insert(p)
        return X25519.SimulatorKeys.pair(p)
    }
}

/// The connection between the two simulated nodes.
struct SimLink: Sendable {
    var id: ConnectionID
    var bytesCarried = 0
}
