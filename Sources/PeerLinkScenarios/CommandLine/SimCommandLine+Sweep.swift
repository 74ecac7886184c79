#if canImport(Glibc)
import Glibc
#endif
import PeerLinkCore
import PeerLinkPOSIX

/// `sync-sim sweep FILE …`: runs the seeds, prints a progress bar on a terminal, each failure
/// with its replay commands, and the summary line; writes the reports asked for (`--json`,
/// `--junit`, `--html`). Returns the exit status.
func runSweep(_ o: SimCommandLineOptions, text: String, program: SimProgram) -> Int32 {
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
    let apps = o.apps.flatMap(program.apps(named:)) ?? program.apps
    var options = SweepOptions(apps: apps)
    options.shrinks = o.shrink
    options.classes = o.classes
    options.workload = o.workload.map { $0 == "default" ? WorkloadKind.default(for: scenario) : WorkloadKind(rawValue: $0)! }
    options.checksDeterminism = o.checkDeterminism
    let session = SweepSession(scenario: scenario, seeds: seeds, options: options, jobs: o.jobs, faults: faults, ops: ops)
    let range = o.seed.map { "seed \($0)" } ?? "seeds \(o.from)…\(o.from &+ UInt64(max(0, o.seeds - 1)))"
        + (o.shard.map { " (shard \($0.index)/\($0.of)\(o.shardSource.map { " from \($0)" } ?? ""): \(seeds.count) seeds)" } ?? "")
    print("sweep \(scenario.name) (\(file)): \(range), \(o.jobs) threads")
    if o.apps != nil { print("apps: \(apps.name)") }
    if o.classes.count < FaultClass.allCases.count {
        print("fault classes: \(FaultClass.allCases.filter(o.classes.contains).map(\.rawValue).joined(separator: ", "))")
    }
    if let w = options.workload { print("workload: \(w.rawValue)") }
    if o.checkDeterminism { print("determinism check: each seed runs twice, its traces compared") }
    if let s = o.seed {
        print("faults: \(faults ?? FaultSchedule.random(seed: s, spanMs: SeedSweep.spanMs(scenario, options: options), allowing: o.classes))")
        if let w = options.workload { print("operations: \(ops ?? WorkloadGenerator.generate(w, seed: s, scenario: scenario))") }
    }
    if o.dryRun {
        let shown = seeds.prefix(10).map(String.init).joined(separator: ", ") + (seeds.count > 10 ? ", …" : "")
        print("dry run: \(seeds.count) seeds (\(shown)) would run; nothing was run")
        print("0 passed, 0 failed")
        return 0
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
        print(SweepSession.failureText(outcome, file: file, classes: o.classes, workload: options.workload, scenario: scenario,
                                       program: program.name, options: program.replayOptions(o.apps)))
        if o.logs {
            for line in outcome.opLines { print("  op: \(SweepSession.readableTime(line, scenario: scenario))") }
            for line in outcome.logs { print("  log: \(SweepSession.readableTime(line, scenario: scenario))") }
        }
    }
    let failed = outcomes.filter { !$0.passed }.count
    let elapsed = max(1, ChildProcess.monotonicMs() - start)
    var written = true
    // Asked once (it runs git): the page and the reports name the same commit.
    let commit = o.html != nil || o.jsonPath != nil || o.junit != nil ? program.buildCommit(file, processEnvironment()) : ""
    if let path = o.html {
        let build = "commit \(commit), version \(PeerLinkVersion.string)"
        do {
            try writeTextFile(path, SweepHTMLReport.html(scenario: scenario, file: file, outcomes: outcomes, options: options, classes: o.classes,
                                                         provenance: [build]))
        } catch {
            StandardError.write("\(program.name): error: \(error)\n")
            written = false
        }
    }
    if o.jsonPath != nil || o.junit != nil {
        let report = SweepReport(
            scenario: scenario, file: file, text: text, commit: commit, options: options,
            faults: o.faults, ops: o.ops,
            seeds: o.seed.map { .init(from: $0, count: 1) } ?? .init(from: o.from, count: o.seeds, shard: o.shard.map { SweepShard(index: $0.index, of: $0.of) }),
            outcomes: outcomes, timing: ["wallMs": .int(elapsed), "jobs": .int(Int64(o.jobs)), "host": .string(hostName()),
                     "seedsPerMin": .int(Int64(outcomes.count * 60_000 / Int(elapsed)))])
        written = writeReports(report, json: o.jsonPath, junit: o.junit, program: program.name)
    }
    print("\(outcomes.count) seeds in \(elapsed) ms (\(outcomes.count * 60_000 / Int(elapsed)) seeds/min)")
    print("\(outcomes.count - failed) passed, \(failed) failed")
    return failed == 0 && written ? 0 : 1
}

/// Writes `report` as JSON and JUnit XML where asked; false (said on stderr) when a file
/// could not be written: the run's outcome is then not kept, and the exit status says so.
public func writeReports(_ report: SweepReport, json: String?, junit: String?, program: String = "sync-sim") -> Bool {
    var ok = true
    for (path, text) in [(json, { report.jsonText() }), (junit, { SweepJUnitReport.xml([report]) })] {
        guard let path else { continue }
        do { try writeTextFile(path, text()) } catch {
            StandardError.write("\(program): error: \(error)\n")
            ok = false
        }
    }
    return ok
}

/// This host's name (in a report's timing).
func hostName() -> String {
    var buf = [CChar](repeating: 0, count: 256)
    guard gethostname(&buf, buf.count) == 0 else { return "unknown" }
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
