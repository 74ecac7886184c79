#if canImport(Glibc)
import Glibc
#endif
import NodeMain
import PeerLink
import Shared
import Simulator

// `sync-sim node phone|watch …` is this executable serving as a node: process mode starts
// its phone and watch this way, so `swift run sync-sim` needs no other build.
if CommandLine.arguments.count >= 2, CommandLine.arguments[1] == "node" {
    let rest = Array(CommandLine.arguments.dropFirst(3))
    switch CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "" {
    case "phone": exit(PhoneNodeMain.run(rest, programName: "sync-sim node phone"))
    case "watch": exit(WatchNodeMain.run(rest, programName: "sync-sim node watch"))
    default:
        StandardError.write("sync-sim: error: `sync-sim node` takes phone or watch\n")
        exit(2)
    }
}

let usage = """
    usage: sync-sim [FILE…] [options]      replay scenarios against a phone node and a watch node
           sync-sim sweep FILE --seeds N [--from S] [--shard i/n] [--jobs J]
           sync-sim sweep FILE --seed S [--faults "…"] [--workload NAME [--ops "…"]]
           sync-sim node phone|watch [node options]
                                          run this executable as phone-node or watch-node (process
                                          mode starts its nodes this way; `… --help` lists their options)

    With no FILE, runs scenarios/morning-run.scenario: from the current directory, or else from
    the checkout this sync-sim was built in.
    The last line is always `N passed, M failed`; the exit status is 0 only when all passed.

    options:
      --mode process|sim  process: real phone-node and watch-node over TCP (default);
                          sim: both apps in this process on the simulated network (deterministic)
      --json          print the report as one JSON object (the summary line still ends it)
      --junit PATH    also write a JUnit XML report to PATH (one test case per scenario)
      --html PATH     also write the run as one self-contained HTML page to PATH: the space-time
                      diagram of every frame, both devices' screens at each check, fault and every
                      few minutes, the checks, digests and logs (docs/REPORT.md); with sweep: the
                      seeds per fault class and each failing seed's schedule, replay and run
      --keep          keep the nodes' state directories (printed in the report; process mode)
      --bin DIR       run the phone-node and watch-node executables in DIR (default: this
                      executable, as `sync-sim node phone|watch`)
      --help          this text

    sweep: runs FILE in sim mode once per seed with a random fault schedule (partitions, loss,
    duplication, reordering, latency, bandwidth, slicing, close-after, resets, kill/crash,
    clock bumps/drift/freeze, corruption/rollback, damage to a partial file, a relay flipping
    bytes; which classes are on
    is drawn per seed),
    then clears the faults, restarts both nodes and checks convergence, that no acknowledged
    user-info transfer was lost or delivered twice, and that each node's clock and seq only
    went forward. A failure prints the seed, its faults, a shrunk minimal fault list and the
    commands that replay it.
      --seeds N       how many seeds (default 100), starting at --from S (default 1)
      --shard i/n     only every n-th seed of the range, starting at the i-th (1 ≤ i ≤ n)
      --seed S        one seed (replay); with --faults "…" its schedule is replaced
      --faults "…"    faults `@OFFSET ACTION [for D]` separated by `;` (see docs/SCENARIOS.md)
      --logs          print the nodes' log lines of each failing seed (use with --seed)
      --jobs J        threads (default 2)
      --classes LIST  only these fault classes (comma-separated): partition, lossy, latency,
                      bandwidth, slicing, close-after, resets, kills, clocks, corruption, rollback,
                      damage-partial-file, tamper
      --without LIST  all fault classes but these
      --no-shrink     do not shrink failing schedules
      --workload NAME mix a workload into every seed: seeded app actions on both devices
                      (fitness, countdown, or default: the scenario's own), its model checked
                      against both nodes after the recovery (the scenario's `expect always`
                      expectations are checked only without a workload)
      --ops "…"       the workload's operations instead of the seed's (with --seed and --workload)
    """

let defaultScenarioPath = "scenarios/morning-run.scenario"

/// The default scenario: in the current directory, else in the checkout that holds this
/// executable (`.build/…/sync-sim` → the directory above `.build`), so `sync-sim` run from
/// anywhere still finds it.
func defaultScenario() -> String? {
    if access(defaultScenarioPath, R_OK) == 0 { return defaultScenarioPath }
    var dir = executableDirectory()
    while let slash = dir.lastIndex(of: "/"), !dir.isEmpty {
        dir = String(dir[..<slash])
        let candidate = (dir.isEmpty ? "" : dir) + "/" + defaultScenarioPath
        if access(candidate, R_OK) == 0 { return candidate }
    }
    return nil
}

/// The text of scenario file `path`, or a one-line reason it cannot be one.
func readScenario(_ path: String) throws -> String {
    var st = stat()
    guard stat(path, &st) == 0 else {
        throw UsageError(errno == ENOENT
            ? "no scenario file \(path) (name a .scenario file; the library is in scenarios/)"
            : "cannot read \(path): \(POSIXError("stat").reason)")
    }
    if st.st_mode & S_IFMT == S_IFDIR {
        throw UsageError("\(path) is a directory: name scenario files, e.g. \(path.hasSuffix("/") ? path : path + "/")*.scenario")
    }
    guard let text = readTextFile(path) else { throw UsageError("cannot read \(path): \(POSIXError("open").reason)") }
    return text
}

struct Options {
    var files: [String] = []
    var json = false
    var junit: String?
    var html: String?
    var keep = false
    var bin: String?
    var mode = "process"
    var sweep = false
    var seeds = 100
    var from: UInt64 = 1
    var seed: UInt64?
    var shard: (index: Int, of: Int)?
    var faults: String?
    /// Print the nodes' log lines of failing seeds (for single-seed replays).
    var logs = false
    var jobs = 2
    var shrink = true
    var classes = Set(FaultClass.allCases)
    /// `--workload NAME` (`default`: the scenario's) and `--ops "…"`.
    var workload: String?
    var ops: String?
}

func parse(_ args: [String]) throws -> Options? {
    var o = Options()
    var i = 0
    var rest = args
    if rest.first == "sweep" {
        o.sweep = true
        o.mode = "sim"
        rest.removeFirst()
    }
    func value(_ a: String) throws -> String {
        guard i + 1 < rest.count else { throw UsageError("\(a) needs a value") }
        i += 1
        return rest[i]
    }
    while i < rest.count {
        let a = rest[i]
        switch a {
        case "--help", "-h": return nil
        case "--json": o.json = true
        case "--keep": o.keep = true
        case "--no-shrink": o.shrink = false
        case "--logs": o.logs = true
        case "--mode":
            let m = try value(a)
            guard ["process", "sim"].contains(m), !o.sweep || m == "sim" else { throw UsageError("--mode takes process or sim (a sweep runs in sim mode)") }
            o.mode = m
        case "--junit": o.junit = try value(a)
        case "--html": o.html = try value(a)
        case "--bin": o.bin = try value(a)
        case "--seeds":
            guard let n = Int(try value(a)), n >= 1 else { throw UsageError("--seeds takes a count of at least 1 (e.g. --seeds 200)") }
            o.seeds = n
        case "--from":
            guard let s = UInt64(try value(a)) else { throw UsageError("--from takes a seed (unsigned integer)") }
            o.from = s
        case "--seed":
            guard let s = UInt64(try value(a)) else { throw UsageError("--seed takes an unsigned integer") }
            o.seed = s
        case "--shard":
            guard let s = SeedSweep.parseShard(try value(a)) else { throw UsageError("--shard takes i/n with 1 ≤ i ≤ n") }
            o.shard = s
        case "--faults": o.faults = try value(a)
        case "--workload":
            let w = try value(a)
            guard w == "default" || WorkloadKind(rawValue: w) != nil else {
                throw UsageError("--workload takes \(WorkloadKind.allCases.map(\.rawValue).joined(separator: ", ")) or default")
            }
            o.workload = w
        case "--ops": o.ops = try value(a)
        case "--classes", "--without":
            guard let list = FaultClass.list(try value(a)) else {
                throw UsageError("\(a) takes fault classes separated by commas: \(FaultClass.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            o.classes = a == "--classes" ? Set(list) : Set(FaultClass.allCases).subtracting(list)
        case "--jobs":
            guard let j = Int(try value(a)), j >= 1 else { throw UsageError("--jobs takes a positive count") }
            o.jobs = j
        default:
            if a.hasPrefix("-") { throw UsageError("unknown option '\(a)' (see --help)") }
            o.files.append(a)
        }
        i += 1
    }
    if o.sweep {
        guard o.files.count == 1 else { throw UsageError("sweep takes one scenario FILE") }
        if o.faults != nil && o.seed == nil { throw UsageError("--faults goes with --seed S") }
        if o.ops != nil && (o.seed == nil || o.workload == nil) { throw UsageError("--ops goes with --seed S and --workload NAME") }
    } else if o.faults != nil || o.seed != nil || o.shard != nil || o.workload != nil || o.ops != nil {
        throw UsageError("--seed, --faults, --shard, --workload and --ops go with `sync-sim sweep`")
    }
    if o.files.isEmpty {
        guard let found = defaultScenario() else {
            throw UsageError("no FILE given and \(defaultScenarioPath) is not in this directory or above this executable: name a scenario file (e.g. sync-sim path/to/scenarios/morning-run.scenario)")
        }
        o.files = [found]
    }
    return o
}

let options: Options
do {
    guard let o = try parse(Array(CommandLine.arguments.dropFirst())) else {
        print(usage)
        exit(0)
    }
    options = o
} catch {
    StandardError.write("sync-sim: error: \(error)\n")
    exit(2)
}

// Every named file must be a readable scenario file before anything runs (bad usage: exit 2).
var texts: [String] = []
do {
    for file in options.files { texts.append(try readScenario(file)) }
} catch {
    StandardError.write("sync-sim: error: \(error)\n")
    exit(2)
}

if options.sweep { exit(runSweep(options, text: texts[0])) }

var results: [ScenarioResult] = []
for (file, text) in zip(options.files, texts) {
    do throws(ScenarioErrors) {
        let scenario = try ScenarioParser.parse(text, file: file)
        let r: ScenarioResult
        if options.mode == "sim" {
            var so = SimOptions()
            so.recordsReport = options.html != nil
            r = SimConductor(options: so).run(scenario)
        } else {
            var co = options.bin.map(ConductorOptions.init(binDirectory:))
                ?? ConductorOptions(phone: .thisExecutable(as: .phone), watch: .thisExecutable(as: .watch))
            co.keepState = options.keep
            co.recordsReport = options.html != nil
            r = ProcessConductor(options: co).run(scenario)
        }
        results.append(r)
        if !options.json { print(r.text()) }
    } catch {
        let e = error
        // The errors once, on stderr, `file:line:col: error: …` each; the report says where.
        StandardError.write("\(e)\n")
        results.append(.failedBeforeRunning(file: file, mode: options.mode, error: "\(e)"))
        if !options.json { print("FAIL \(file): \(e.errors.count)\(e.truncated ? "+" : "") error\(e.errors.count == 1 ? "" : "s") in the file (listed on stderr); nothing was run") }
    }
}
if let path = options.junit {
    do { try writeTextFile(path, RunReport.junit(results)) } catch {
        StandardError.write("sync-sim: error: --junit: \(error)\n")
    }
}
if let path = options.html {
    do { try writeTextFile(path, HTMLReport.scenarios(results)) } catch {
        StandardError.write("sync-sim: error: cannot write \(path): \(error)\n")
    }
}
if options.json { print(RunReport.json(results)) }
print(RunReport.summaryLine(results))
exit(results.allSatisfy(\.passed) ? 0 : 1)
