#if canImport(Glibc)
import Glibc
#endif
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkScenarios
import PhoneWatch

let mergeUsage = """
    usage: sync-sim merge SHARD.json… [--json PATH] [--junit PATH] [--html PATH]

    Combines the reports of a sweep's shards (`sync-sim sweep … --shard i/n --json PATH`) into
    one outcome: prints each failing seed with its replay commands and `N passed, M failed`;
    exit 0 when every seed passed, 1 when one failed, 2 when the shards cannot be merged —
    different scenario texts (by SHA-256: the same text under another path merges), commits,
    versions or options, seeds in more than one shard, or seeds missing between the lowest and
    the highest (the line names them).
      --json PATH     write the merged report (the format of a shard's, docs/FLEET.md)
      --junit PATH    write JUnit XML: one test case per seed
      --html PATH     write the sweep's HTML page (the first failing seeds are run again to draw them)
    """

/// `sync-sim merge SHARD.json… [--json PATH] [--junit PATH] [--html PATH]`. Returns the exit status.
func runMerge(_ args: [String]) -> Int32 {
    var files: [String] = []
    var json: String?, junit: String?, html: String?
    var merged: SweepReport
    do {
        var i = 0
        while i < args.count {
            let a = args[i]
            switch a {
            case "--help", "-h":
                print(mergeUsage)
                return 0
            case "--json", "--junit", "--html":
                guard i + 1 < args.count, !args[i + 1].hasPrefix("-") else { throw UsageError("\(a) takes a PATH to write") }
                i += 1
                try checkWritable(args[i], a)
                if a == "--json" { json = args[i] } else if a == "--junit" { junit = args[i] } else { html = args[i] }
            default:
                if a.hasPrefix("-") { throw UsageError("unknown option '\(a)' for merge (see sync-sim merge --help)") }
                files.append(a)
            }
            i += 1
        }
        guard !files.isEmpty else { throw UsageError("merge takes the shards' reports: sync-sim merge SHARD.json… (see --help)") }
        var shards: [(file: String, report: SweepReport)] = []
        for file in files {
            var st = stat()
            guard stat(file, &st) == 0, st.st_mode & S_IFMT != S_IFDIR, let text = readTextFile(file) else {
                throw UsageError(access(file, F_OK) == 0 ? "cannot read report \(file) (a directory, or not readable)" : "no report file \(file)")
            }
            do { shards.append((file, try SweepReport.parse(text))) } catch { throw UsageError("\(file): \(error)") }
        }
        do { merged = try ShardMerge.merge(shards) } catch { throw UsageError("merge: \(error)") }
        for line in ShardMerge.warnings(shards) { StandardError.write("sync-sim: warning: \(line)\n") }
    } catch {
        StandardError.write("sync-sim: error: \(error)\n")
        return 2
    }
    let provenance = ["merge of \(files.count) shard\(files.count == 1 ? "" : "s") of \(merged.scenario.name) (\(merged.scenario.file)): "
        + "\(merged.seeds.description), commit \(merged.commit), version \(merged.version)"]
        + (merged.options.commandLine != "the defaults" ? ["options: \(merged.options.commandLine)"] : [])
    for line in provenance { print(line) }
    for s in merged.outcomes where !s.passed { print(merged.failureText(s)) }
    var written = writeReports(merged, json: json, junit: junit)
    if let path = html {
        do {
            let scenario = try ScenarioParser.parse(merged.scenario.text, file: merged.scenario.file)
            var outcomes: [SeedOutcome] = []
            for s in merged.outcomes {
                do { outcomes.append(try s.outcome()) } catch { throw UsageError("seed \(s.seed): \(error)") }
            }
            let options = merged.options.sweepOptions(apps: .phoneAndWatch)
            try writeTextFile(path, SweepHTMLReport.html(scenario: scenario, file: merged.scenario.file, outcomes: outcomes, options: options,
                                                         classes: options.classes, provenance: provenance + ["shards: " + files.joined(separator: ", ")]))
        } catch {
            StandardError.write("sync-sim: error: --html \(path): \(error)\n")
            written = false
        }
    }
    print("\(merged.outcomes.count) seeds from \(files.count) shard\(files.count == 1 ? "" : "s") (\(merged.timing["wallMs"]?.intValue ?? 0) ms of their wall time)")
    print(merged.summaryLine)
    return merged.failed == 0 && written ? 0 : 1
}
