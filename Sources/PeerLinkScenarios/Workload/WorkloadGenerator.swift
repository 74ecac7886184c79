import PeerLinkCore

/// The workloads a sweep can mix into a scenario's run (`sync-sim sweep … --workload NAME`):
/// seeded random app actions on both devices, timed against the faults (Jepsen's generators).
public enum WorkloadKind: String, Sendable, CaseIterable {
    /// The fitness app: step-goal and setting changes on both devices, workouts started,
    /// paused, resumed and ended on the watch with heart rates, steps on both devices,
    /// complication pushes from the phone; messages from either device (both workloads).
    case fitness
    /// The countdown app: goals added, renamed, moved to another date and deleted on both devices.
    case countdown

    /// The workload a scenario runs with when it names none: countdown for a scenario that
    /// edits goals or the profile, fitness otherwise.
    public static func `default`(for s: Scenario) -> WorkloadKind {
        s.workload ?? (s.steps.contains { step in
            if case .node(_, let c) = step.action { return c.words.first == "goal" || c.words.first == "profile" }
            return false
        } ? .countdown : .fitness)
    }
}

/// Draws a workload's operations from a seed (the same for the same seed and scenario).
public enum WorkloadGenerator {
    /// The shortest span operations are spread over (a short scenario still gets room).
    public static let minimumSpanMs: Int64 = 20 * 60_000
    /// Operations per run.
    public static let operations = 16...40

    /// The span the operations (and a workload run's faults) are drawn over.
    public static func spanMs(_ s: Scenario) -> Int64 { max(minimumSpanMs, s.endMs - s.startMs) }

    public static func generate(_ kind: WorkloadKind, seed: UInt64, scenario s: Scenario) -> WorkloadOps {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ 0x574F_524B_4C4F_4144)
        let span = spanMs(s)
        let count = rng.next(in: operations)
        // Times: uniform whole seconds, a third of them right after the one before (0–3 s:
        // races between the two devices, and with the link's events).
        var times: [Int64] = []
        for _ in 0..<count {
            if let last = times.last, rng.chance(33) { times.append(min(span, last + Int64(rng.next(in: 0...3)) * 1000)) } else {
                times.append(Int64(rng.next(in: 0...Int(span / 1000))) * 1000)
            }
        }
        times.sort()
        let startDay = LocalCalendar(identifier: s.timeZone).map { $0.civilDate(s.startMs) } ?? CivilDate(daysSinceEpoch: Int(s.startMs / 86_400_000))
        let ops: WorkloadOps
        switch kind {
        case .countdown: ops = countdown(times, startDay: startDay, rng: &rng)
        case .fitness: ops = fitness(times, scenario: s, rng: &rng)
        }
        return withMessages(ops, seed: seed, span: span)
    }

    /// Messages per run, drawn from a generator of their own (so a seed's other operations are
    /// the ones it had before messages were drawn): `sendMessage` from either device, racing
    /// the link's events and the other operations; each ends in its reply or a WCError.
    public static let messages = 0...3

    static func withMessages(_ ops: WorkloadOps, seed: UInt64, span: Int64) -> WorkloadOps {
        var rng = SplitMix64(seed: seed &* 0xC2B2_AE3D_27D4_EB4F ^ 0x4D45_5353_4147_4521)
        var all = ops.ops
        for n in 0..<rng.next(in: messages) {
            all.append(WorkloadOp(atMs: Int64(rng.next(in: 0...Int(span / 1000))) * 1000, role: role(&rng), action: .message(n + 1)))
        }
        // Stable: an operation keeps its place among those at the same time.
        let sorted = all.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map(\.element)
        return WorkloadOps(sorted)
    }

    static func role(_ rng: inout SplitMix64) -> DeviceRole { rng.next(in: 0...1) == 0 ? .phone : .watch }

    static func countdown(_ times: [Int64], startDay: CivilDate, rng: inout SplitMix64) -> WorkloadOps {
        var ops: [WorkloadOp] = []
        var live: [String] = []
        var made = 0
        var renames = 0
        for t in times {
            let r = role(&rng)
            let pick = rng.next(in: 0...99)
            if live.isEmpty || (pick < 35 && live.count < 8) {
                made += 1
                let name = "G\(made)"
                live.append(name)
                ops.append(WorkloadOp(atMs: t, role: r, action: .goalAdd(name: name, date: startDay.adding(days: rng.next(in: 30...400)))))
                continue
            }
            let name = live[rng.next(in: 0...(live.count - 1))]
            if pick < 65 {
                renames += 1
                ops.append(WorkloadOp(atMs: t, role: r, action: .goalTitle(name: name, title: "\(name)r\(renames)")))
            } else if pick < 85 {
                ops.append(WorkloadOp(atMs: t, role: r, action: .goalDate(name: name, date: startDay.adding(days: rng.next(in: 30...400)))))
            } else {
                live.removeAll { $0 == name }
                ops.append(WorkloadOp(atMs: t, role: r, action: .goalDelete(name: name)))
            }
        }
        return WorkloadOps(ops)
    }

    /// Whether the scenario records workouts itself (or the phone starts them): a workload's
    /// own workouts would then end the scenario's, so it records none.
    static func scenarioRecordsWorkouts(_ s: Scenario) -> Bool {
        s.steps.contains { step in
            guard case .node(let role, let c) = step.action else { return false }
            return (role == .watch && (c.words.first == "workout" || c.words.first == "hr" || c.words.first == "energy"))
                || (role == .phone && (c.words.first == "motion" || c.words.first == "notification"))
        }
    }

    static func fitness(_ times: [Int64], scenario s: Scenario, rng: inout SplitMix64) -> WorkloadOps {
        var ops: [WorkloadOp] = []
        let workouts = !scenarioRecordsWorkouts(s)
        /// The watch's workout as the generator plans it.
        var session: String?  // nil, "running", "paused"
        for t in times {
            let r = role(&rng)
            let pick = rng.next(in: 0...99)
            if workouts, pick < 40 {
                // Workouts on the watch: start, heart rates while running, a pause and a resume, the end.
                switch session {
                case nil:
                    ops.append(WorkloadOp(atMs: t, role: .watch, action: .workout("start")))
                    session = "running"
                case "running"?:
                    let w = rng.next(in: 0...9)
                    if w < 5 {
                        ops.append(WorkloadOp(atMs: t, role: .watch, action: .heartRate(rng.next(in: 90...185))))
                    } else if w < 7 {
                        ops.append(WorkloadOp(atMs: t, role: .watch, action: .workout("pause")))
                        session = "paused"
                    } else {
                        ops.append(WorkloadOp(atMs: t, role: .watch, action: .workout("end")))
                        session = nil
                    }
                default:
                    let resume = rng.chance(70)
                    ops.append(WorkloadOp(atMs: t, role: .watch, action: .workout(resume ? "resume" : "end")))
                    session = resume ? "running" : nil
                }
            } else if pick < 60 {
                ops.append(WorkloadOp(atMs: t, role: r, action: .stepGoal(rng.next(in: 2...60) * 500)))
            } else if pick < 68 {
                let names = WorkloadOp.settingFields.keys.sorted()
                ops.append(WorkloadOp(atMs: t, role: .phone, action: .setting(name: names[rng.next(in: 0...(names.count - 1))], on: rng.chance(50))))
            } else if pick < 90 {
                ops.append(WorkloadOp(atMs: t, role: r, action: .steps(r == .phone ? rng.next(in: 50...2_000) : rng.next(in: 10...300))))
            } else {
                ops.append(WorkloadOp(atMs: t, role: .phone, action: .complicationPush))
            }
        }
        if session != nil, let last = times.last {
            ops.append(WorkloadOp(atMs: last + 1_000, role: .watch, action: .workout(session == "paused" ? "resume" : "end")))
            if session == "paused" { ops.append(WorkloadOp(atMs: last + 2_000, role: .watch, action: .workout("end"))) }
        }
        return WorkloadOps(ops)
    }
}
