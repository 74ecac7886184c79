import PeerLink
import Shared

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

    public init() {}
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
    /// The nodes' log lines of the (unshrunk) run.
    public var logs: [String] = []
    public var passed: Bool { problems.isEmpty }

    /// The class of the first problem (`convergence`, `lost`, `duplicate`, `monotonic`, `error`),
    /// which the shrinker keeps.
    public var failureKind: String? { problems.first.map(SeedSweep.kind(of:)) }
}

/// One seed of a sweep: the scenario with a random fault schedule, in sim mode, then the
/// recovery (faults cleared, every node restarted, time given) and the checks that must hold
/// whatever the faults were:
/// - convergence: both connected, nothing outstanding, equal digests;
/// - no acknowledged user-info transfer lost or delivered twice (`TransferLedger`);
/// - monotonic state: each node's HLC and replica seq never go back (`NodeInvariants`).
/// The scenario's own expectations are left out: a fault may legitimately change counts.
public enum SeedSweep {
    /// The file name the recovery steps carry in reports.
    public static let recoveryFile = "sweep-recovery"

    /// The scenario a seed runs: its own steps without expectations, the faults' steps,
    /// then the recovery and the final `expect converged`.
    public static func faultedScenario(_ s: Scenario, faults: FaultSchedule, options: SweepOptions = SweepOptions()) -> Scenario {
        var steps: [(ScenarioStep, Int)] = []
        for step in s.steps {
            switch step.action {
            case .expectValue, .expectRefusal, .expectConverged: continue
            default: steps.append((step, steps.count))
            }
        }
        for (i, f) in faults.faults.enumerated() {
            for step in f.steps(startMs: s.startMs, index: i) { steps.append((step, steps.count)) }
        }
        let lastFault = faults.faults.map { s.startMs + $0.endMs }.max() ?? s.startMs
        let recovery = max(s.endMs, lastFault, steps.map(\.0.atMs).max() ?? s.startMs) + options.recoveryAfterMs
        let loc = SourceLocation(file: recoveryFile, line: 1, column: 1)
        for (a, text) in [(ScenarioAction.link(.clear), "link clear"), (.restart(.phone), "restart phone"),
                          (.restart(.watch), "restart watch"), (.expectConverged, "expect converged")] {
            steps.append((ScenarioStep(atMs: recovery, action: a, location: loc, text: text), steps.count))
        }
        var out = s
        out.steps = steps.sorted { ($0.0.atMs, $0.1) < ($1.0.atMs, $1.1) }.map(\.0)
        return out
    }

    /// Runs `scenario` with `faults`; the network is seeded from `seed` too.
    public static func run(_ scenario: Scenario, seed: UInt64, faults: FaultSchedule, options: SweepOptions = SweepOptions()) -> SeedOutcome {
        var o = SimOptions()
        o.recordsTrace = false
        o.networkSeed = seed
        let driver = SimDriver(options: o)
        let runner = ScenarioRunner(driver: driver)
        runner.convergeWithinMs = options.convergeWithinMs
        let r = runner.run(faultedScenario(scenario, faults: faults, options: options))
        var problems: [String] = []
        if let e = r.error { problems.append("error: \(e)") }
        for c in r.checks where !c.passed && c.location?.file == recoveryFile {
            problems.append("convergence: \(c.detail)")
        }
        if r.error == nil && !r.checks.contains(where: { $0.location?.file == recoveryFile }) {
            problems.append("error: the run stopped before the recovery")
        }
        problems += driver.problems
        var outcome = SeedOutcome(seed: seed, faults: faults, problems: problems, shrunk: nil, virtualMs: r.virtualMs)
        if !problems.isEmpty { outcome.logs = r.logs }
        return outcome
    }

    /// Runs seed `seed` of a sweep: its random schedule (or `faults` when given), shrunk on failure.
    public static func sweepSeed(_ scenario: Scenario, seed: UInt64, faults given: FaultSchedule? = nil,
                                 options: SweepOptions = SweepOptions()) -> SeedOutcome {
        let faults = given ?? FaultSchedule.random(seed: seed, spanMs: scenario.endMs - scenario.startMs, allowing: options.classes)
        var outcome = run(scenario, seed: seed, faults: faults, options: options)
        if !outcome.passed, options.shrinks, let kind = outcome.failureKind {
            var runs = 0
            let minimal = Shrinker.minimize(faults.faults, maxTests: options.maxShrinkRuns) { subset in
                runs += 1
                return run(scenario, seed: seed, faults: FaultSchedule(faults: subset), options: options).failureKind == kind
            }
            outcome.shrunk = FaultSchedule(faults: minimal)
        }
        return outcome
    }

    /// The class of a problem line.
    public static func kind(of problem: String) -> String {
        if problem.hasPrefix("error:") { return "error" }
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
        let all = (0..<UInt64(max(0, count))).map { from &+ $0 }
        guard let s = shard else { return all }
        return all.enumerated().filter { $0.offset % s.of == s.index - 1 }.map(\.element)
    }

    /// Reads `i/n` (1 ≤ i ≤ n).
    public static func parseShard(_ text: String) -> (index: Int, of: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n else { return nil }
        return (i, n)
    }
}
