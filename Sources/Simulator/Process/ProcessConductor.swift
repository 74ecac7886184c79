#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLink
import Shared

/// Options of a process-mode run.
public struct ConductorOptions: Sendable {
    /// Where `phone-node` and `watch-node` are.
    public var binDirectory: String
    /// Keep the nodes' state directories after the run (their path is printed).
    public var keepState = false
    /// Real time allowed for the nodes to go quiet after each step.
    public var settleTimeoutMs: Int64 = 20_000
    /// Virtual time allowed for `expect converged` to be met.
    public var convergeWithinMs: Int64 = 120_000

    public init(binDirectory: String) { self.binDirectory = binDirectory }
}

/// Runs a scenario against real `phone-node` and `watch-node` processes over loopback TCP.
///
/// Both nodes run on virtual clocks that only the conductor moves. After every step the
/// conductor waits until both are quiet — each has processed every frame the other sent on
/// their connection — and only then moves time, to the next step or the earliest timer of
/// either node, whichever comes first.
public final class ProcessConductor {
    let options: ConductorOptions
    var phone: NodeHandle!
    var watch: NodeHandle!
    var workDir = ""
    var nowMs: EpochMs = 0

    public init(options: ConductorOptions) { self.options = options }

    /// Runs `scenario` and reports; never throws (failures are in the result).
    public func run(_ scenario: Scenario) -> ScenarioResult {
        let wallStart = ChildProcess.monotonicMs()
        var result = ScenarioResult(name: scenario.name, file: scenario.file, mode: "process", passed: false, checks: [],
                                    error: nil, stepsRun: 0, virtualMs: 0, wallMs: 0)
        do {
            try start(scenario)
            for step in scenario.steps {
                try advance(to: step.atMs)
                result.checks += try perform(step)
                result.stepsRun += 1
            }
            _ = try settle()
            result.phoneDigest = try phone.require("digest").stringValue
            result.watchDigest = try watch.require("digest").stringValue
        } catch {
            result.error = "\(error)"
        }
        result.virtualMs = nowMs - scenario.startMs
        result.wallMs = ChildProcess.monotonicMs() - wallStart
        result.passed = result.error == nil && result.checks.allSatisfy(\.passed)
        stop(keep: options.keepState || !result.passed)
        if options.keepState || !result.passed, !workDir.isEmpty {
            result.notes.append("node state and logs kept in \(workDir)")
        }
        return result
    }

    // MARK: - Lifecycle

    func start(_ s: Scenario) throws {
        workDir = try makeTemporaryDirectory(prefix: "peerlink-sim")
        let bin = options.binDirectory
        for exe in ["phone-node", "watch-node"] where access(bin + "/" + exe, X_OK) != 0 {
            throw NodeCallError(message: "\(bin)/\(exe) not found: build first (`swift build`)")
        }
        let pair = try ChildProcess(name: "pair", path: bin + "/phone-node", arguments: ["pair", "--state", workDir + "/phone"], stderrPath: workDir + "/pair.err")
        guard let code = pair.readLine(timeoutMs: 10_000), PairingFile.secret(fromCode: code) != nil else {
            throw NodeCallError(message: "`phone-node pair` printed no pairing code")
        }
        pair.terminate()
        let common = ["--virtual-clock", String(s.startMs), "--tz", s.timeZone, "--locale", s.language.rawValue]
        let p = try ChildProcess(name: "phone", path: bin + "/phone-node",
                                 arguments: ["--state", workDir + "/phone", "--listen", "127.0.0.1:0", "--seed", String(s.seed)] + common,
                                 stderrPath: workDir + "/phone.err")
        phone = NodeHandle(role: .phone, process: p)
        guard let listening = phone.waitFor(prefix: "! listening ", timeoutMs: 15_000) else {
            throw NodeCallError(message: "phone-node did not start listening (see \(workDir)/phone.err)")
        }
        let address = String(listening.dropFirst("! listening ".count))
        _ = phone.waitFor(prefix: "! ready", timeoutMs: 15_000)
        let w = try ChildProcess(name: "watch", path: bin + "/watch-node",
                                 arguments: ["--state", workDir + "/watch", "--connect", address, "--pair", code, "--seed", String(s.seed &+ 1)] + common,
                                 stderrPath: workDir + "/watch.err")
        watch = NodeHandle(role: .watch, process: w)
        guard watch.waitFor(prefix: "! ready", timeoutMs: 15_000) != nil else {
            throw NodeCallError(message: "watch-node did not start (see \(workDir)/watch.err)")
        }
        nowMs = s.startMs
        try waitConnected()
    }

    func waitConnected() throws {
        let deadline = ChildProcess.monotonicMs() + options.settleTimeoutMs
        while ChildProcess.monotonicMs() < deadline {
            let (sp, sw) = try settle()
            if sp["connected"]?.boolValue == true && sw["connected"]?.boolValue == true { return }
            try advanceClocks(to: nextTimer(sp, sw) ?? nowMs + 100)
        }
        throw NodeCallError(message: "the nodes did not connect")
    }

    func stop(keep: Bool) {
        for n in [phone, watch].compactMap({ $0 }) {
            try? n.process.send("quit")
            n.process.terminate()
        }
        phone = nil
        watch = nil
        if !keep, !workDir.isEmpty { removeTree(workDir) }
    }

    // MARK: - Time

    /// Waits until both nodes are quiet; returns their status.
    func settle() throws -> ([String: PlistValue], [String: PlistValue]) {
        let deadline = ChildProcess.monotonicMs() + options.settleTimeoutMs
        var spins = 0
        while true {
            guard case .dictionary(let sp) = try phone.require("status"), case .dictionary(let sw) = try watch.require("status") else {
                throw NodeCallError(message: "bad status answer")
            }
            if Self.isQuiet(sp, sw) { return (sp, sw) }
            if ChildProcess.monotonicMs() > deadline {
                throw NodeCallError(message: "the nodes did not go quiet within \(options.settleTimeoutMs) ms (phone \(PlistValue.dictionary(sp).jsonString()), watch \(PlistValue.dictionary(sw).jsonString()))")
            }
            spins += 1
            if spins > 20 { usleep(200) }
        }
    }

    static func isQuiet(_ p: [String: PlistValue], _ w: [String: PlistValue]) -> Bool {
        for s in [p, w] {
            if s["connecting"]?.boolValue == true || (s["handshaking"]?.intValue ?? 0) > 0 { return false }
        }
        let pc = p["connected"]?.boolValue ?? false, wc = w["connected"]?.boolValue ?? false
        if pc != wc { return false }
        if !pc { return (p["openConnections"]?.intValue ?? 0) == 0 && (w["openConnections"]?.intValue ?? 0) == 0 }
        return p["linkFramesSent"] == w["linkFramesReceived"] && w["linkFramesSent"] == p["linkFramesReceived"]
    }

    func nextTimer(_ p: [String: PlistValue], _ w: [String: PlistValue]) -> EpochMs? {
        [p["nextDeadline"]?.intValue, w["nextDeadline"]?.intValue].compactMap { $0 }.min()
    }

    func advanceClocks(to t: EpochMs) throws {
        guard t > nowMs else { return }
        nowMs = t
        _ = try phone.require("clock set \(t)")
        _ = try watch.require("clock set \(t)")
    }

    /// Moves both clocks to `target`, stopping at every timer of either node on the way.
    func advance(to target: EpochMs) throws {
        while nowMs < target {
            let (sp, sw) = try settle()
            let next = nextTimer(sp, sw).map { max($0, nowMs + 1) } ?? target
            try advanceClocks(to: min(next, target))
        }
    }

    // MARK: - Steps

    func handle(_ role: DeviceRole) -> NodeHandle { role == .phone ? phone : watch }

    func perform(_ step: ScenarioStep) throws -> [CheckOutcome] {
        switch step.action {
        case .node(let role, let cmd):
            _ = try settle()
            switch try handle(role).call(cmd.raw) {
            case .success: return []
            case .failure(let e):
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "the \(role) refused: \(e.message)")]
            }
        case .expectValue(let role, let path, let op, let expected):
            _ = try settle()
            switch try handle(role).call("query " + path.joined(separator: " ")) {
            case .success(let actual):
                let ok = ExpectationCheck.compare(actual, op, expected)
                return [CheckOutcome(location: step.location, description: step.text, passed: ok, detail: ok ? "" : "actual \(actual.jsonString())")]
            case .failure(let e):
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: e.message)]
            }
        case .expectConverged:
            return [try converge(step)]
        }
    }

    /// Waits (in virtual time, up to `convergeWithinMs`) for equal digests with nothing in flight.
    func converge(_ step: ScenarioStep) throws -> CheckOutcome {
        let limit = nowMs + options.convergeWithinMs
        while true {
            let (sp, sw) = try settle()
            let connected = sp["connected"]?.boolValue == true && sw["connected"]?.boolValue == true
            let idle = [sp, sw].allSatisfy { $0["outstandingUserInfo"]?.intValue == 0 && $0["syncInFlight"]?.boolValue == false }
            let pd = try phone.require("digest"), wd = try watch.require("digest")
            let equal = pd == wd
            if connected && idle && equal {
                return CheckOutcome(location: step.location, description: "expect converged", passed: true,
                                    detail: "")
            }
            if nowMs >= limit {
                var why: [String] = []
                if !connected { why.append("the link is down") }
                if !idle { why.append("transfers still outstanding") }
                if !equal { why.append("digests differ (phone \(pd.stringValue ?? "?"), watch \(wd.stringValue ?? "?"))") }
                return CheckOutcome(location: step.location, description: "expect converged", passed: false,
                                    detail: why.joined(separator: "; ") + " after \(options.convergeWithinMs / 1000) s")
            }
            try advanceClocks(to: min(nextTimer(sp, sw).map { max($0, nowMs + 1) } ?? nowMs + 1000, limit))
        }
    }
}

/// Compares a queried value with an expectation's literal.
public enum ExpectationCheck {
    public static func compare(_ actual: PlistValue, _ op: ExpectOperator, _ expected: PlistValue) -> Bool {
        if let a = actual.doubleValue, let e = expected.doubleValue {
            switch op {
            case .equal: return a == e
            case .notEqual: return a != e
            case .less: return a < e
            case .lessOrEqual: return a <= e
            case .greater: return a > e
            case .greaterOrEqual: return a >= e
            }
        }
        switch op {
        case .equal: return actual == expected
        case .notEqual: return actual != expected
        default:
            guard let a = actual.stringValue, let e = expected.stringValue else { return false }
            switch op {
            case .less: return a < e
            case .lessOrEqual: return a <= e
            case .greater: return a > e
            default: return a >= e
            }
        }
    }
}
