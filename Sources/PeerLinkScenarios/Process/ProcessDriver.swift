#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkSim

/// Process mode: real `phone-node` and `watch-node` processes over loopback TCP, with the
/// fault proxy between them, on virtual clocks that only the conductor moves.
public final class ProcessDriver: ScenarioDriver {
    public let modeName = "process"
    let options: ConductorOptions
    var nodes: [DeviceRole: NodeHandle] = [:]
    var proxy: FaultProxy?
    var workDir = ""
    var phoneAddress = ""
    var scenario: Scenario?
    var nowMs: EpochMs = 0
    /// The last quiet state, valid until something is done to a node or the link.
    var lastQuiet: QuietState?

    public init(options: ConductorOptions) { self.options = options }

    public var reportScreens: [(DeviceRole, String)] { options.reportScreens }

    func stateDir(_ role: DeviceRole) -> String { workDir + "/" + role.rawValue }

    // MARK: - Lifecycle

    public func start(_ s: Scenario) throws {
        scenario = s
        nowMs = s.startMs
        workDir = try makeTemporaryDirectory(prefix: "peerlink-sim")
        for role in [DeviceRole.phone, .watch] where access(options.executable(role).path, X_OK) != 0 {
            throw NodeCallError(message: "\(options.executable(role).path) not found: build it first (`swift build`), or leave out --bin")
        }
        try pair()
        try launch(.phone)
        try launch(.watch)
        try waitConnected()
    }

    /// Pairs the two state directories as a person would: `phone pair` prints a code, and
    /// the code goes to `watch pair` on its standard input — through pipes only, never a
    /// command line or the environment, which every local user can read.
    func pair() throws {
        let phoneExe = options.phone, watchExe = options.watch
        let phonePair = try ChildProcess(name: "pair", path: phoneExe.path, arguments: phoneExe.leadingArguments + ["pair", "--state", stateDir(.phone)],
                                         stderrPath: workDir + "/pair.err")
        defer { phonePair.terminate() }
        guard let code = phonePair.readLine(timeoutMs: 10_000), PairingFile.secret(fromCode: code) != nil else {
            throw NodeCallError(message: "`phone-node pair` printed no pairing code (see \(workDir)/pair.err)")
        }
        let watchPair = try ChildProcess(name: "pair", path: watchExe.path, arguments: watchExe.leadingArguments + ["pair", "--state", stateDir(.watch)],
                                         stderrPath: workDir + "/pair.err")
        defer { watchPair.terminate() }
        try watchPair.send(code)
        guard let answer = watchPair.readLine(timeoutMs: 10_000), answer.hasPrefix("paired") else {
            throw NodeCallError(message: "`watch-node pair` did not take the code (see \(workDir)/pair.err)")
        }
    }

    /// Starts (or restarts) a node on the current virtual time.
    func launch(_ role: DeviceRole) throws {
        guard let s = scenario else { return }
        let exe = options.executable(role)
        var args = exe.leadingArguments + ["--state", stateDir(role), "--virtual-clock", String(nowMs), "--tz", s.timeZone, "--locale", s.language.rawValue]
        switch role {
        case .phone:
            args += ["--listen", phoneAddress.isEmpty ? "127.0.0.1:0" : phoneAddress, "--seed", String(s.seed)]
        case .watch:
            guard let p = proxy else { throw NodeCallError(message: "no proxy to connect the watch to") }
            args += ["--connect", "127.0.0.1:\(p.port)", "--seed", String(s.seed &+ 1)]
        }
        let child = try ChildProcess(name: role.rawValue, path: exe.path, arguments: args,
                                     stderrPath: "\(workDir)/\(role.rawValue).err")
        let handle = NodeHandle(role: role, process: child)
        if role == .phone {
            guard let listening = handle.waitFor(prefix: "! listening ", timeoutMs: 15_000) else {
                throw NodeCallError(message: "phone-node did not start listening (see \(workDir)/phone.err)")
            }
            phoneAddress = String(listening.dropFirst("! listening ".count))
            if proxy == nil, let up = SocketAddress(parsing: phoneAddress) {
                proxy = try FaultProxy(upstream: up, seed: s.seed &+ 7, startMs: nowMs)
            }
        }
        guard handle.waitFor(prefix: "! ready", timeoutMs: 15_000) != nil else {
            throw NodeCallError(message: "\(role)-node did not start (see \(workDir)/\(role.rawValue).err)")
        }
        nodes[role] = handle
    }

    func waitConnected() throws {
        let deadline = ChildProcess.monotonicMs() + options.settleTimeoutMs
        while ChildProcess.monotonicMs() < deadline {
            let q = try settle()
            if q.phoneConnected && q.watchConnected { return }
            try advanceClocks(to: q.nextEventMs.map { max($0, nowMs + 1) } ?? nowMs + 100, idleLink: false)
        }
        throw NodeCallError(message: "the nodes did not connect")
    }

    public func stop(keepState: Bool) -> [String] {
        for n in nodes.values {
            try? n.process.send("quit")
            n.process.terminate()
        }
        nodes = [:]
        proxy?.stop()
        proxy = nil
        if workDir.isEmpty { return [] }
        if keepState { return ["node state and logs kept in \(workDir)"] }
        removeTree(workDir)
        return []
    }

    public func isRunning(_ role: DeviceRole) -> Bool { nodes[role] != nil }

    public func kill(_ role: DeviceRole) throws {
        lastQuiet = nil
        guard let n = nodes.removeValue(forKey: role) else { return }
        n.process.kill9()
    }

    public func restart(_ role: DeviceRole) throws {
        lastQuiet = nil
        guard nodes[role] == nil else { return }
        try launch(role)
    }

    /// Damages the store file of a killed node so that opening it finds the damage: first the
    /// write-ahead log is checkpointed into the main file (a corrupt WAL tail is silently
    /// dropped by SQLite, which would be a rollback, not a detectable corruption), then random
    /// bytes are written over random 512-byte stretches of the main file.
    public func corruptStore(_ role: DeviceRole, seed: UInt64) throws {
        let path = stateDir(role) + "/" + NodeStoreFile.fileName
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        var rng = SplitMix64(seed: seed)
        let fd = open(path, O_WRONLY)
        guard fd >= 0 else { throw POSIXError("open(\(path))") }
        defer { close(fd) }
        var st = stat()
        fstat(fd, &st)
        let size = Int(st.st_size)
        guard size > 0 else { return }
        for _ in 0..<8 {
            let offset = rng.next(in: 0...(size - 1))
            let junk = (0..<min(512, size - offset)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = junk.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
        }
        fsync(fd)
    }

    /// Cuts the write-ahead log after a random complete frame in its second half: SQLite
    /// replays only the frames before the cut, so the last commits are gone. Returns the
    /// number of WAL frames dropped (a commit is one or more frames).
    public func rollBackStore(_ role: DeviceRole, seed: UInt64) throws -> Int {
        let path = stateDir(role) + "/" + NodeStoreFile.fileName + "-wal"
        var st = stat()
        guard stat(path, &st) == 0 else { return 0 }
        let headerBytes = 32, frameBytes = 24 + 4096  // WAL header; frame header + page (default page size)
        let frames = (Int(st.st_size) - headerBytes) / frameBytes
        guard frames > 1 else { return 0 }
        var rng = SplitMix64(seed: seed)
        let keep = rng.next(in: (frames / 2)...(frames - 1))
        guard truncate(path, off_t(headerBytes + keep * frameBytes)) == 0 else { throw POSIXError("truncate(\(path))") }
        return frames - keep
    }

    public func damagePartialFile(_ role: DeviceRole, path: String, committedBytes: Int64, seed: UInt64) throws -> String? {
        let files = try DirectoryFileStorage(root: stateDir(role) + "/files", syncsToDisk: true)
        return try PartialFileDamage.apply(to: files, path: path, committedBytes: committedBytes, seed: seed)
    }

    /// Connects straight to the phone (not through the proxy), sends `bytes`, and reads what
    /// comes back until the phone closes the connection (at most 5 s of real time).
    public func injectStranger(_ bytes: [UInt8]) throws -> [UInt8] {
        lastQuiet = nil
        guard let address = SocketAddress(parsing: phoneAddress) else { throw NodeCallError(message: "the phone is not listening") }
        let fd = try ProxySockets.blockingConnect(address)
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var answer: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        let deadline = ChildProcess.monotonicMs() + 5_000
        while ChildProcess.monotonicMs() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 200) > 0 else { continue }
            let n = read(fd, &buf, buf.count)
            if n <= 0 { break }
            answer += buf[0..<n]
        }
        return answer
    }

    // MARK: - Commands and time

    public func call(_ role: DeviceRole, _ command: String) throws -> Result<PlistValue, NodeCallError> {
        if !Self.isReadOnly(command) { lastQuiet = nil }
        guard let n = nodes[role] else { return .failure(NodeCallError(message: "the \(role) is not running")) }
        return try n.call(command)
    }

    /// Sends `command` to every running node at once, then collects the answers.
    func callAll(_ command: String) throws -> [DeviceRole: PlistValue] {
        var tags: [(DeviceRole, NodeHandle, Int)] = []
        for role in DeviceRole.allCases { if let n = nodes[role] { tags.append((role, n, try n.send(command))) } }
        var out: [DeviceRole: PlistValue] = [:]
        for (role, n, tag) in tags {
            switch try n.answer(to: tag, command) {
            case .success(let v): out[role] = v
            case .failure(let e): throw NodeCallError(message: "\(role) `\(command)`: \(e.message)")
            }
        }
        return out
    }

    /// Commands that only read: they leave the nodes quiet.
    static func isReadOnly(_ command: String) -> Bool {
        command == "digest" || command == "status" || command.hasPrefix("query ")
    }

    public func settle() throws -> QuietState {
        if let q = lastQuiet { return q }
        let q = try settleNow()
        lastQuiet = q
        return q
    }

    func settleNow() throws -> QuietState {
        let deadline = ChildProcess.monotonicMs() + options.settleTimeoutMs
        var spins = 0
        while true {
            let all = try callAll("status")
            let sp = all[.phone]?.dictionaryValue, sw = all[.watch]?.dictionaryValue
            let px = proxy?.status() ?? ProxyStatus()
            if Self.isQuiet(sp, sw, px) {
                let outstanding = [sp, sw].compactMap { $0 }.contains { ($0["outstandingUserInfo"]?.intValue ?? 0) > 0 || $0["syncInFlight"]?.boolValue == true }
                let next = [sp?["nextDeadline"]?.intValue, sw?["nextDeadline"]?.intValue, px.nextDeliveryMs].compactMap { $0 }.min()
                let work = [sp?["nextWorkDeadline"]?.intValue, sw?["nextWorkDeadline"]?.intValue, px.nextDeliveryMs].compactMap { $0 }.min()
                let connecting = [sp, sw].compactMap { $0 }.contains { ($0["handshaking"]?.intValue ?? 0) > 0 }
                return QuietState(phoneConnected: sp?["connected"]?.boolValue ?? false, watchConnected: sw?["connected"]?.boolValue ?? false,
                                  nothingOutstanding: !outstanding, nextEventMs: next, nextWorkEventMs: work, connecting: connecting)
            }
            if ChildProcess.monotonicMs() > deadline {
                let show = { (s: [String: PlistValue]?) in s.map { PlistValue.dictionary($0).jsonString() } ?? "not running" }
                throw NodeCallError(message: "the nodes did not go quiet within \(options.settleTimeoutMs) ms (phone \(show(sp)), watch \(show(sw)), proxy \(px))")
            }
            spins += 1
            if spins > 20 { usleep(200) }
        }
    }

    /// Both nodes idle, every frame either sent on the current connection was taken in by
    /// the proxy, everything the proxy forwarded was taken in by the receiver, and the proxy
    /// holds nothing due now (frames held for later are timers, not work).
    static func isQuiet(_ p: [String: PlistValue]?, _ w: [String: PlistValue]?, _ px: ProxyStatus) -> Bool {
        for s in [p, w].compactMap({ $0 }) where s["connecting"]?.boolValue == true { return false }
        if px.deliverableNow > 0 { return false }
        guard px.pairOpen else {
            return [p, w].compactMap { $0 }.allSatisfy { ($0["openConnections"]?.intValue ?? 0) == 0 }
        }
        guard let p, let w else { return false }
        func n(_ v: PlistValue?) -> Int { Int(v?.intValue ?? -1) }
        return n(p["connFramesSent"]) == px.framesIn[.phoneToWatch, default: 0]
            && px.framesOut[.phoneToWatch, default: 0] == n(w["connFramesReceived"])
            && n(w["connFramesSent"]) == px.framesIn[.watchToPhone, default: 0]
            && px.framesOut[.watchToPhone, default: 0] == n(p["connFramesReceived"])
    }

    public func advanceClocks(to t: EpochMs, idleLink: Bool) throws {
        guard t > nowMs else { return }
        lastQuiet = nil
        nowMs = t
        proxy?.setNow(t)
        _ = try callAll("clock set \(t)" + (idleLink ? " idle-link" : ""))
    }

    public func setWallOffset(_ role: DeviceRole, _ offsetMs: Int64) throws {
        lastQuiet = nil
        _ = try nodes[role]?.require("clock offset \(offsetMs)")
    }

    public func setFaults(_ faults: LinkFaults) throws {
        lastQuiet = nil
        proxy?.faults = faults
    }

    public func resetConnection() throws {
        lastQuiet = nil
        proxy?.resetConnection()
    }

    public func takeTimeline() -> [String] { proxy?.takeTimeline() ?? [] }

    /// The warnings and errors in both nodes' `node.log`.
    public func nodeLogs() -> [String] {
        DeviceRole.allCases.flatMap { role -> [String] in
            guard let text = readTextFile(stateDir(role) + "/node.log") else { return [] }
            return text.split(separator: "\n").filter { $0.contains("] warning:") || $0.contains("] error:") }.map(String.init)
        }
    }
}
