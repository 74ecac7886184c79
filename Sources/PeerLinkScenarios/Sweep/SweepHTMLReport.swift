import PeerLinkCore
import SVGKit

/// `sync-sim sweep … --html PATH`: where the outcome came from (`provenance`: the build's
/// commit and version, and for a merge its shards and seeds), the seeds run, passed and
/// failed per fault class, each failing seed with its problems, its schedule, the shrunk schedule and the commands that
/// replay it, and — for the first failing seeds — the failing run recorded again (same seed,
/// same schedule: a seed replays exactly) with its space-time diagram and screens.
public enum SweepHTMLReport {
    /// Failing seeds whose runs are recorded and drawn (each adds a diagram and its screens).
    public static let maxDrawnFailures = 3

    public static func html(scenario: Scenario, file: String, outcomes: [SeedOutcome], options: SweepOptions,
                            classes: Set<FaultClass> = Set(FaultClass.allCases), provenance: [String] = []) -> String {
        let failed = outcomes.filter { !$0.passed }
        var intro = "<div class=\"sweep\"><p class=\"summary\">sweep of <b>\(SVGText.escape(scenario.name))</b> (\(SVGText.escape(file))): "
            + "\(outcomes.count) seeds, \(outcomes.count - failed.count) passed, \(failed.count) failed</p>"
        for line in provenance { intro += "<p class=\"provenance\">\(SVGText.escape(line))</p>" }
        intro += "<table><tr><th>fault class</th><th>seeds with it</th><th>passed</th><th>failed</th></tr>"
        for c in FaultClass.allCases where classes.contains(c) {
            let with = outcomes.filter { $0.faults.classes.contains(c) }
            let bad = with.filter { !$0.passed }.count
            intro += "<tr class=\"\(bad > 0 ? "fail" : "pass")\" data-class=\"\(c.rawValue)\"><td>\(c.rawValue)</td><td>\(with.count)</td>"
                + "<td>\(with.count - bad)</td><td>\(bad)</td></tr>"
        }
        intro += "</table>"
        for o in failed {
            intro += "<h3 class=\"fail\" data-seed=\"\(o.seed)\">seed \(o.seed): \(SVGText.escape(o.failureKind ?? "failed"))</h3>"
                + "<pre>\(SVGText.escape(SweepSession.failureText(o, file: file, classes: classes, workload: options.workload, scenario: scenario)))</pre>"
        }
        intro += "</div>"
        var svgs = SVGTable()
        var sections: [PlistValue] = []
        for (i, o) in failed.prefix(maxDrawnFailures).enumerated() {
            let r = SeedSweep.recordedRun(scenario, seed: o.seed, faults: o.faults, ops: o.ops, options: options)
            sections.append(HTMLReportData.scenario(r, id: "s\(i)", svgs: &svgs, title: "\(scenario.name) — seed \(o.seed) (the failing run)"))
        }
        return HTMLReport.document(title: "PeerLink sweep report", intro: intro, scenarios: sections, svgs: svgs, extra: [:])
    }
}

extension SeedSweep {
    /// Runs one seed as `run` does (with its workload's operations `ops`), recorded for the
    /// report (trace, frames, screens).
    public static func recordedRun(_ scenario: Scenario, seed: UInt64, faults: FaultSchedule, ops: WorkloadOps? = nil,
                                   options: SweepOptions) -> ScenarioResult {
        var o = SimOptions()
        o.networkSeed = seed
        o.recordsReport = true
        let faulted = faultedScenario(scenario, faults: faults, ops: ops, options: options)
        let runner = ScenarioRunner(driver: options.apps.driver(o))
        runner.convergeWithinMs = options.convergeWithinMs
        if let kind = options.workload, ops != nil { runner.workload = WorkloadRun(kind: kind) }
        runner.recorder = RunRecorder(scenario: faulted)
        return runner.run(faulted)
    }
}

extension SeedOutcome {
    /// An outcome from its parts (reports and their tests).
    public init(seed: UInt64, faults: FaultSchedule, problems: [String], shrunk: FaultSchedule?) {
        self.init(seed: seed, faults: faults, problems: problems, shrunk: shrunk, virtualMs: 0)
    }
}
