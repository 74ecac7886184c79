import PeerLinkCore
import PeerLinkSim

/// Options of a sim-mode run.
public struct SimOptions: Sendable {
    /// Virtual time allowed for `expect converged`.
    public var convergeWithinMs: Int64 = 120_000
    /// Keep the network's frame trace (the report's timeline and the trace hash).
    public var recordsTrace = true
    /// Follow every user-info transfer and each node's clock and seq (`TransferLedger`,
    /// `NodeInvariants`); their problems become failed checks.
    public var checksInvariants = true
    /// Mixed into the seed of the network (nonces, incarnations, fault decisions); sweeps
    /// give each seed its own.
    public var networkSeed: UInt64?
    /// Record the run for the HTML report (`RunRecorder`: frames as data, screens at moments);
    /// it does not change the run or its trace.
    public var recordsReport = false

    public init() {}
}

/// Sim mode: a pair's phone and watch apps in one process over `SimulatedNetwork`, on its
/// virtual clock, every random choice drawn from the scenario's seed. No wall clock, no
/// system randomness, no sockets: the same scenario and seed give the same trace.
public final class SimDriver<Pair: AppPair>: SimulationDriver {
    public typealias Network = SimulatedNetwork<Pair.Phone, Pair.Watch>
    public let modeName = "sim"
    /// The apps (one value for the run: what it holds outlives the apps' crashes).
    public let pair: Pair
    let options: SimOptions
    // A driver runs on its runner's thread. Each access to these variables ends before the
    // network is called (the network calls `observe` back only from inside its own calls, and
    // no access spans one), so they skip Swift's run-time exclusivity check, as the network's
    // and the engine's do (docs/BENCHMARKS.md).
    @exclusivity(unchecked) public private(set) var network: Network?
    @exclusivity(unchecked) public private(set) var ledger = TransferLedger()
    @exclusivity(unchecked) public private(set) var invariants = NodeInvariants()
    @exclusivity(unchecked) var traceTaken = 0
    /// The last quiet state, valid until something is done to a node, the link or the clock.
    @exclusivity(unchecked) var lastQuiet: QuietState?
    /// The last command line and its words: the runner asks the same query again and again
    /// (`query sync-state` at every `expect converged` pass), and splitting it each time cost
    /// a third of answering it.
    @exclusivity(unchecked) var lastParsed: (line: String, command: NodeCommand)?

    public init(pair: Pair, options: SimOptions = SimOptions()) {
        self.pair = pair
        self.options = options
    }

    public var reportScreens: [(DeviceRole, String)] { pair.reportScreens }

    /// The network, or an error when `start` has not run.
    func net() throws -> Network {
        guard let n = network else { throw NodeCallError(message: "the simulated network is not started") }
        return n
    }

    // MARK: - Lifecycle

    public func start(_ s: Scenario) throws {
        guard let calendar = LocalCalendar(identifier: s.timeZone) else { throw NodeCallError(message: "unknown time zone \(s.timeZone)") }
        var rng = SplitMix64(seed: s.seed ^ 0x5349_4D2D_4D4F_4445 ^ (options.networkSeed ?? 0) &* 0x9E37_79B9_7F4A_7C15)
        let secret = rng.nextBytes(32)
        var pc = LinkConfig(role: .phone, pairingSecret: secret)
        var wc = LinkConfig(role: .watch, pairingSecret: secret)
        // As the process shell does on a virtual clock.
        pc.reconnectInitialMs = 100
        wc.reconnectInitialMs = 100
        let pair = self.pair
        let n = try Network(seed: rng.next(), startMs: s.startMs,
                            phone: .init(makeApp: { pair.makePhone() }, config: pc, calendar: calendar, language: s.language,
                                         exports: pair.exports(.phone)),
                            watch: .init(makeApp: { pair.makeWatch() }, config: wc, calendar: calendar, language: s.language,
                                         exports: pair.exports(.watch)))
        n.recordsTrace = options.recordsTrace
        n.recordsFrames = options.recordsReport
        // Only a `rollback` step undoes commits: a run without one keeps no undo journal
        // (keeping it, then freeing it, was 2 % of a sweep's seed).
        if !s.steps.contains(where: { if case .rollbackStore = $0.action { true } else { false } }) {
            n.store(.phone).undoJournalLimit = 0
            n.store(.watch).undoJournalLimit = 0
        }
        n.faults = LinkFaults()
        network = n
        if options.checksInvariants {
            n.observer = { [unowned self] role in self.observe(role) }
            observe(.phone)
            observe(.watch)
        }
        try waitConnected()
    }

    /// Runs the network until the watch has connected (at most a minute of virtual time).
    func waitConnected() throws {
        let n = try net()
        let deadline = n.now + 60_000
        while n.now < deadline {
            let q = try settle()
            if q.phoneConnected && q.watchConnected { return }
            n.moveClock(to: q.nextEventMs.map { max($0, n.now + 1) } ?? n.now + 100, idleLink: false)
        }
        throw NodeCallError(message: "the nodes did not connect")
    }

    public func stop(keepState: Bool) -> [String] { [] }

    public func isRunning(_ role: DeviceRole) -> Bool {
        // Not `network.map`: left generic, it cost ~1.3 k instructions a call (5 calls a step).
        guard let n = network else { return false }
        return !n.isDown(role)
    }

    /// Read from the engine in place: the default asks `query sync-state incomingFile`, and
    /// each of its misses, at every clock move while a file is to be damaged, asked the app
    /// and built an error text nobody read (5 % of a morning-run sweep's instructions).
    public func partialIncomingFile(_ role: DeviceRole) throws -> (path: String, committedBytes: Int64)? {
        let n = try net()
        guard !n.isDown(role) else { return nil }
        return role == .phone ? n.phone.partialIncomingFile : n.watch.partialIncomingFile
    }

    public func kill(_ role: DeviceRole) throws {
        lastQuiet = nil
        try net().kill(role)
    }

    public func restart(_ role: DeviceRole) throws {
        lastQuiet = nil
        try net().restart(role)
    }

    public func corruptStore(_ role: DeviceRole, seed: UInt64) throws {
        lastQuiet = nil
        try net().store(role).corrupt()
        ledger.storeCorrupted(role)
        invariants.storeCorrupted(role)
    }

    public func rollBackStore(_ role: DeviceRole, seed: UInt64) throws -> Int {
        lastQuiet = nil
        let n = try net()
        var rng = SplitMix64(seed: seed)
        let undoable = n.store(role).undoableCommits
        guard undoable > 0 else { return 0 }
        let dropped = n.rollBack(role, commits: rng.next(in: 1...max(1, undoable / 2)))
        ledger.storeRolledBack(role, store: n.store(role))
        invariants.storeRolledBack(role, store: n.store(role), nowMs: n.now)
        return dropped
    }

    public func damagePartialFile(_ role: DeviceRole, path: String, committedBytes: Int64, seed: UInt64) throws -> String? {
        lastQuiet = nil
        let n = try net()
        return try PartialFileDamage.apply(to: role == .phone ? n.phoneFiles : n.watchFiles, path: path, committedBytes: committedBytes, seed: seed)
    }

    /// Opens a raw connection to the phone (not through the link's faults), sends `bytes`,
    /// and returns what the phone wrote on it until it closed it, at this virtual instant (as
    /// process mode reads it in real time while the virtual clocks stand still). A killed
    /// phone refuses the connection: nothing comes back.
    public func injectStranger(_ bytes: [UInt8]) throws -> [UInt8] {
        lastQuiet = nil
        let n = try net()
        guard !n.isDown(.phone) else { return [] }
        let id = n.injectConnection(bytes: bytes, direct: true)
        n.advance(to: n.now)
        return n.rawReply(id)
    }

    // MARK: - Commands and time

    public func call(_ role: DeviceRole, _ command: String) throws -> Result<PlistValue, NodeCallError> {
        let n = try net()
        guard !n.isDown(role) else { return .failure(NodeCallError(message: "the \(role) is not running")) }
        let c: NodeCommand
        if let p = lastParsed, CanonicalEncoding.utf8Equal(p.line, command) {
            c = p.command
        } else {
            guard let parsed = NodeCommand(line: command) else { return .failure(NodeCallError(message: L10n.shellUnclosedQuote(command)(n.language(role)))) }
            c = parsed
            lastParsed = (command, parsed)
        }
        if !ProcessDriver.isReadOnly(command) { lastQuiet = nil }
        if let r = shellCommand(role, c, n) { return r }  // tz and disconnect: not read-only
        let reply = n.command(role, c)  // parsed once, above
        return reply.isOK ? .success(reply.value) : .failure(NodeCallError(message: reply.text))
    }

    /// The process shell's own commands: `clock` (read), `tz ZONE`, `disconnect`.
    func shellCommand(_ role: DeviceRole, _ c: NodeCommand, _ n: Network) -> Result<PlistValue, NodeCallError>? {
        switch c.words.first {
        case "clock" where c.words.count == 1:
            let offset = role == .phone ? n.phone.wallOffsetMs : n.watch.wallOffsetMs
            return .success(["mono": .int(n.now), "wall": .int(n.now + offset), "virtual": .bool(true)])
        case "tz":
            guard c.words.count == 2, let cal = LocalCalendar(identifier: c.words[1]) else {
                return .failure(NodeCallError(message: L10n.shellTimeZoneUsage(n.language(role))))
            }
            n.setCalendar(role, cal)
            return .success(.string(c.words[1]))
        case "disconnect":
            n.resetConnection()
            return .success(.dictionary([:]))
        default:
            return nil
        }
    }

    public func settle() throws -> QuietState {
        if let q = lastQuiet { return q }
        let q = try settleNow()
        lastQuiet = q
        return q
    }

    func settleNow() throws -> QuietState {
        let n = try net()
        n.advance(to: n.now)
        // Read in place (`linkStatus`): copying each node's context, twice per step, cost
        // more than the rest of the check.
        let phone = n.isDown(.phone) ? nil : n.phone.linkStatus
        let watch = n.isDown(.watch) ? nil : n.watch.linkStatus
        return QuietState(phoneConnected: phone?.isConnected ?? false, watchConnected: watch?.isConnected ?? false,
                          nothingOutstanding: !(phone?.hasOutstanding ?? false) && !(watch?.hasOutstanding ?? false),
                          nextEventMs: n.nextEventTime, nextWorkEventMs: n.nextWorkTime,
                          connecting: n.isConnecting || phone?.isHandshaking == true || watch?.isHandshaking == true)
    }

    public func advanceClocks(to ms: EpochMs, idleLink: Bool) throws {
        let n = try net()
        guard ms > n.now else { return }
        lastQuiet = nil
        n.moveClock(to: ms, idleLink: idleLink)
    }

    public func setWallOffset(_ role: DeviceRole, _ offsetMs: Int64) throws {
        let n = try net()
        // A killed node keeps the offset for its restart.
        if n.isDown(role) { return n.setWallOffset(role, offsetMs) }
        // The runner re-sends the offset at every clock move while a clock fault is on; an
        // unchanged offset would only cost the app a tick.
        guard offsetMs != (role == .phone ? n.phone.wallOffsetMs : n.watch.wallOffsetMs) else { return }
        lastQuiet = nil
        n.setWallOffset(role, offsetMs)
    }

    public func setFaults(_ faults: LinkFaults) throws {
        lastQuiet = nil
        let n = try net()
        n.setFaults(faults)
    }

    public func resetConnection() throws {
        lastQuiet = nil
        try net().resetConnection()
    }

    public func nodeLogs() -> [String] { network?.logs ?? [] }

    public func takeTimeline() -> [String] {
        guard let n = network, traceTaken < n.trace.count else { return [] }
        defer { traceTaken = n.trace.count }
        return Array(n.trace[traceTaken...])
    }

    /// SHA-256 (hex) of the timeline and both nodes' log lines.
    public func traceHash(timeline: [String]) -> String? {
        guard options.recordsTrace else { return nil }  // sweeps: no trace, nothing to hash
        // The same bytes as one buffer, hashed at once (a string and an array per line cost
        // more than the hashing).
        var bytes: [UInt8] = []
        for line in timeline {
            bytes += line.utf8
            bytes.append(0x0A)
        }
        bytes += "-- logs\n".utf8
        for line in network?.logs ?? [] {
            bytes += line.utf8
            bytes.append(0x0A)
        }
        return hexString(SHA256.hash(bytes))
    }

    /// What the invariant checks found (empty when they are off or all held).
    public var problems: [String] { ledger.problems + invariants.violations }

    /// The invariant checks as report lines: one passing summary, or each problem.
    public func finalChecks() -> [CheckOutcome] {
        guard options.checksInvariants else { return [] }
        let found = problems
        if found.isEmpty {
            let l = ledger
            return [CheckOutcome(location: nil, description: "user info exactly once, durable counters monotonic", passed: true,
                                 detail: "\(l.queuedCount) transfers, \(l.acknowledgedCount) acknowledged, \(l.deliveredCount) deliveries, \(l.erasedCount) erased by store damage")]
        }
        return found.map { CheckOutcome(location: nil, description: "invariant", passed: false, detail: $0) }
    }

    // MARK: - Observation

    func observe(_ role: DeviceRole) {
        guard let n = network, !n.isDown(role) else { return }
        if role == .phone {
            observe(role, n.phone, n)
        } else {
            observe(role, n.watch, n)
        }
    }

    /// Reads the engine's session and replica in place: this runs after every entry point,
    /// and copying the whole context each time was most of its cost.
    private func observe<A: NodeApp>(_ role: DeviceRole, _ engine: NodeEngine<A>, _ n: Network) {
        let outstanding = engine.outstandingUserInfoCount
        let (counters, state) = engine.readContext {
            (TransferLedger.Counters(&$0, engine: ObjectIdentifier(engine), outstanding: outstanding), NodeInvariants.counters(&$0))
        }
        ledger.observe(role, counters: counters, session: { engine.ctx.session }, store: n.store(role), nowMs: n.now)
        invariants.observe(role, state, nowMs: n.now)
    }
}
