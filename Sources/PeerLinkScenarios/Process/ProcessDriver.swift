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
    /// Each node's wall-clock offset as last set (a restarted node starts with it).
    var wallOffsets = PerRole<Int64>(both: 0)
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
        if wallOffsets[role] != 0 { args += ["--wall-offset", String(wallOffsets[role])] }
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
}
