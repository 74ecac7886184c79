import Dispatch
import PeerLinkCore
import Synchronization

/// A sweep over many seeds of one scenario, on `jobs` threads (each seed is an independent
/// simulated world, so the outcomes do not depend on the number of threads).
public struct SweepSession: Sendable {
    public var scenario: Scenario
    public var seeds: [UInt64]
    public var options: SweepOptions
    /// Threads to run seeds on.
    public var jobs: Int
    /// A fixed schedule for every seed instead of each seed's random one (replays).
    public var faults: FaultSchedule?
    /// Fixed workload operations for every seed instead of each seed's own (replays).
    public var ops: WorkloadOps?

    public init(scenario: Scenario, seeds: [UInt64], options: SweepOptions, jobs: Int = 1, faults: FaultSchedule? = nil,
                ops: WorkloadOps? = nil) {
        self.scenario = scenario
        self.seeds = seeds
        self.options = options
        self.jobs = jobs
        self.faults = faults
        self.ops = ops
    }

    /// Progress so far: seeds done and failed, of the total.
    public struct Progress: Sendable {
        public var done: Int
        public var failed: Int
        public var total: Int
    }

    final class Board: Sendable {
        struct State {
            var next = 0
            var outcomes: [SeedOutcome?]
            var failed = 0
        }
        let state: Mutex<State>
        init(count: Int) { state = Mutex(State(outcomes: Array(repeating: nil, count: count))) }
    }

    /// Runs every seed; `progress` is called (under a lock, from any thread) after each one.
    /// Returns the outcomes in seed order.
    public func run(progress: @escaping @Sendable (Progress) -> Void = { _ in }) -> [SeedOutcome] {
        let shared = Board(count: seeds.count)
        let work = self
        let workers = max(1, min(jobs, seeds.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let i = shared.state.withLock { s -> Int in
                    defer { s.next += 1 }
                    return s.next
                }
                guard i < work.seeds.count else { return }
                let outcome = SeedSweep.sweepSeed(work.scenario, seed: work.seeds[i], faults: work.faults, ops: work.ops, options: work.options)
                shared.state.withLock { s in
                    s.outcomes[i] = outcome
                    if !outcome.passed { s.failed += 1 }
                    progress(Progress(done: s.outcomes.lazy.filter { $0 != nil }.count, failed: s.failed, total: work.seeds.count))
                }
            }
        }
        return shared.state.withLock { $0.outcomes.compactMap { $0 } }
    }

    // MARK: - Report

    /// The report block of one failing seed: the seed, its faults (and workload), the shrunk
    /// ones, what failed, and the commands that replay it.
    /// `classes` (when not all) goes into the replay command: a seed's schedule depends on it.
    public static func failureText(_ o: SeedOutcome, file: String, classes: Set<FaultClass> = Set(FaultClass.allCases),
                                   workload: WorkloadKind? = nil, scenario: Scenario? = nil,
                                   program: String = "sync-sim", options: String = "") -> String {
        let readable = { (line: String) in readableTime(line, scenario: scenario) }
        var lines = ["FAIL seed \(o.seed): \(readable(o.problems.first ?? "?"))"]
        lines.append("  faults (\(o.faults.faults.count)): \(o.faults)")
        if let ops = o.ops { lines.append("  workload \(workload?.rawValue ?? "?") (\(ops.ops.count) operations): \(ops)") }
        if let s = o.shrunk { lines.append("  shrunk (\(s.faults.count)): \(s)") }
        if let s = o.shrunkOps { lines.append("  shrunk operations (\(s.ops.count)): \(s)") }
        for p in o.problems.prefix(10) { lines.append("  problem: \(readable(p))") }
        if o.problems.count > 10 { lines.append("  … and \(o.problems.count - 10) more problems") }
        let commands = replayCommands(o, file: file, classes: classes, workload: workload, program: program, options: options)
        lines.append("  replay: " + commands.replay)
        lines.append("  minimal: " + commands.minimal)
        return lines.joined(separator: "\n")
    }

    /// The two commands that replay a seed: as drawn, and its minimal (shrunk) schedule.
    /// A seed whose two runs differed replays with the check on. `program` names the program
    /// (a `SimProgram`), `options` its own options (` --apps NAME`), put after the seed.
    public static func replayCommands(_ o: SeedOutcome, file: String, classes: Set<FaultClass> = Set(FaultClass.allCases),
                                      workload: WorkloadKind? = nil, program: String = "sync-sim", options: String = "") -> (replay: String, minimal: String) {
        let left = FaultClass.allCases.filter { !classes.contains($0) }.map(\.rawValue)
        let w = workload.map { " --workload \($0.rawValue)" } ?? ""
        let check = o.failureKind == "determinism" ? " --check-determinism" : ""
        let replay = "\(program) sweep \(file) --seed \(o.seed)\(options)" + (left.isEmpty ? "" : " --without \(left.joined(separator: ","))") + w + check
        let minimal = o.shrunk ?? o.faults
        let minimalOps = (o.shrunkOps ?? o.ops).map { " --ops \"\($0)\"" } ?? ""
        return (replay, "\(program) sweep \(file) --seed \(o.seed)\(options) --faults \"\(minimal)\"" + w + minimalOps + check)
    }

    /// `line` with its leading epoch-millisecond time (a checker's problem, a node's log line)
    /// as a local date-time in the scenario's zone and the offset from its start
    /// (`2026-06-01 07:31:05.123 (+31m05s)`); unchanged without a scenario or such a time.
    public static func readableTime(_ line: String, scenario: Scenario?) -> String {
        guard let scenario, let calendar = LocalCalendar(identifier: scenario.timeZone) else { return line }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 12, line.dropFirst(digits.count).first == " ", let ms = EpochMs(digits) else { return line }
        return calendar.dateTimeText(ms, withMillis: true) + " (\(ElapsedText.offset(ms, from: scenario.startMs)))" + line.dropFirst(digits.count)
    }

    /// A text progress bar: `[#########...........]  45/100 seeds, 1 failed`.
    public static func progressBar(_ p: Progress, width: Int = 30) -> String {
        let filled = p.total == 0 ? width : p.done * width / p.total
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(p.done)/\(p.total) seeds, \(p.failed) failed"
    }
}
