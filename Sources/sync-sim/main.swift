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

var program = SimProgram(name: "sync-sim", usage: usage, apps: .phoneAndWatch)
program.defaultScenario = "scenarios/morning-run.scenario"
program.processMode = { bin in bin.map(ConductorOptions.phoneAndWatch(binDirectory:)) ?? .phoneAndWatchInThisExecutable() }
program.buildCommit = { file, environment in buildCommit(scenarioFile: file, environment: environment) }
exit(SimCommandLine.run(Array(CommandLine.arguments.dropFirst()), program: program))
