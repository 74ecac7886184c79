import PeerLinkCore

/// The reference model of the fitness workload, in plain Swift over the operations really
/// issued (no link, no faults), checked on both nodes after they converged:
/// - settings: each field the workload wrote holds its last writer by the hybrid clock, in the
///   replicated record and in both apps' views;
/// - workouts: the session calls the watch must accept or refuse (the session's states), and
///   each saved workout's elapsed time (pauses excluded, the workout's clock never running
///   back: a call is dated at the later of the watch's wall clock and the workout's latest
///   time) and heart rates (count, average, minimum, maximum), on both nodes; the phone shows
///   no live workout once the last has ended;
/// - steps: each day's total after de-duplication (the watch's samples count in full, the
///   phone's only for the part of their time no watch sample covers, each pro rata inside the
///   day), on the phone, when the scenario records no steps of its own;
/// - complication: each push is sent as complication user info while the day's budget lasts
///   (one fewer left after it) and as ordinary user info once it is spent.
/// Work a store damage may have lost (done on that node before the damage) is not required.
enum FitnessModel {
    static func check(_ run: WorkloadRun, scenario: Scenario, driver: ScenarioDriver) throws -> [String] {
        var problems = try settings(run, driver: driver)
        let (workoutProblems, saved, activeAtEnd) = workouts(run)
        problems += workoutProblems
        problems += try savedWorkouts(saved, driver: driver)
        if !activeAtEnd, let live = try WorkloadRun.value(driver, .phone, "query live workout state")?.stringValue,
           ["prepared", "running", "paused"].contains(live), !saved.isEmpty {
            problems.append("the phone still shows a live workout (\(live)) after the last one ended")
        }
        problems += try steps(run, scenario: scenario, driver: driver)
        problems += complication(run)
        return problems
    }

    // MARK: - Settings

    static let settingViews: [(field: String, query: String, roles: [DeviceRole])] = [
        ("stepGoal", "settings step-goal", [.phone, .watch]), ("notifications", "settings notifications", [.phone]),
        ("weeklySummary", "settings weekly-summary", [.phone]), ("runDetection", "settings run-detection", [.phone]),
    ]

    static func settings(_ run: WorkloadRun, driver: ScenarioDriver) throws -> [String] {
        let ofSettings: (WorkloadOp) -> Bool = { op in
            switch op.action { case .stepGoal, .setting: true; default: false }
        }
        guard run.entries.contains(where: { $0.accepted && ofSettings($0.op) }) else { return [] }
        var problems: [String] = []
        for role in DeviceRole.allCases {
            let record = try WorkloadRun.value(driver, role, "query record settings settings")
            for view in settingViews {
                let writes = run.writes("settings", "settings", field: view.field, of: ofSettings)
                guard !writes.isEmpty else { continue }
                if let why = WorkloadRun.lastWriterWins(writes, final: record, field: view.field) {
                    problems.append("settings \(view.field) on the \(role): \(why)")
                }
                guard view.roles.contains(role), let stored = record?["fields"]?[view.field] else { continue }
                let shown = try WorkloadRun.value(driver, role, "query \(view.query)")
                if shown != stored { problems.append("the \(role) shows \(view.query) \(shown?.jsonString() ?? "nothing"), its record holds \(stored.jsonString())") }
            }
        }
        return problems
    }

    // MARK: - Workouts

    /// A workout as the model follows it.
    struct Workout {
        var id: String
        var startMs: EpochMs
        var latestMs: EpochMs
        var pausedAtMs: EpochMs?
        var pausedMs: Int64 = 0
        var endMs: EpochMs?
        var heartRates: [Double] = []
        var certain = true
        /// When it started in the run's (virtual) time, what store damage is compared with.
        var startedAt: EpochMs = 0
        var elapsedMs: Int64? { endMs.map { $0 - startMs - pausedMs } }
    }

    /// Follows the workout operations in order: what the watch must accept, and the workouts
    /// saved; `activeAtEnd` when a session may be active at the end (one the model follows, or
    /// one it cannot know after a damage of the watch's store).
    static func workouts(_ run: WorkloadRun) -> (problems: [String], saved: [Workout], activeAtEnd: Bool) {
        var problems: [String] = []
        var saved: [Workout] = []
        var active: Workout?
        var lastMs: EpochMs = .min
        /// After a damage of the watch's store: what session it holds is unknown (lost, or an
        /// older one brought back) until a workout ends there; nothing is predicted or checked.
        var unknown = false
        for e in run.entries where e.skipped == nil {
            let isWorkoutOp: Bool
            switch e.op.action { case .workout, .heartRate: isWorkoutOp = true; default: isWorkoutOp = false }
            guard isWorkoutOp else { continue }
            if run.damage.contains(where: { $0.0 == .watch && $0.1 >= lastMs && $0.1 <= e.atMs }) {
                unknown = true
                if var a = active { a.certain = false; active = a }
            }
            lastMs = e.atMs
            if unknown {
                // Follow what the watch says; a session it ends leaves it with none.
                if e.accepted, case .workout("start") = e.op.action {
                    if var a = active { a.certain = false; saved.append(a) }
                    active = Workout(id: e.reply["id"]?.stringValue ?? "?", startMs: e.wallMs, latestMs: e.wallMs, certain: false, startedAt: e.atMs)
                } else if e.accepted, case .workout("end") = e.op.action {
                    if var a = active { a.certain = false; saved.append(a) }
                    active = nil
                    unknown = false
                }
                continue
            }
            let t = max(e.wallMs, active?.latestMs ?? e.wallMs)
            let expected: Bool
            switch e.op.action {
            case .workout("start"): expected = true
            case .workout("pause"), .workout("end"), .heartRate: expected = active != nil && active!.pausedAtMs == nil
            case .workout("resume"): expected = active?.pausedAtMs != nil
            default: expected = false
            }
            if e.accepted != expected {
                problems.append("\(e.op): the watch \(e.accepted ? "accepted" : "refused") it (\(e.reply.jsonString())); the session \(active.map { $0.pausedAtMs == nil ? "was running" : "was paused" } ?? "had ended or never started")")
            }
            guard e.accepted else { continue }
            switch e.op.action {
            case .workout("start"):
                if var a = active {  // a second session ends the first (a pause in progress is not counted)
                    if let p = a.pausedAtMs { a.pausedMs += t - p; a.pausedAtMs = nil }
                    a.endMs = t
                    saved.append(a)
                }
                active = Workout(id: e.reply["id"]?.stringValue ?? "?", startMs: t, latestMs: t, startedAt: e.atMs)
            case .workout("pause"):
                active!.pausedAtMs = t
                active!.latestMs = t
            case .workout("resume"):
                active!.pausedMs += t - active!.pausedAtMs!
                active!.pausedAtMs = nil
                active!.latestMs = t
            case .workout("end"):
                active!.endMs = t
                saved.append(active!)
                active = nil
            case .heartRate(let bpm):
                active!.heartRates.append(Double(bpm))
                active!.latestMs = t
            default: break
            }
        }
        // A damage of the watch's store after a workout began may have lost it (before it synced).
        let checked = saved.map { w -> Workout in
            var w = w
            w.certain = w.certain && !run.damage.contains { $0.0 == .watch && $0.1 >= w.startedAt }
            return w
        }
        // A damage of the watch's store after its last session call: the session it holds is
        // unknown too (one it ended may be recovered from an older snapshot, running again).
        if run.damage.contains(where: { $0.0 == .watch && $0.1 >= lastMs }) { unknown = true }
        return (problems, checked, active != nil || unknown)
    }

    static func savedWorkouts(_ saved: [Workout], driver: ScenarioDriver) throws -> [String] {
        var problems: [String] = []
        for w in saved where w.certain {
            for role in DeviceRole.allCases {
                guard let r = try WorkloadRun.value(driver, role, "query record workout \(w.id)"), r["deleted"] == false, let f = r["fields"] else {
                    problems.append("workout \(w.id) on the \(role): saved on the watch, yet no record of it")
                    continue
                }
                var wrong: [String] = []
                if f["state"]?.stringValue != "ended" { wrong.append("state \(f["state"]?.jsonString() ?? "none")") }
                if f["elapsed"]?.intValue != w.elapsedMs { wrong.append("elapsed \(f["elapsed"]?.jsonString() ?? "none") ms, expected \(w.elapsedMs ?? 0) (pauses excluded)") }
                if f["hrCount"]?.intValue != Int64(w.heartRates.count) { wrong.append("\(f["hrCount"]?.jsonString() ?? "no") heart rates, expected \(w.heartRates.count)") }
                if !w.heartRates.isEmpty {
                    let avg = w.heartRates.reduce(0, +) / Double(w.heartRates.count)
                    if abs((f["hrAvg"]?.doubleValue ?? -1) - avg) > 1e-6 { wrong.append("average heart rate \(f["hrAvg"]?.jsonString() ?? "none"), expected \(avg)") }
                    if f["hrMin"]?.doubleValue != w.heartRates.min() || f["hrMax"]?.doubleValue != w.heartRates.max() {
                        wrong.append("heart rate range \(f["hrMin"]?.jsonString() ?? "?")–\(f["hrMax"]?.jsonString() ?? "?"), expected \(w.heartRates.min()!)–\(w.heartRates.max()!)")
                    }
                }
                if !wrong.isEmpty { problems.append("workout \(w.id) on the \(role): " + wrong.joined(separator: "; ")) }
            }
        }
        return problems
    }

    // MARK: - Steps

    /// A step sample as issued: its value over `[startMs, endMs)` from one source.
    struct StepSample { var source: DeviceRole; var value: Double; var startMs: EpochMs; var endMs: EpochMs }

    /// The day's steps the way HealthKit merges sources: the watch in full, the phone only
    /// where no watch sample covers its time; each sample pro rata inside the day.
    static func dailySteps(_ samples: [StepSample], dayStart: EpochMs, dayEnd: EpochMs) -> Double? {
        func inside(_ s: StepSample) -> (EpochMs, EpochMs)? {
            let a = max(s.startMs, dayStart), b = min(s.endMs, dayEnd)
            return a < b ? (a, b) : nil
        }
        let relevant = samples.filter { inside($0) != nil }
        guard !relevant.isEmpty else { return nil }
        var total = 0.0
        var covered: [(EpochMs, EpochMs)] = []
        for s in relevant where s.source == .watch {
            let (a, b) = inside(s)!
            total += s.value * Double(b - a) / Double(s.endMs - s.startMs)
            covered.append((a, b))
        }
        for s in relevant where s.source == .phone {
            let (a, b) = inside(s)!
            // The part of [a, b) no watch sample covers.
            var free = b - a
            var cuts = covered.compactMap { c -> (EpochMs, EpochMs)? in
                let x = max(c.0, a), y = min(c.1, b)
                return x < y ? (x, y) : nil
            }.sorted { $0.0 < $1.0 }
            var merged: [(EpochMs, EpochMs)] = []
            for c in cuts {
                if let last = merged.last, c.0 <= last.1 { merged[merged.count - 1].1 = max(last.1, c.1) } else { merged.append(c) }
            }
            cuts = merged
            for c in cuts { free -= c.1 - c.0 }
            total += s.value * Double(free) / Double(s.endMs - s.startMs)
        }
        return total
    }

    static func steps(_ run: WorkloadRun, scenario: Scenario, driver: ScenarioDriver) throws -> [String] {
        let scenarioSteps = scenario.steps.contains { step in
            if case .node(_, let c) = step.action { return c.words.first == "steps" || c.words.first == "tz" }
            return false
        }
        let issued = run.entries.filter { e in if case .steps = e.op.action { e.accepted } else { false } }
        guard !scenarioSteps, !issued.isEmpty, issued.allSatisfy({ run.isCertain($0.op.role, atMs: $0.atMs) }),
              let calendar = LocalCalendar(identifier: scenario.timeZone) else { return [] }
        let samples = issued.map { e -> StepSample in
            guard case .steps(let n) = e.op.action else { fatalError("filtered") }
            let length: Int64 = e.op.role == .watch ? 60_000 : 600_000
            return StepSample(source: e.op.role, value: Double(n), startMs: e.wallMs - length, endMs: e.wallMs)
        }
        var days = Set<CivilDate>()
        for s in samples { days.insert(calendar.civilDate(s.startMs)); days.insert(calendar.civilDate(s.endMs - 1)) }
        _ = try WorkloadRun.value(driver, .phone, "authorize grant steps")
        var problems: [String] = []
        for day in days.sorted() {
            let start = calendar.startOfDay(day), end = calendar.startOfDay(day.adding(days: 1))
            guard let expected = dailySteps(samples, dayStart: start, dayEnd: end) else { continue }
            let shown = try WorkloadRun.value(driver, .phone, "query steps \(day)")
            guard let n = shown?.intValue, abs(Double(n) - expected) <= 1 else {
                problems.append("steps on \(day) on the phone: \(shown?.jsonString() ?? "nothing"), expected \(Int(expected.rounded())) (watch in full, phone in its gaps)")
                continue
            }
        }
        return problems
    }

    // MARK: - Complication

    static func complication(_ run: WorkloadRun) -> [String] {
        var problems: [String] = []
        for e in run.entries where e.accepted && e.op.action == .complicationPush {
            guard let before = e.remainingBefore else { continue }
            let outcome = e.reply["outcome"]?.stringValue ?? "?", after = e.reply["remaining"]?.intValue
            if before > 0, outcome != "complication" || after != before - 1 {
                problems.append("\(e.op): \(before) complication transfers were left, yet it went as \(outcome) leaving \(after.map(String.init) ?? "?")")
            } else if before == 0, outcome == "complication" || after != 0 {
                problems.append("\(e.op): the day's budget was spent, yet it went as \(outcome) leaving \(after.map(String.init) ?? "?")")
            }
        }
        return problems
    }
}
