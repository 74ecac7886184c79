#if canImport(Glibc)
import Glibc
#endif
import PeerLink
import Shared
import Simulator

let usage = """
    usage: sync-sim [FILE…] [options]      replay scenarios against phone-node and watch-node

    With no FILE, runs scenarios/morning-run.scenario.
    The last line is always `N passed, M failed`; the exit status is 0 only when all passed.

    options:
      --json          print the report as one JSON object (the summary line still ends it)
      --junit PATH    also write a JUnit XML report to PATH (one test case per scenario)
      --keep          keep the nodes' state directories (printed in the report)
      --bin DIR       where phone-node and watch-node are (default: next to sync-sim)
      --help          this text
    """

struct Options {
    var files: [String] = []
    var json = false
    var junit: String?
    var keep = false
    var bin = executableDirectory()
    var mode = "process"
}

func parse(_ args: [String]) throws -> Options? {
    var o = Options()
    var i = 0
    while i < args.count {
        let a = args[i]
        switch a {
        case "--help", "-h": return nil
        case "--json": o.json = true
        case "--keep": o.keep = true
        case "--mode":
            guard i + 1 < args.count, ["process", "sim"].contains(args[i + 1]) else { throw UsageError("--mode takes process or sim") }
            i += 1
            o.mode = args[i]
        case "--junit", "--bin":
            guard i + 1 < args.count else { throw UsageError("\(a) needs a value") }
            i += 1
            if a == "--junit" { o.junit = args[i] } else { o.bin = args[i] }
        default:
            if a.hasPrefix("-") { throw UsageError("unknown option '\(a)' (see --help)") }
            o.files.append(a)
        }
        i += 1
    }
    if o.files.isEmpty { o.files = ["scenarios/morning-run.scenario"] }
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

var results: [ScenarioResult] = []
for file in options.files {
    guard let text = readTextFile(file) else {
        StandardError.write("sync-sim: error: cannot read \(file)\n")
        results.append(.failedBeforeRunning(file: file, mode: "process", error: "cannot read \(file)"))
        continue
    }
    do {
        let scenario = try ScenarioParser.parse(text, file: file)
        let r: ScenarioResult
        if options.mode == "sim" {
            r = SimConductor().run(scenario)
        } else {
            var co = ConductorOptions(binDirectory: options.bin)
            co.keepState = options.keep
            r = ProcessConductor(options: co).run(scenario)
        }
        results.append(r)
        if !options.json { print(r.text()) }
    } catch {
        StandardError.write("\(error)\n")
        results.append(.failedBeforeRunning(file: file, mode: "process", error: "\(error)"))
        if !options.json { print("FAIL \(file)\n  \(error)") }
    }
}
if let path = options.junit {
    do { try writeTextFile(path, RunReport.junit(results)) } catch {
        StandardError.write("sync-sim: error: cannot write \(path): \(error)\n")
    }
}
if options.json { print(RunReport.json(results)) }
print(RunReport.summaryLine(results))
exit(results.allSatisfy(\.passed) ? 0 : 1)
