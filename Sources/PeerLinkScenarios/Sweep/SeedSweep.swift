import PeerLinkCore

/// Options of a sweep run.
public struct SweepOptions: Sendable {
    /// Virtual time the final `expect converged` may take once every fault is cleared.
    public var convergeWithinMs: Int64 = 15 * 60_000
    /// How far after the scenario's last step (or the end of its last fault) the recovery starts.
    public var recoveryAfterMs: Int64 = 1_000
    /// Shrink a failing schedule to a minimal one.
    public var shrinks = true
    /// Most runs the shrinker may make for one failing seed.
    public var maxShrinkRuns = 400
    /// The fault classes drawn from (all by default).
    public var classes: Set<FaultClass> = Set(FaultClass.allCases)
    /// The workload mixed into every seed, its model checked after the recovery (nil: none;
    /// the scenario's `expect always` expectations are checked instead).
    public var workload: WorkloadKind?
    /// Runs each seed twice with its trace recorded and fails the seed when the two traces
    /// differ (`--check-determinism`).
    public var checksDeterminism = false
    /// The apps each seed runs.
    public var apps: SimApps

    public init(apps: SimApps) { self.apps = apps }
}

/// The outcome of one seed.
public struct SeedOutcome: Sendable {
    public var seed: UInt64
    public var faults: FaultSchedule
    /// What failed (empty: the seed passed).
    public var problems: [String]
    /// A minimal schedule that still fails the same way (when shrunk).
    public var shrunk: FaultSchedule?
    public var virtualMs: Int64
    /// The nodes' log lines of the (unshrunk) run, and what each workload operation did.
    public var logs: [String] = []
    public var opLines: [String] = []
    /// The workload's operations (with a workload), and the shrunk ones.
    public var ops: WorkloadOps?
    public var shrunkOps: WorkloadOps?
    /// `expect always` expectations not checked because a scripted step did not run as written
    /// (a node was down, or refused it).
    public var expectationsSkipped = 0
    /// The trace hashes of the runs made with their trace recorded: both runs of a
    /// determinism check (empty otherwise).
    public var traceHashes: [String] = []
    public var passed: Bool { problems.isEmpty }

    /// The class of the first problem (`convergence`, `lost`, `duplicate`, `monotonic`,
    /// `expectation`, `model`, `error`), which the shrinker keeps.
    public var failureKind: String? { problems.first.map(SeedSweep.kind(of:)) }
}

/// One item the shrinker may leave out: a fault or a workload operation.
enum SweepItem: Sendable {
    case fault(ScheduledFault)
    case op(WorkloadOp)
}

/// One seed of a sweep: the scenario with a random fault schedule (and a workload's
/// operations), in sim mode, then the recovery (faults cleared, every node restarted, time
/// given) and the checks that must hold whatever the faults were:
/// - convergence: both connected, everything they must agree on equal, nothing outstanding;
/// - no acknowledged user-info transfer lost or delivered twice (`TransferLedger`);
/// - monotonic state: durable counters only go back by store damage (`NodeInvariants`);
/// - with a workload, its reference model against both nodes; without, the scenario's
///   expectations marked `expect always`.
/// The scenario's other expectations are left out: a fault may legitimately change counts.
public enum SeedSweep {
    /// The file name the recovery steps carry in reports.
    public static let recoveryFile = "sweep-recovery"
    /// The file name of the workload's operations and its model check.
    public static let workloadFile = "sweep-workload"

    /// The span a seed's faults (and workload) are drawn over.
    public static func spanMs(_ s: Scenario, options: SweepOptions) -> Int64 {
        options.workload == nil ? s.endMs - s.startMs : WorkloadGenerator.spanMs(s)
    }

    /// The scenario a seed runs: its own steps without expectations, the faults' steps, the
    /// workload's operations, then the recovery, the final `expect converged`, and the
    /// workload's model check or the `always` expectations.
    public static func faultedScenario(_ s: Scenario, faults: FaultSchedule, ops: WorkloadOps? = nil,
                                       options: SweepOptions) -> Scenario {
        var steps: [(ScenarioStep, Int)] = []
        var kept: [ScenarioStep] = []
        for step in s.steps {
            switch step.action {
            case .expectValue, .expectRefusal, .expectConverged:
                if step.always && ops == nil { kept.append(step) }
            default: steps.append((step, steps.count))
            }
        }
        for (i, f) in faults.faults.enumerated() {
            for step in f.steps(startMs: s.startMs, index: i) { steps.append((step, steps.count)) }
        }
        for (i, op) in (ops?.ops ?? []).enumerated() {
            steps.append((ScenarioStep(atMs: s.startMs + op.atMs, action: .workload(op),
                                       location: SourceLocation(file: workloadFile, line: i + 1, column: 1), text: op.description), steps.count))
        }
        let lastFault = faults.faults.map { s.startMs + $0.endMs }.max() ?? s.startMs
        let recovery = max(s.endMs, lastFault, steps.map(\.0.atMs).max() ?? s.startMs) + options.recoveryAfterMs
        let loc = SourceLocation(file: recoveryFile, line: 1, column: 1)
        var recoverySteps: [(ScenarioAction, String)] = [(.link(.clear), "link clear"), (.restart(.phone), "restart phone"),
                                                          (.restart(.watch), "restart watch")]
        // A scenario that sends the watch app to the background may leave it suspended when a
        // fault dropped (or a rollback undid) its return: the user opens it, so what waits for
        // it can be delivered.
        if s.steps.contains(where: { if case .node(.watch, let c) = $0.action { c.words.first == "app" } else { false } }) {
            recoverySteps.append((.node(.watch, NodeCommand(words: ["app", "foreground"], raw: "app foreground")), "watch app foreground"))
        }
        recoverySteps.append((.expectConverged, "expect converged"))
        for (a, text) in recoverySteps {
            steps.append((ScenarioStep(atMs: recovery, action: a, location: loc, text: text), steps.count))
        }
        if ops != nil {
            steps.append((ScenarioStep(atMs: recovery, action: .checkWorkload, location: SourceLocation(file: workloadFile, line: 0, column: 1),
                                       text: "check the workload's model"), steps.count))
        }
        for var step in kept {
            step.atMs = recovery
            steps.append((step, steps.count))
        }
        var out = s
        out.steps = steps.sorted { ($0.0.atMs, $0.1) < ($1.0.atMs, $1.1) }.map(\.0)
        return out
    }

    /// Runs `scenario` with `faults` (and `ops` when the options have a workload); the network
    /// is seeded from `seed` too. `tracing` records the trace, whose hash the outcome keeps.
    public static func run(_ scenario: Scenario, seed: UInt64, faults: FaultSchedule, ops: WorkloadOps? = nil,
                           options: SweepOptions, tracing: Bool = false) -> SeedOutcome {
        var o = SimOptions()
        o.recordsTrace = tracing
        o.networkSeed = seed
        let driver = options.apps.driver(o)
        let runner = ScenarioRunner(driver: driver)
        runner.convergeWithinMs = options.convergeWithinMs
        let workloadOps = options.workload.map { ops ?? WorkloadGenerator.generate($0, seed: seed, scenario: scenario) }
        if let kind = options.workload { runner.workload = WorkloadRun(kind: kind) }
        let r = runner.run(faultedScenario(scenario, faults: faults, ops: workloadOps, options: options))
        var problems: [String] = []
        if let e = r.error { problems.append("error: \(e)") }
        for c in r.checks where !c.passed && c.location?.file == recoveryFile {
            problems.append("convergence: \(c.detail)")
        }
        if r.error == nil && !r.checks.contains(where: { $0.location?.file == recoveryFile }) {
            problems.append("error: the run stopped before the recovery")
        }
        problems += driver.problems
        for c in r.checks where !c.passed && c.location?.file == workloadFile { problems.append("model: \(c.detail)") }
        // `expect always`: checked once recovered, if the scenario's steps ran as written.
        var skipped = 0
        if workloadOps == nil {
            // By location, not by its text: the text of every step's and every check's location
            // was most of a seed's string work (file:line:column names one location).
            let alwaysAt = Set(scenario.steps.filter(\.always).map(\.location))
            let nodeStepsAt = Set(scenario.steps.filter { if case .node = $0.action { true } else { false } }.map(\.location))
            // A drawn store damage may lose writes not yet synced: what the expectation rests on.
            let storeDamaged = faults.faults.contains { f in
                switch f.kind { case .corrupt, .rollback: true; default: false }
            }
            let premiseBroken = storeDamaged || r.checks.contains { !$0.passed && $0.location.map(nodeStepsAt.contains) == true }
            for c in r.checks where c.location.map(alwaysAt.contains) == true {
                if premiseBroken { skipped += 1; continue }
                if !c.passed { problems.append("expectation: \(c.location!): \(c.description) — \(c.detail)") }
            }
        }
        var outcome = SeedOutcome(seed: seed, faults: faults, problems: problems, shrunk: nil, virtualMs: r.virtualMs)
        outcome.ops = workloadOps
        outcome.expectationsSkipped = skipped
        outcome.traceHashes = r.traceHash.map { [$0] } ?? []
        if !problems.isEmpty {
            outcome.logs = r.logs
            outcome.opLines = runner.workload?.entries.map(\.summary) ?? []
        }
        return outcome
    }

    /// Runs seed `seed` of a sweep: its random schedule (or `faults` when given) and workload
    /// operations (or `ops`), shrunk together on failure.
    public static func sweepSeed(_ scenario: Scenario, seed: UInt64, faults given: FaultSchedule? = nil, ops givenOps: WorkloadOps? = nil,
                                 options: SweepOptions) -> SeedOutcome {
        let faults = given ?? FaultSchedule.random(seed: seed, spanMs: spanMs(scenario, options: options), allowing: options.classes)
        let ops = options.workload.map { givenOps ?? WorkloadGenerator.generate($0, seed: seed, scenario: scenario) }
        var outcome = run(scenario, seed: seed, faults: faults, ops: ops, options: options, tracing: options.checksDeterminism)
        if options.checksDeterminism {
            let again = run(scenario, seed: seed, faults: faults, ops: ops, options: options, tracing: true)
            let problem = determinismProblem(outcome, again)
            outcome.traceHashes += again.traceHashes
            // A seed that does not replay itself is not shrunk: each candidate's run would not
            // say what the schedule does.
            if let problem { outcome.problems.insert(problem, at: 0); return outcome }
        }
        if !outcome.passed, options.shrinks, let kind = outcome.failureKind {
            let items = faults.faults.map(SweepItem.fault) + (ops?.ops ?? []).map(SweepItem.op)
            func split(_ list: [SweepItem]) -> (FaultSchedule, WorkloadOps?) {
                let f = list.compactMap { if case .fault(let x) = $0 { x } else { nil } }
                let o = list.compactMap { if case .op(let x) = $0 { x } else { nil } }
                return (FaultSchedule(faults: f), ops == nil ? nil : WorkloadOps(o))
            }
            let minimal = Shrinker.minimize(items, maxTests: options.maxShrinkRuns) { subset in
                let (f, o) = split(subset)
                return run(scenario, seed: seed, faults: f, ops: o, options: options).failureKind == kind
            }
            (outcome.shrunk, outcome.shrunkOps) = split(minimal)
        }
        return outcome
    }

    /// The class of a problem line.
    public static func kind(of problem: String) -> String {
        if problem.hasPrefix("error:") { return "error" }
        if problem.hasPrefix("determinism:") { return "determinism" }
        if problem.hasPrefix("model:") { return "model" }
        if problem.hasPrefix("expectation:") { return "expectation" }
        if problem.hasPrefix("convergence:") { return "convergence" }
        if problem.contains("went back") || problem.contains("changed incarnation") || problem.contains("started a new store")
            || problem.contains("rolled-back store holds") { return "monotonic" }
        if problem.contains("twice") { return "duplicate" }
        return "lost"
    }

    // MARK: - Seeds

    /// The seeds `from`, `from + 1`, … (`count` of them), or shard `index` (1-based) of `of`
    /// of them: every `of`-th seed starting at the `index`-th, so the shards partition the range.
    public static func seeds(from: UInt64, count: Int, shard: (index: Int, of: Int)? = nil) -> [UInt64] {
        guard let s = shard else { return (0..<UInt64(max(0, count))).map { from &+ $0 } }
        return stride(from: s.index - 1, to: max(0, count), by: s.of).map { from &+ UInt64($0) }
    }

    /// Reads `i/n` (1 ≤ i ≤ n).
    public static func parseShard(_ text: String) -> (index: Int, of: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n else { return nil }
        return (i, n)
    }
}
