#if canImport(Glibc)
import Glibc
#endif
import PeerLinkCore
import PeerLinkPOSIX

/// The default scenario: in the current directory, else in the checkout that holds this
/// executable (`.build/…/sync-sim` → the directory above `.build`), so `sync-sim` run from
/// anywhere still finds it.
func defaultScenario(_ defaultScenarioPath: String) -> String? {
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

/// What a `sync-sim`-style command line asked for (`SimCommandLine.parse`).
struct SimCommandLineOptions {
    var files: [String] = []
    /// `--apps NAME`: the program's apps of that name (nil: its default).
    var apps: String?
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
    /// `sync-sim sweep … --json PATH` (a plain run's `--json` prints to standard output).
    var jsonPath: String?
    /// Where `--shard auto` found the shard (`JOB_COMPLETION_INDEX=3 (Kubernetes Indexed Job)`).
    var shardSource: String?
    var checkDeterminism = false
    /// `--dry-run`: say what the sweep would run, run nothing.
    var dryRun = false
}

/// The options of `args`; nil for `--help`. `environment` is read for `--shard auto`.
func parse(_ args: [String], environment: [String: String] = [:], program: SimProgram) throws -> SimCommandLineOptions? {
    var o = SimCommandLineOptions()
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
    /// A file to write: not the next option (`--json --seeds 5` is a missing PATH).
    func path(_ a: String) throws -> String {
        let p = try value(a)
        if p.hasPrefix("-") { throw UsageError("\(a) takes a PATH to write, not '\(p)'") }
        return p
    }
    while i < rest.count {
        let a = rest[i]
        switch a {
        case "--help", "-h": return nil
        case "--json":
            if o.sweep { o.jsonPath = try path(a) } else { o.json = true }
        case "--check-determinism": o.checkDeterminism = true
        case "--dry-run": o.dryRun = true
        case "--keep": o.keep = true
        case "--no-shrink": o.shrink = false
        case "--logs": o.logs = true
        case "--mode":
            let m = try value(a)
            guard ["process", "sim"].contains(m), !o.sweep || m == "sim" else { throw UsageError("--mode takes process or sim (a sweep runs in sim mode)") }
            o.mode = m
        case "--junit": o.junit = try path(a)
        case "--html": o.html = try path(a)
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
            let spec = try value(a)
            if ShardFromEnvironment.isAuto(spec) {
                let found = try ShardFromEnvironment.resolve(spec, environment: environment)
                o.shard = (found.shard.index, found.shard.of)
                o.shardSource = found.source
            } else {
                guard let s = SeedSweep.parseShard(spec) else { throw UsageError("--shard takes i/n with 1 ≤ i ≤ n, or auto[/n] (docs/FLEET.md)") }
                o.shard = s
            }
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
        case "--apps" where !program.otherApps.isEmpty:
            let name = try value(a)
            guard program.apps(named: name) != nil else {
                throw UsageError("--apps takes \(([program.apps] + program.otherApps).map(\.name).joined(separator: ", "))")
            }
            o.apps = name
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
        for (flag, path) in [("--json", o.jsonPath), ("--junit", o.junit), ("--html", o.html)] {
            if let path { try checkWritable(path, flag) }
        }
        if o.faults != nil && o.seed == nil { throw UsageError("--faults goes with --seed S") }
        if o.ops != nil && (o.seed == nil || o.workload == nil) { throw UsageError("--ops goes with --seed S and --workload NAME") }
    } else if o.faults != nil || o.seed != nil || o.shard != nil || o.workload != nil || o.ops != nil || o.checkDeterminism || o.dryRun {
        throw UsageError("--seed, --faults, --shard, --workload, --ops, --check-determinism and --dry-run go with `\(program.name) sweep`")
    }
    if o.files.isEmpty {
        guard let defaultScenarioPath = program.defaultScenario else { throw UsageError("name a scenario FILE") }
        guard let found = defaultScenario(defaultScenarioPath) else {
            throw UsageError("no FILE given and \(defaultScenarioPath) is not in this directory or above this executable: name a scenario file (e.g. \(program.name) path/to/\(defaultScenarioPath))")
        }
        o.files = [found]
    }
    return o
}

/// Refuses, before anything runs, an output path whose directory does not exist or cannot be
/// written (a shard that runs for an hour should not lose its report at the end).
public func checkWritable(_ path: String, _ flag: String) throws {
    var st = stat()
    if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR { throw UsageError("\(flag) \(path) is a directory: name a file") }
    let dir = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
    guard access(dir.isEmpty ? "/" : dir, W_OK) == 0 else {
        throw UsageError("\(flag) \(path): cannot write in \(dir.isEmpty ? "/" : dir): \(String(cString: strerror(errno)))")
    }
}

/// This process's environment.
public func processEnvironment() -> [String: String] {
    var out: [String: String] = [:]
    var p = environ
    while let entry = p.pointee {
        let text = String(cString: entry)
        if let eq = text.firstIndex(of: "=") { out[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
        p += 1
    }
    return out
}
