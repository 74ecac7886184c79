#if canImport(Glibc)
import Glibc
#endif
import PhoneWatch
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkScenarios

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

if CommandLine.arguments.count >= 2, CommandLine.arguments[1] == "merge" { exit(runMerge(Array(CommandLine.arguments.dropFirst(2)))) }
if CommandLine.arguments.count >= 2, CommandLine.arguments[1] == "commands" { exit(runCommands(Array(CommandLine.arguments.dropFirst(2)))) }
if CommandLine.arguments.dropFirst() == ["--version"] {
    print("sync-sim \(PeerLinkVersion.string) (commit \(buildCommit(scenarioFile: nil, environment: processEnvironment())))")
    exit(0)
}

let options: Options
do {
    guard let o = try parse(Array(CommandLine.arguments.dropFirst()), environment: processEnvironment()) else {
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
            var co = options.bin.map(ConductorOptions.phoneAndWatch(binDirectory:)) ?? .phoneAndWatchInThisExecutable()
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
