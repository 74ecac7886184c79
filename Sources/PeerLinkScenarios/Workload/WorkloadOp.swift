import PeerLinkCore
import PeerLinkPOSIX

/// One app action a workload issues at an offset from the scenario's start, on one device.
///
/// Written `@OFFSET ROLE VERB [ARGS]` (what `--ops` takes, `;`-separated):
/// `@5m phone goal-add G3 2026-09-14`, `@6m watch goal-title G3 G3b`, `@7m phone goal-date G3
/// 2026-10-01`, `@8m watch goal-delete G3`, `@1m watch step-goal 9000`, `@1m phone switch
/// notifications off`, `@2m watch workout start running|pause|resume|end`, `@2m watch hr 140`,
/// `@3m watch steps 120` (the minute before now), `@3m phone steps 300` (the 10 minutes before
/// now), `@4m phone complication-push`, `@4m watch message 3` (a `sendMessage` with a reply
/// handler, payload `{"workload": 3}`: its reply or its WCError, whatever the link does). Goals are named by the workload (`G<n>`); the node's id
/// for one is the id its `goal-add` was given.
public struct WorkloadOp: Sendable, Equatable, CustomStringConvertible {
    public var atMs: Int64
    public var role: DeviceRole
    public var action: Action

    public enum Action: Sendable, Equatable {
        case goalAdd(name: String, date: CivilDate)
        case goalTitle(name: String, title: String)
        case goalDate(name: String, date: CivilDate)
        case goalDelete(name: String)
        case stepGoal(Int)
        case setting(name: String, on: Bool)
        case workout(String)
        case heartRate(Int)
        case steps(Int)
        case complicationPush
        /// `message send {"workload": N}`: a message with a reply handler.
        case message(Int)
    }

    public init(atMs: Int64, role: DeviceRole, action: Action) {
        self.atMs = atMs
        self.role = role
        self.action = action
    }

    /// The switches a workload flips (the phone's settings command words and the replicated fields).
    public static let settingFields = ["notifications": "notifications", "weekly-summary": "weeklySummary", "run-detection": "runDetection"]

    public var description: String {
        "@\(FaultSchedule.durationText(atMs)) \(role) " + {
            switch action {
            case .goalAdd(let n, let d): "goal-add \(n) \(d.description)"
            case .goalTitle(let n, let t): "goal-title \(n) \(t)"
            case .goalDate(let n, let d): "goal-date \(n) \(d.description)"
            case .goalDelete(let n): "goal-delete \(n)"
            case .stepGoal(let g): "step-goal \(g)"
            case .setting(let name, let on): "switch \(name) \(on ? "on" : "off")"
            case .workout(let call): "workout \(call)"
            case .heartRate(let b): "hr \(b)"
            case .steps(let n): "steps \(n)"
            case .complicationPush: "complication-push"
            case .message(let n): "message \(n)"
            }
        }()
    }

    /// The node command the action runs (`ids`: the node id of each workload goal so far).
    func command(ids: [String: String]) -> String? {
        switch action {
        case .goalAdd(let n, let d): return "goal add \(n) --date \(d.description)"
        case .goalTitle(let n, let t): return ids[n].map { "goal edit \($0) --title \(t)" }
        case .goalDate(let n, let d): return ids[n].map { "goal edit \($0) --date \(d.description)" }
        case .goalDelete(let n): return ids[n].map { "goal delete \($0) --confirm" }
        case .stepGoal(let g): return "settings step-goal \(g)"
        case .setting(let name, let on): return "settings \(name) \(on ? "on" : "off")"
        case .workout(let call): return call == "start" ? "workout start running" : "workout \(call)"
        case .heartRate(let b): return "hr \(b)"
        case .steps(let n): return role == .watch ? "steps \(n) --over 1m" : "steps \(n)"
        case .complicationPush: return "complication push"
        case .message(let n): return #"message send {"workload": \#(n)}"#
        }
    }
}

/// A workload's operations: `--ops` text and back.
public struct WorkloadOps: Sendable, Equatable, CustomStringConvertible {
    public var ops: [WorkloadOp]
    public init(_ ops: [WorkloadOp]) { self.ops = ops }

    public var description: String { ops.isEmpty ? "none" : ops.map(\.description).joined(separator: "; ") }

    /// Parses `--ops` text (`none` or empty: no operations).
    public static func parse(_ text: String) throws(ScenarioError) -> WorkloadOps {
        let trimmed = text.trimmingCharacters()
        if trimmed.isEmpty || trimmed == "none" { return WorkloadOps([]) }
        var ops: [WorkloadOp] = []
        for (i, part) in trimmed.split(separator: ";").enumerated() {
            let words = part.split(separator: " ").map(String.init)
            let loc = SourceLocation(file: "--ops", line: 1, column: i + 1)
            func fail(_ m: String) -> ScenarioError { ScenarioError(location: loc, message: "operation \(i + 1) '\(words.joined(separator: " "))': \(m)") }
            guard words.count >= 3, words[0].hasPrefix("@"), let at = ScenarioParser.duration(String(words[0].dropFirst())) else {
                throw fail("expected @OFFSET ROLE VERB…")
            }
            guard let role = DeviceRole(rawValue: words[1]) else { throw fail("expected phone or watch") }
            let a = Array(words.dropFirst(3))
            func date(_ w: String) throws(ScenarioError) -> CivilDate {
                guard let d = CivilDate(iso: w) else { throw fail("expected a date like 2026-09-14, found '\(w)'") }
                return d
            }
            func number(_ w: String) throws(ScenarioError) -> Int {
                guard let n = Int(w), n >= 0 else { throw fail("expected a number, found '\(w)'") }
                return n
            }
            let action: WorkloadOp.Action
            switch (words[2], a.count) {
            case ("goal-add", 2): action = .goalAdd(name: a[0], date: try date(a[1]))
            case ("goal-title", 2): action = .goalTitle(name: a[0], title: a[1])
            case ("goal-date", 2): action = .goalDate(name: a[0], date: try date(a[1]))
            case ("goal-delete", 1): action = .goalDelete(name: a[0])
            case ("step-goal", 1): action = .stepGoal(try number(a[0]))
            case ("switch", 2):
                guard WorkloadOp.settingFields[a[0]] != nil, a[1] == "on" || a[1] == "off" else { throw fail("expected a switch (notifications, weekly-summary, run-detection) and on or off") }
                action = .setting(name: a[0], on: a[1] == "on")
            case ("workout", 1):
                guard ["start", "pause", "resume", "end"].contains(a[0]) else { throw fail("expected workout start|pause|resume|end") }
                action = .workout(a[0])
            case ("hr", 1): action = .heartRate(try number(a[0]))
            case ("steps", 1): action = .steps(try number(a[0]))
            case ("complication-push", 0): action = .complicationPush
            case ("message", 1): action = .message(try number(a[0]))
            default: throw fail("unknown operation (goal-add, goal-title, goal-date, goal-delete, step-goal, switch, workout, hr, steps, complication-push, message)")
            }
            ops.append(WorkloadOp(atMs: at, role: role, action: action))
        }
        return WorkloadOps(ops)
    }
}
