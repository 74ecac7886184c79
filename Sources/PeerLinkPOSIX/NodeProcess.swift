#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

/// Options of a node process (`phone-node`, `watch-node`).
public struct NodeProcessOptions: Sendable {
    public var role: DeviceRole
    public var stateDirectory: String
    /// The phone listens here (default 127.0.0.1:7700).
    public var listen: SocketAddress?
    /// The watch connects here.
    public var connect: SocketAddress?
    /// When set, the clock is virtual and starts here; the control channel moves it.
    public var virtualStartMs: EpochMs?
    /// The wall clock's offset from the monotonic clock at launch (`--wall-offset`).
    public var wallOffsetMs: Int64 = 0
    public var timeZone: String = "Asia/Tokyo"
    public var language: AppLanguage = .ja
    /// Seeds jitter (reconnect backoff); random when nil.
    public var seed: UInt64?
    /// fsync every commit (power-loss durability) instead of WAL's NORMAL.
    public var synchronousFull = false
    /// Where control commands are read (default stdin); nil for a node without one.
    public var controlInput: Int32? = 0
    /// Where answers and announcements are written (default stdout).
    public var controlOutput: Int32 = 1
    /// Log lines at this level and above also go to stderr (all of them always go to
    /// `node.log`); nil for none. By default warnings and errors; `--verbose` adds info.
    /// The person at the prompt also sees, on stderr, when the node waits for its peer and
    /// when it connects (once each, not on every attempt) unless this is nil.
    public var standardErrorLevel: LogLevel? = .warning
    /// What a connection may hold in bytes waiting to be written (its peer not reading):
    /// past it the connection is closed. The session's windows keep a working link far below.
    public var maxQueuedBytesPerConnection = 32 << 20
    /// Overrides `LinkConfig.rekeyAfterBytes` and `LinkConfig.cipher` (part of the protocol:
    /// only tests and benchmarks change them, on both ends).
    public var rekeyAfterBytes: Int?
    public var cipher: AEADCipher?

    /// The node's file root (what `transferFile` reads, where `inbox/` is).
    public var filesDirectory: String { stateDirectory + "/files" }

    public init(role: DeviceRole, stateDirectory: String) {
        self.role = role
        self.stateDirectory = stateDirectory
    }
}

/// The TCP shell of a node: one thread, one `poll` loop over the listener, the connections,
/// the connection attempt and the control channel (stdin). It owns the sockets, the SQLite
/// file and the clock; everything else is the engine's.
///
/// Control channel: each stdin line is a command. A line starting `@ID ` gets exactly one
/// answer line `@ID ok JSON` or `@ID err "message"`; other lines get the reply's text.
/// The node announces itself with `! listening HOST:PORT` (phone) and `! ready`; what it
/// tells the person later (a message's reply, a finished transfer, what the peer sent by
/// hand) comes as `! TEXT` lines too.
public final class NodeProcess<App: NodeApp> {
    let options: NodeProcessOptions
    // One thread runs the loop and owns these: no run-time exclusivity checks (see NodeEngine).
    @exclusivity(unchecked) var engine: NodeEngine<App>
    let logFD: Int32
    @exclusivity(unchecked) var virtualNow: EpochMs?
    @exclusivity(unchecked) var running = true
    /// Held while the node runs: no second node opens this state directory.
    let stateLock: StateDirectory
    /// Log lines at this level and above are copied to stderr (`log level` changes it).
    @exclusivity(unchecked) var standardErrorLevel: LogLevel?
    /// What the person at the prompt was last told about the peer (see NodeProcess+Presence).
    @exclusivity(unchecked) var presence = PeerPresence.starting

    @exclusivity(unchecked) var connections = ConnectionMap<NodeConnection>()
    @exclusivity(unchecked) var nextConnectionID: ConnectionID = 1
    @exclusivity(unchecked) var listener: Int32 = -1
    @exclusivity(unchecked) var connecting: (fd: Int32, id: ConnectionID)?
    @exclusivity(unchecked) var stdinBuffer: [UInt8] = []
    @exclusivity(unchecked) var stdinOpen: Bool
    @exclusivity(unchecked) var stdout: [UInt8] = []
    @exclusivity(unchecked) var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    /// Empty arrays with room, lent to each `handleOutputs` and `pollOnce` and handed back
    /// (a call inside another finds them taken and starts empty): the loop allocates none of
    /// them at each event.
    @exclusivity(unchecked) var spareOutputs: [NodeOutput] = []
    @exclusivity(unchecked) var sparePollFDs: [pollfd] = []
    @exclusivity(unchecked) var sparePollSlots: [PollSlot] = []

    /// Frames at least this large are written straight from their buffer when nothing is queued.
    static var directWriteBytes: Int { 64 * 1024 }

    /// Opens the store (quarantining a corrupt one), loads the node and binds its listener.
    public init(options: NodeProcessOptions, makeApp: () -> App) throws {
        self.options = options
        stdinOpen = options.controlInput != nil
        standardErrorLevel = options.standardErrorLevel
        signal(SIGPIPE, SIG_IGN)
        // File transfers allocate buffers of 256 KiB and more for every chunk; above glibc's
        // default threshold each would be a fresh mmap (page faults, zeroing). Keep them on the heap.
        keepLargeAllocationsOnTheHeap()
        // One node per state directory, refused before anything is touched; and a node that
        // cannot listen leaves nothing behind (the directory is created only after the bind).
        var lock = try StateDirectory.exists(options.stateDirectory) ? StateDirectory(path: options.stateDirectory, role: options.role) : nil
        var bound: (fd: Int32, port: UInt16)?
        if let l = options.listen {
            do { bound = try Sock.listen(l) } catch let e as POSIXError {
                throw NodeProcessError("cannot listen on \(l): \(e.reason)"
                    + (e.errno == EADDRINUSE ? " (another node may be listening there; --listen HOST:PORT picks another address)" : ""))
            }
        }
        if lock == nil { lock = try StateDirectory(path: options.stateDirectory, role: options.role) }
        stateLock = lock!
        // A directory created by the lock is 0700; an existing one others could read is tightened.
        let tightenedDirectory = try makePrivateDirectory(options.stateDirectory)
        let tightenedSecret = makeFilePrivate(options.stateDirectory + "/" + PairingFile.fileName)
        logFD = open(options.stateDirectory + "/node.log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        virtualNow = options.virtualStartMs
        let now = virtualNow ?? Self.wallClockMs()
        guard let calendar = LocalCalendar(identifier: options.timeZone) else {
            throw NodeProcessError("unknown time zone \(options.timeZone)")
        }
        var config = LinkConfig(role: options.role, pairingSecret: PairingFile.read(directory: options.stateDirectory))
        if options.virtualStartMs != nil { config.reconnectInitialMs = 100 }
        if let r = options.rekeyAfterBytes { config.rekeyAfterBytes = r }
        if let c = options.cipher { config.cipher = c }
        let seed = options.seed ?? UInt64.random(in: 1...UInt64.max)
        // File content is as durable as the store's commits: across a power loss only with
        // `--sync full`.
        let files = try DirectoryFileStorage(root: options.filesDirectory, syncsToDisk: options.synchronousFull)
        engine = try NodeStoreFile.openNode(directory: options.stateDirectory, wallMs: now, synchronousFull: options.synchronousFull) { store, opening in
            try NodeEngine(app: makeApp(), role: options.role, store: store, config: config, calendar: calendar,
                           language: options.language, now: now, wallOffsetMs: options.wallOffsetMs, seed: seed, newIncarnation: Self.randomU64(), opening: opening, files: files,
                           exports: DirectoryExportFolder(directory: options.stateDirectory + "/exports"))
        }
        if tightenedDirectory { log(.warning, "the state directory \(options.stateDirectory) could be read by others: made 0700") }
        if tightenedSecret { log(.warning, "\(PairingFile.fileName) could be read by others: made 0600 (pair again if others may have read it)") }
        if let problem = PairingFile.problem(directory: options.stateDirectory) {
            log(.warning, problem)
        } else if config.pairingSecret == nil {
            log(.warning, "not paired: run `phone-node pair`, and give its code to `watch-node pair` on standard input; every peer will be refused")
        }
        if let l = options.listen, let (fd, port) = bound {
            listener = fd
            emitLine("! listening \(l.host):\(port)")
            log(.info, "listening on \(l.host):\(port)")
            presence = .waiting
            tell(NodeNotice.listening("\(l.host):\(port)"))
        }
        handleOutputs()
        emitLine("! ready")
        flushStdout()
    }

    static func randomU64() -> UInt64 {
        secureRandomBytes(8).reduce(0) { $0 << 8 | UInt64($1) } | 1
    }

    static func wallClockMs() -> EpochMs {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return EpochMs(ts.tv_sec) * 1000 + EpochMs(ts.tv_nsec / 1_000_000)
    }

    /// The monotonic time the engine runs on (virtual, or the wall clock).
    var now: EpochMs { virtualNow ?? Self.wallClockMs() }

    // MARK: - Loop

    /// Runs until `quit` or end of input on stdin (when `exitOnStdinEOF`). Returns the exit code.
    public func run(exitOnStdinEOF: Bool = true) -> Int32 {
        while running {
            if let f = engine.failed { log(.error, f); flushStdout(); return 1 }
            fireTimers()
            maybeConnect()
            handleOutputs()
            notePresence()
            flushStdout()
            pollOnce()
            if options.controlInput != nil, !stdinOpen, exitOnStdinEOF { running = false }
        }
        handleOutputs()
        flushStdout()
        return engine.failed == nil ? 0 : 1
    }

    func fireTimers() {
        let t = now
        if let d = engine.nextDeadline, d <= t { engine.tick(now: t) }
    }

    func maybeConnect() {
        guard let target = options.connect, connecting == nil, let due = engine.nextConnectAtMs, due <= now else { return }
        engine.connectStarted(now: now)
        do {
            let fd = try Sock.startConnect(target)
            connecting = (fd, nextConnectionID)
            nextConnectionID += 1
        } catch {
            log(.info, "connect to \(target) failed: \(error)")
            engine.connectFailed(now: now)
            noteConnectFailed()
        }
    }

    func pollOnce() {
        var fds = Array.borrow(&sparePollFDs), slots = Array.borrow(&sparePollSlots)
        defer {
            fds.giveBack(to: &sparePollFDs)
            slots.giveBack(to: &sparePollSlots)
        }
        if stdinOpen, let fd = options.controlInput { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)); slots.append(.stdin) }
        if listener >= 0 { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)); slots.append(.listener) }
        if let c = connecting { fds.append(pollfd(fd: c.fd, events: Int16(POLLOUT), revents: 0)); slots.append(.connecting) }
        for (id, c) in connections {
            var ev = Int16(POLLIN)
            if c.out.count > c.outStart { ev |= Int16(POLLOUT) }
            fds.append(pollfd(fd: c.fd, events: ev, revents: 0))
            slots.append(.connection(id))
        }
        var timeout: Int32 = -1
        if virtualNow == nil {
            var wake = engine.nextDeadline
            if options.connect != nil, connecting == nil, let c = engine.nextConnectAtMs { wake = min(wake ?? c, c) }
            if let w = wake { timeout = Int32(max(0, min(60_000, w - now))) }
        }
        let n = poll(&fds, nfds_t(fds.count), timeout)
        guard n > 0 else { return }
        for (i, slot) in slots.enumerated() where fds[i].revents != 0 {
            let re = fds[i].revents
            switch slot {
            case .stdin: readStdin()
            case .listener: acceptAll()
            case .connecting: finishConnect()
            case .connection(let id):
                if re & Int16(POLLOUT) != 0 { flush(id) }
                if re & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readFrom(id) }
            }
        }
    }
}

extension NodeProcess {
    /// The watch's own connection, or the phone's authenticated one.
    func isPeerConnection(_ id: ConnectionID) -> Bool {
        options.connect != nil || engine.readSession { $0.activeConnectionID } == id
    }
}

/// One socket of a node process: its descriptor and what is queued to write.
///
/// Not nested in `NodeProcess`: a type nested in a generic class is generic too, and the
/// connection table's every access then looked up the dictionary's type metadata at run time
/// (a tenth of the link benchmark's instructions).
struct NodeConnection {
    var fd: Int32
    var peer: String
    var out: [UInt8] = []
    var outStart = 0
    var closeAfterFlush = false
}

/// What one entry of the poll set watches.
enum PollSlot { case stdin, listener, connecting, connection(ConnectionID) }

/// A node process could not start.
public struct NodeProcessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// Raises glibc's mmap threshold (`mallopt(M_MMAP_THRESHOLD, 64 MiB)`) and its trim
/// threshold (`M_TRIM_THRESHOLD`, 256 MiB), looked up at run time because the Glibc module
/// does not export `malloc.h`: chunk buffers then come from the heap and their pages stay
/// mapped between chunks (without the second, freeing a chunk at the top of the heap gave
/// its pages back and the next chunk faulted them in again). Harmless where it is missing.
func keepLargeAllocationsOnTheHeap() {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    let mmapThresholdOption: Int32 = -3  // M_MMAP_THRESHOLD
    let trimThresholdOption: Int32 = -1  // M_TRIM_THRESHOLD
    guard let mallopt = systemFunction("mallopt", as: Mallopt.self) else { return }
    _ = mallopt(mmapThresholdOption, 64 << 20)
    _ = mallopt(trimThresholdOption, 256 << 20)
}

