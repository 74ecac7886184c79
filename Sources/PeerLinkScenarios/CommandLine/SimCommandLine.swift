#if canImport(Glibc)
import Glibc
#endif
import PeerLinkCore
import PeerLinkPOSIX

/// A program with `sync-sim`'s command line over a pair of apps: `PROGRAM [FILE…] [options]`
/// runs scenarios (sim or process mode), `PROGRAM sweep FILE …` sweeps seeds, and the replay
/// commands a failing seed prints name this program. `sync-sim` is one (the built-in apps);
/// a package of its own makes another for its apps (docs/WATCHCONNECTIVITY.md).
public struct SimProgram: Sendable {
    /// The name replay commands and error lines start with (`sync-sim`).
    public var name: String
    /// `--help`.
    public var usage: String
    /// The apps it runs.
    public var apps: SimApps
    /// Other apps `--apps NAME` selects (none: no `--apps` option).
    public var otherApps: [SimApps] = []
    /// The scenario run when no FILE is named (nil: a FILE is required).
    public var defaultScenario: String?
    /// Process mode's options; `bin` is `--bin DIR`. Nil: process mode is refused.
    public var processMode: (@Sendable (_ bin: String?) -> ConductorOptions)?
    /// The commit sweep reports name, for a scenario file and the environment.
    public var buildCommit: @Sendable (String?, [String: String]) -> String = { _, env in env["PEERLINK_COMMIT"] ?? "unknown" }

    public init(name: String, usage: String, apps: SimApps) {
        self.name = name
        self.usage = usage
        self.apps = apps
    }

    /// The apps named `name` among `apps` and `otherApps`.
    public func apps(named name: String) -> SimApps? {
        ([apps] + otherApps).first { $0.name == name }
    }

    /// What a replay command adds for `--apps NAME`.
    func replayOptions(_ apps: String?) -> String { apps.map { " --apps \($0)" } ?? "" }
}

/// The command line of a `SimProgram`.
public enum SimCommandLine {
    /// Runs `arguments` (without the program's name); returns the exit status. The last line
    /// printed is `N passed, M failed`; bad usage exits 2 with a one-line reason.
    public static func run(_ arguments: [String], program: SimProgram) -> Int32 {
        let options: SimCommandLineOptions
        do {
            guard let o = try parse(arguments, environment: processEnvironment(), program: program) else {
                print(program.usage)
                return 0
            }
            options = o
            if options.mode == "process" && program.processMode == nil { throw UsageError("\(program.name) runs in sim mode only (--mode sim)") }
        } catch {
            StandardError.write("\(program.name): error: \(error)\n")
            return 2
        }
        // Every named file must be a readable scenario file before anything runs (bad usage: exit 2).
        var texts: [String] = []
        do {
            for file in options.files { texts.append(try readScenario(file)) }
        } catch {
            StandardError.write("\(program.name): error: \(error)\n")
            return 2
        }
        if options.sweep { return runSweep(options, text: texts[0], program: program) }
        return runScenarios(options, texts: texts, program: program)
    }

    static func runScenarios(_ options: SimCommandLineOptions, texts: [String], program: SimProgram) -> Int32 {
        let apps = options.apps.flatMap(program.apps(named:)) ?? program.apps
        var results: [ScenarioResult] = []
        for (file, text) in zip(options.files, texts) {
            do throws(ScenarioErrors) {
                let scenario = try ScenarioParser.parse(text, file: file)
                let r: ScenarioResult
                if options.mode == "sim" {
                    var so = SimOptions()
                    so.recordsReport = options.html != nil
                    r = SimConductor(apps: apps, options: so).run(scenario)
                } else {
                    var co = program.processMode!(options.bin)
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
                StandardError.write("\(program.name): error: --junit: \(error)\n")
            }
        }
        if let path = options.html {
            do { try writeTextFile(path, HTMLReport.scenarios(results)) } catch {
                StandardError.write("\(program.name): error: cannot write \(path): \(error)\n")
            }
        }
        if options.json { print(RunReport.json(results)) }
        print(RunReport.summaryLine(results))
        return results.allSatisfy(\.passed) ? 0 : 1
    }
}
