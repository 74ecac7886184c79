import PeerLinkCore
import PeerLinkSim

/// Runs a scenario's steps against a driver: moves virtual time, applies faults, sends
/// commands, checks expectations, and reports.
public final class ScenarioRunner {
    let driver: ScenarioDriver
    public var convergeWithinMs: Int64 = 120_000
    public var keepState = false
    /// Skip heartbeats over a healthy idle link (see `advance`); off to step through every timer.
    public var fastForward = true
    var nowMs: EpochMs = 0
    var faults = LinkFaults()
    var clocks: [DeviceRole: WallClockModel] = [.phone: WallClockModel(), .watch: WallClockModel()]
    var seed: UInt64 = 1
    var timeline: [String] = []
    /// The scenario being run.
    var scenario: Scenario?
    /// When each node's store was last damaged (corrupt, rollback): what it lost then may not
    /// come back (see `ConvergenceCheck`).
    var damagedAtMs: [DeviceRole: EpochMs] = [:]
    /// Nodes whose partial incoming file is to be damaged as soon as they hold one with
    /// committed content (`damage-partial-file`).
    var armedFileDamage: Set<DeviceRole> = []
    /// A sweep's workload: its operations are recorded here, and the scenario's own commands
    /// to the records it follows (see `WorkloadRun`).
    public var workload: WorkloadRun?
    /// Records the run for the HTML report (frames, faults, checks' times, screens); nil: off.
    public var recorder: RunRecorder?

    public init(driver: ScenarioDriver) { self.driver = driver }

    /// Runs `scenario`; never throws (failures are in the result).
    public func run(_ scenario: Scenario) -> ScenarioResult {
        let wallStart = ChildProcess.monotonicMs()
        var result = ScenarioResult(name: scenario.name, file: scenario.file, mode: driver.modeName, passed: false, checks: [],
                                    error: nil, stepsRun: 0, virtualMs: 0, wallMs: 0)
        nowMs = scenario.startMs
        seed = scenario.seed
        self.scenario = scenario
        do {
            try driver.start(scenario)
            recorder?.started(driver, atMs: nowMs)
            for step in scenario.steps {
                try advance(to: step.atMs)
                let checks = try perform(step)
                result.checks += checks
                recorder?.stepDone(step, checks: checks, faults: faults, driver: driver, atMs: nowMs)
                result.stepsRun += 1
            }
            _ = try driver.settle()
            for role in DeviceRole.allCases where driver.isRunning(role) {
                if case .success(let d) = try driver.call(role, "digest") {
                    if role == .phone { result.phoneDigest = d.stringValue } else { result.watchDigest = d.stringValue }
                }
            }
        } catch {
            result.error = "\(error)"
        }
        result.virtualMs = nowMs - scenario.startMs
        result.checks += driver.finalChecks()
        result.passed = result.error == nil && result.checks.allSatisfy(\.passed)
        timeline += driver.takeTimeline()
        result.timeline = timeline
        result.logs = driver.nodeLogs()
        result.traceHash = driver.traceHash(timeline: timeline)
        result.recording = recorder?.finish(driver, atMs: nowMs)
        result.notes += driver.stop(keepState: keepState || !result.passed)
        result.wallMs = ChildProcess.monotonicMs() - wallStart
        return result
    }

    // MARK: - Time

    /// Moves every clock to `target`, stopping at each timer or delivery on the way. Over a
    /// healthy idle link (no fault, both nodes up and connected, nothing outstanding) it skips
    /// the heartbeats and stops only where something else is due.
    func advance(to target: EpochMs) throws {
        while nowMs < target {
            let q = try driver.settle()
            let idle = canFastForward(q)
            let next = (idle ? q.nextWorkEventMs : q.nextEventMs).map { max($0, nowMs + 1) } ?? target
            try moveClocks(to: min(next, target), idleLink: idle)
        }
    }

    /// A line of the runner's own (a fault, a restart) in the timeline, after what the
    /// driver recorded of the step: the timeline stays in time order.
    func note(_ line: String) {
        timeline += driver.takeTimeline()
        timeline.append(line)
    }

    /// Fast-forward is exact only when nothing can happen on the link but heartbeats.
    func canFastForward(_ q: QuietState) -> Bool {
        fastForward && faults.isClear && q.phoneConnected && q.watchConnected && q.nothingOutstanding && !q.connecting
            && driver.isRunning(.phone) && driver.isRunning(.watch)
    }

    func moveClocks(to t: EpochMs, idleLink: Bool = false) throws {
        guard t > nowMs else { return }
        nowMs = t
        for role in DeviceRole.allCases where driver.isRunning(role) {
            let m = clocks[role]!
            if m != WallClockModel() { try driver.setWallOffset(role, m.offset(at: t)) }
        }
        try driver.advanceClocks(to: t, idleLink: idleLink)
        try damageArmedPartialFiles()
        recorder?.timePassed(driver, to: t)
    }

    /// `damage-partial-file`: once the node holds a partial incoming file with committed
    /// content, it is killed, bytes of that content are changed, and it is restarted.
    func damageArmedPartialFiles() throws {
        guard !armedFileDamage.isEmpty else { return }
        for role in DeviceRole.allCases where armedFileDamage.contains(role) && driver.isRunning(role) {
            _ = try driver.settle()
            guard case .success(let f) = try driver.call(role, "query sync-state incomingFile"),
                  let committed = f["committedBytes"]?.intValue, committed > 0, let path = f["path"]?.stringValue else { continue }
            armedFileDamage.remove(role)
            try driver.kill(role)
            seed &+= 0x9E37
            let what = try driver.damagePartialFile(role, path: path, committedBytes: committed, seed: seed)
            try driver.restart(role)
            try driver.setWallOffset(role, clocks[role]!.offset(at: nowMs))
            note("\(nowMs) damage the partial file of \(role) (\(what ?? "nothing to damage")), restart")
        }
    }

    // MARK: - Steps

    func perform(_ step: ScenarioStep) throws -> [CheckOutcome] {
        // What crossed the link before this step comes before whatever the step adds.
        timeline += driver.takeTimeline()
        switch step.action {
        case .node(let role, let cmd):
            guard driver.isRunning(role) else {
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "the \(role) is not running")]
            }
            _ = try driver.settle()
            let run = { [self] () throws -> [CheckOutcome] in
                switch try driver.call(role, cmd.raw) {
                case .success: return []
                case .failure(let e):
                    return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "the \(role) refused: \(e.message)")]
                }
            }
            guard let w = workload else { return try run() }
            return try w.aroundScenarioCommand(role, cmd, driver: driver, nowMs: nowMs, run)
        case .workload(let op):
            try workload?.issue(op, driver: driver, nowMs: nowMs)
            return []
        case .checkWorkload:
            guard let w = workload else { return [] }
            let problems = try w.check(scenario: scenario, driver: driver)
            return problems.isEmpty
                ? [CheckOutcome(location: step.location, description: "workload \(w.kind.rawValue) matches its model", passed: true,
                                detail: "\(w.entries.filter { $0.skipped == nil }.count) of \(w.entries.count) operations issued")]
                : problems.map { CheckOutcome(location: step.location, description: "workload \(w.kind.rawValue) model", passed: false, detail: $0) }
        case .expectValue(let role, let path, let op, let expected):
            _ = try driver.settle()
            guard driver.isRunning(role) else {
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "the \(role) is not running")]
            }
            switch try driver.call(role, "query " + path.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")) {
            case .success(let actual):
                let ok = ExpectationCheck.compare(actual, op, expected)
                return [CheckOutcome(location: step.location, description: step.text, passed: ok, detail: ok ? "" : "actual \(actual.jsonString())")]
            case .failure(let e):
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: e.message)]
            }
        case .expectConverged:
            return [try converge(step)]
        case .expectRefusal(let role, let cmd):
            guard driver.isRunning(role) else {
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "the \(role) is not running")]
            }
            _ = try driver.settle()
            switch try driver.call(role, cmd.raw) {
            case .success(let v):
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "accepted: \(v.jsonString())")]
            case .failure(let e):
                return [CheckOutcome(location: step.location, description: step.text, passed: true, detail: "refused: \(e.message)")]
            }
        case .link(let change):
            if change == .reset {
                try driver.resetConnection()
            } else {
                change.apply(to: &faults)
                try driver.setFaults(faults)
            }
            note("\(nowMs) link: \(faults)")
            return []
        case .kill(let role):
            try driver.kill(role)
            note("\(nowMs) kill -9 \(role)")
            return []
        case .restart(let role):
            try driver.restart(role)
            try driver.setWallOffset(role, clocks[role]!.offset(at: nowMs))
            note("\(nowMs) restart \(role)")
            return []
        case .clock(let role, let change):
            clocks[role]!.apply(change, at: nowMs)
            if driver.isRunning(role) { try driver.setWallOffset(role, clocks[role]!.offset(at: nowMs)) }
            return []
        case .stranger:
            seed &+= 0x9E37
            var rng = SplitMix64(seed: seed)
            let key = (0..<32).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let wrong = (0..<32).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let answer = try driver.injectStranger(StrangerFrames.attempt(ephemeralKey: key, wrongSecret: wrong))
            var decoder = RecordDecoder()
            decoder.feed(answer)
            var kinds: [String] = []
            while let r = try? decoder.next() { kinds.append("\(r.type)") }
            note("\(nowMs) a stranger tried to pair with the phone; it answered: \(kinds.joined(separator: ", "))")
            let sawOnlyHandshake = kinds.allSatisfy { $0 == "reject" }
            return [CheckOutcome(location: step.location, description: "stranger connects", passed: sawOnlyHandshake,
                                 detail: sawOnlyHandshake ? "refused; it saw only \(kinds.isEmpty ? "nothing" : kinds.joined(separator: ", "))" : "it saw \(kinds.joined(separator: ", "))")]
        case .rollbackStore(let role):
            try driver.kill(role)
            seed &+= 0x9E37
            let dropped = try driver.rollBackStore(role, seed: seed)
            damagedAtMs[role] = nowMs
            workload?.storeDamaged(role, atMs: nowMs, rollback: true)
            try driver.restart(role)
            try driver.setWallOffset(role, clocks[role]!.offset(at: nowMs))
            note("\(nowMs) roll back the store of \(role) by \(dropped) commits, restart")
            return []
        case .damagePartialFile(let role):
            armedFileDamage.insert(role)
            try damageArmedPartialFiles()
            return []
        case .corruptStore(let role):
            try driver.kill(role)
            seed &+= 0x9E37
            try driver.corruptStore(role, seed: seed)
            damagedAtMs[role] = nowMs
            workload?.storeDamaged(role, atMs: nowMs)
            try driver.restart(role)
            try driver.setWallOffset(role, clocks[role]!.offset(at: nowMs))
            note("\(nowMs) corrupt store of \(role), restart")
            return []
        }
    }

    /// What each running node still has in flight, from its `sync-state` answer.
    func outstandingSummary() throws -> String {
        var parts: [String] = []
        for role in DeviceRole.allCases where driver.isRunning(role) {
            guard case .success(let s) = try driver.call(role, "query sync-state") else { continue }
            let items = ConvergenceCheck.outstandingItems(s)
            parts.append("\(role): " + (items.isEmpty ? "nothing" : items.joined(separator: ", ")))
        }
        return parts.joined(separator: "; ")
    }

    /// The parts of the two nodes' sync state that differ (see `ConvergenceCheck`).
    func syncStateDifferences() throws -> [String] {
        guard case .success(let p) = try driver.call(.phone, "query sync-state") else { return ["the phone did not report its sync state"] }
        guard case .success(let w) = try driver.call(.watch, "query sync-state") else { return ["the watch did not report its sync state"] }
        return ConvergenceCheck.differences(phone: p, watch: w, damagedAtMs: damagedAtMs)
    }

    /// Waits (in virtual time, up to `convergeWithinMs`) until both nodes are connected and
    /// agree on everything they must (`ConvergenceCheck`): equal digests, contexts,
    /// complication payload and files, nothing in flight.
    func converge(_ step: ScenarioStep) throws -> CheckOutcome {
        let limit = nowMs + convergeWithinMs
        while true {
            let q = try driver.settle()
            let connected = q.phoneConnected && q.watchConnected
            var equal = false
            var digests = ("?", "?")
            if driver.isRunning(.phone), driver.isRunning(.watch) {
                let pd = try driver.call(.phone, "digest"), wd = try driver.call(.watch, "digest")
                if case .success(let p) = pd, case .success(let w) = wd {
                    digests = (p.stringValue ?? "?", w.stringValue ?? "?")
                    equal = p == w
                }
            }
            var parts: [String] = []
            if connected && q.nothingOutstanding && equal {
                parts = try syncStateDifferences()
                if parts.isEmpty {
                    return CheckOutcome(location: step.location, description: "expect converged", passed: true, detail: "")
                }
            }
            if nowMs >= limit {
                var why: [String] = []
                if !connected { why.append("the link is down") }
                if !q.nothingOutstanding { why.append("transfers still outstanding (\(try outstandingSummary()))") }
                if !equal { why.append("digests differ (phone \(digests.0.prefix(16))…, watch \(digests.1.prefix(16))…)") }
                why += parts
                return CheckOutcome(location: step.location, description: "expect converged", passed: false,
                                    detail: why.joined(separator: "; ") + " after \(convergeWithinMs / 1000) s")
            }
            try moveClocks(to: min(q.nextEventMs.map { max($0, nowMs + 1) } ?? nowMs + 1000, limit))
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
