#if canImport(Glibc)
import Glibc
#endif
import PhoneWatch
import PeerLinkCore
import PeerLinkPOSIX

// `sync-bench node phone|watch …`: this executable as a node, for the sim suite's process run.
if CommandLine.arguments.count >= 3, CommandLine.arguments[1] == "node" {
    let rest = Array(CommandLine.arguments.dropFirst(3))
    switch CommandLine.arguments[2] {
    case "phone": exit(PhoneNodeMain.run(rest, programName: "sync-bench node phone"))
    case "watch": exit(WatchNodeMain.run(rest, programName: "sync-bench node watch"))
    default: break
    }
}

// `sync-bench sim-hour [--quick]`: the sim suite's hour alone, for callgrind to count.
if CommandLine.arguments.count >= 2, CommandLine.arguments[1] == "sim-hour" {
    exit(runSimHourOnly(quick: CommandLine.arguments.contains("--quick")))
}

let usage = """
    usage: sync-bench SUITE [--json] [--quick]

    suites:
      merge   replicated state: LWW sets per second, state size, resync bytes (beside raw SQLite)
      link    PeerLink over loopback: message RTT, file throughput, user-info rate (beside raw TCP)
      sim     scenario runner: one-hour workout wall time in process and sim mode, sweep seeds/min

    Build with -c release for figures worth recording: swift run -c release sync-bench merge --json
    --quick runs smaller workloads (for smoke tests, not for figures).
    """

/// A benchmark suite: its name and a function that measures and returns its figures.
struct BenchSuite: Sendable {
    var name: String
    var run: @Sendable (_ quick: Bool) throws -> [String: PlistValue]
}

let suites: [BenchSuite] = [mergeSuite, linkSuite, simSuite]

var args = Array(CommandLine.arguments.dropFirst())
if args.contains("--help") || args.contains("-h") { print(usage); exit(0) }
let json = args.contains("--json")
let quick = args.contains("--quick")
args.removeAll { $0 == "--json" || $0 == "--quick" }
guard args.count == 1, let suite = suites.first(where: { $0.name == args[0] }) else {
    StandardError.write("sync-bench: error: " + (args.isEmpty ? "missing SUITE" : "unknown suite or extra arguments: \(args.joined(separator: " "))") + " (see --help)\n")
    exit(2)
}
do {
    var figures = try suite.run(quick)
    figures["suite"] = .string(suite.name)
    if json {
        print(PlistValue.dictionary(figures).jsonString())
    } else {
        for key in figures.keys.sorted() { print("\(key): \(figures[key]!.jsonString())") }
    }
} catch {
    StandardError.write("sync-bench: error: \(error)\n")
    exit(1)
}
