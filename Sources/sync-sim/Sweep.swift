#if canImport(Glibc)
import Glibc
#endif
import PeerLink
import Shared
import Simulator

/// `sync-sim sweep FILE …`: runs the seeds, prints a progress bar on a terminal, each failure
/// with its replay commands, and the summary line. Returns the exit status.
func runSweep(_ o: Options, text: String) -> Int32 {
    let file = o.files[0]
    let scenario: Scenario
    var faults: FaultSchedule?
    var ops: WorkloadOps?
    do {
        scenario = try ScenarioParser.parse(text, file: file)
        if let f = o.faults { faults = try FaultSchedule.parse(f) }
        if let x = o.ops { ops = try WorkloadOps.parse(x) }
    } catch {
        StandardError.write("\(error)\n")
        print("0 passed, 1 failed")
        return 2
    }
    let seeds = o.seed.map { [$0] } ?? SeedSweep.seeds(from: o.from, count: o.seeds, shard: o.shard)
    var options = SweepOptions()
    options.shrinks = o.shrink
    options.classes = o.classes
    options.workload = o.workload.map { $0 == "default" ? WorkloadKind.default(for: scenario) : WorkloadKind(rawValue: $0)! }
    let session = SweepSession(scenario: scenario, seeds: seeds, options: options, jobs: o.jobs, faults: faults, ops: ops)
    let range = o.seed.map { "seed \($0)" } ?? "seeds \(o.from)…\(o.from &+ UInt64(max(0, o.seeds - 1)))"
        + (o.shard.map { " (shard \($0.index)/\($0.of): \(seeds.count) seeds)" } ?? "")
    print("sweep \(scenario.name) (\(file)): \(range), \(o.jobs) threads")
    if o.classes.count < FaultClass.allCases.count {
        print("fault classes: \(FaultClass.allCases.filter(o.classes.contains).map(\.rawValue).joined(separator: ", "))")
    }
    if let w = options.workload { print("workload: \(w.rawValue)") }
    if let s = o.seed {
        print("faults: \(faults ?? FaultSchedule.random(seed: s, spanMs: SeedSweep.spanMs(scenario, options: options), allowing: o.classes))")
        if let w = options.workload { print("operations: \(ops ?? WorkloadGenerator.generate(w, seed: s, scenario: scenario))") }
    }
    let tty = isatty(1) == 1
    let start = ChildProcess.monotonicMs()
    let outcomes = session.run { p in
        guard tty else { return }
        let line = "\r" + SweepSession.progressBar(p)
        _ = line.utf8CString.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count - 1) }
    }
    if tty { print("") }
    for outcome in outcomes where !outcome.passed {
        print(SweepSession.failureText(outcome, file: file, classes: o.classes, workload: options.workload, scenario: scenario))
        if o.logs {
            for line in outcome.opLines { print("  op: \(SweepSession.readableTime(line, scenario: scenario))") }
            for line in outcome.logs { print("  log: \(SweepSession.readableTime(line, scenario: scenario))") }
        }
    }
    let failed = outcomes.filter { !$0.passed }.count
    if let path = o.html {
        do { try writeTextFile(path, SweepHTMLReport.html(scenario: scenario, file: file, outcomes: outcomes, options: options, classes: o.classes)) } catch {
            StandardError.write("sync-sim: error: cannot write \(path): \(error)\n")
        }
    }
    let elapsed = max(1, ChildProcess.monotonicMs() - start)
    print("\(outcomes.count) seeds in \(elapsed) ms (\(outcomes.count * 60_000 / Int(elapsed)) seeds/min)")
    print("\(outcomes.count - failed) passed, \(failed) failed")
    return failed == 0 ? 0 : 1
}
