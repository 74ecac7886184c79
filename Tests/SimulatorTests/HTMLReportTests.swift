import Foundation
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import Testing

/// The recorded run and the report's page, without a browser (`ReportBrowserTests` opens it).
@Suite struct HTMLReportTests {
    static func recorded(_ scenario: Scenario) -> ScenarioResult {
        var o = SimOptions()
        o.recordsReport = true
        return SimConductor(options: o).run(scenario)
    }

    static func frameLines(_ r: ScenarioResult) -> Int { ReportBrowserTests.frameLines(r) }

    @Test func recordingTheReportDoesNotChangeTheRun() throws {
        for name in ["morning-run.scenario", "flaky-day.scenario", "watch-crash-mid-workout.scenario"] {
            let scenario = try SimTest.load(SimTest.repositoryRoot + "/scenarios/" + name)
            let plain = SimConductor().run(scenario), recorded = Self.recorded(scenario)
            #expect(plain.traceHash != nil)
            #expect(recorded.traceHash == plain.traceHash, "\(name): the trace changed when the report was recorded")
            #expect(recorded.timeline == plain.timeline)
            #expect(plain.recording == nil)
            let rec = try #require(recorded.recording)
            #expect(rec.frames.count == Self.frameLines(recorded), "\(name): one frame record per frame line")
            #expect(rec.checkTimesMs.count <= recorded.checks.count)
            #expect(!rec.moments.isEmpty)
        }
    }

    @Test func screensAreTakenAtEachExpectationEachFaultAndEveryFewMinutes() throws {
        let r = Self.recorded(try ScenarioParser.parse(ReportBrowserTests.scenarioText, file: "t.scenario"))
        let rec = try #require(r.recording)
        let reasons = rec.moments.map(\.reason)
        for reason in ["start", "link loss 30%", "link clear", "kill phone", "restart phone", "expect converged", "expect phone workouts == 1"] {
            #expect(reasons.contains(reason), "no moment for \(reason): \(reasons)")
        }
        #expect(reasons.contains("every 5 min"))
        // Both devices' screens where both run; none of the killed phone's.
        let killed = try #require(rec.moments.first { $0.reason == "kill phone" })
        #expect(killed.screens.keys.allSatisfy { $0.hasPrefix("watch/") } && killed.screens.count == 5)
        let end = try #require(rec.moments.last)
        #expect(end.screens.count == PhoneWatchPair.screens.count)
        // Faults are spans, kills and restarts marks, checks have times.
        #expect(rec.faults.map(\.text) == ["loss 30.0%"])
        #expect(rec.faults[0].toMs - rec.faults[0].fromMs == 120_000)
        #expect(rec.marks.map(\.kind) == [.kill, .restart])
        #expect(rec.checkTimesMs.count == 2 && rec.checkTimesMs[0] == rec.startMs + 9 * 60_000)
        #expect(rec.frames.contains { $0.fate == .dropped && $0.arrivalsMs.isEmpty })
        #expect(rec.frames.allSatisfy { f in f.arrivalsMs.allSatisfy { $0 >= f.sentMs } })
    }

    @Test func reportIsOneSelfContainedPage() throws {
        let r = Self.recorded(try ScenarioParser.parse(ReportBrowserTests.scenarioText, file: "t.scenario"))
        let html = HTMLReport.scenarios([r])
        #expect(html.hasPrefix("<!doctype html>"))
        // Nothing fetched: no external script, style, image, font or link.
        let outside = html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
        #expect(!outside.contains("http://") && !outside.contains("https://"))
        #expect(!html.contains(" src=") && !html.contains("<link") && !html.contains("@import") && !html.contains("url(http"))
        // The data block parses and holds every frame and every moment's screens.
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"report-data\">"))
        let end = try #require(html[start.upperBound...].range(of: "</script>"))
        let data = try PlistValue.parseJSON(String(html[start.upperBound..<end.lowerBound]))
        let s = try #require(data["scenarios"]?.arrayValue?.first)
        #expect(s["frames"]?.arrayValue?.count == Self.frameLines(r))
        #expect(s["moments"]?.arrayValue?.count == r.recording?.moments.count)
        let svgs = try #require(data["svgs"]?.arrayValue)
        // Distinct screens are stored once: fewer documents than screens shown.
        let shown = r.recording!.moments.reduce(0) { $0 + $1.screens.count }
        #expect(svgs.count < shown)
        #expect(svgs.allSatisfy { $0.stringValue?.hasPrefix("<svg") == true })
        // The table fills in the order of the screens' names (the same page from every process,
        // whatever its dictionaries' hashing): the first moment's distinct screens are 0, 1, 2…
        let first = try #require(s["moments"]?.arrayValue?.first?.arrayValue?[2].dictionaryValue)
        var seen: [Int64] = []
        for name in first.keys.sorted() { if let i = first[name]?.intValue, !seen.contains(i) { seen.append(i) } }
        #expect(seen == (0..<Int64(seen.count)).map { $0 }, "\(first.keys.sorted().map { "\($0)=\(first[$0]!)" })")
    }

    @Test func sweepReportHasTheClassesTheFailingSeedsAndTheirRun() throws {
        let scenario = try SimTest.load(SimTest.repositoryRoot + "/scenarios/morning-run.scenario")
        let passing = SeedOutcome(seed: 4, faults: FaultSchedule(faults: [], classes: [.lossy]), problems: [], shrunk: nil)
        let failing = SeedOutcome(seed: 9, faults: FaultSchedule(faults: [], classes: [.lossy, .kills]), problems: ["convergence: digests differ"],
                                  shrunk: FaultSchedule(faults: []))
        let html = SweepHTMLReport.html(scenario: scenario, file: "scenarios/morning-run.scenario", outcomes: [passing, failing], options: SweepOptions())
        #expect(html.contains("2 seeds, 1 passed, 1 failed"))
        #expect(html.contains("<tr class=\"fail\" data-class=\"lossy\"><td>lossy</td><td>2</td><td>1</td><td>1</td></tr>"))
        #expect(html.contains("<tr class=\"fail\" data-class=\"kills\"><td>kills</td><td>1</td><td>0</td><td>1</td></tr>"))
        #expect(html.contains("data-seed=\"9\""))
        #expect(html.contains("replay: sync-sim sweep scenarios/morning-run.scenario --seed 9"))
        #expect(html.contains("minimal: sync-sim sweep scenarios/morning-run.scenario --seed 9 --faults"))
        #expect(html.contains("seed 9 (the failing run)"), "the failing seed's run is drawn")
    }

    @Test func aWorkloadSweepsFailureReplaysWithItsWorkloadAndIsDrawnWithItsOperations() throws {
        let scenario = try SweepFixture.scenario()
        var options = SweepOptions()
        options.workload = .fitness
        let ops = WorkloadGenerator.generate(.fitness, seed: 3, scenario: scenario)
        var failing = SeedOutcome(seed: 3, faults: FaultSchedule(faults: [], classes: [.lossy]), problems: ["model: step goal differs"], shrunk: nil)
        failing.ops = ops
        let html = SweepHTMLReport.html(scenario: scenario, file: "tiny.scenario", outcomes: [failing], options: options)
        #expect(html.contains("replay: sync-sim sweep tiny.scenario --seed 3 --workload fitness"))
        // The drawn run is the seed's: its workload's operations and the model's check ran.
        let run = SeedSweep.recordedRun(scenario, seed: 3, faults: failing.faults, ops: ops, options: options)
        #expect(run.checks.contains { $0.location?.file == SeedSweep.workloadFile }, "\(run.text())")
    }

    @Test func localTimesFollowTheZoneAcrossADSTChangeAndLogTimesAreTakenOffTheText() throws {
        // 2026-03-08 in Los Angeles: PST (−8 h) until 02:00, then PDT (−7 h), at 10:00 UTC.
        let day = Int64(CivilDate(year: 2026, month: 3, day: 8).daysSinceEpoch) * 86_400_000
        var r = ScenarioResult.failedBeforeRunning(file: "dst.scenario", mode: "sim", error: "none")
        var rec = RunRecording(startMs: day + 8 * 3_600_000, timeZone: "America/Los_Angeles", language: .en)
        rec.endMs = rec.startMs + 6 * 3_600_000
        r.recording = rec
        r.logs = ["\(rec.startMs + 5) phone info: link up", "2026-03-08T12:00:00.000Z [watch] warning: late", "no time here"]
        let html = HTMLReport.scenarios([r])
        let start = try #require(html.range(of: "id=\"report-data\">"))
        let end = try #require(html[start.upperBound...].range(of: "</script>"))
        let s = try #require(try PlistValue.parseJSON(String(html[start.upperBound..<end.lowerBound]))["scenarios"]?.arrayValue?.first)
        let offsets = try #require(s["offsets"]?.arrayValue).map { $0.arrayValue?.compactMap(\.intValue) ?? [] }
        let hour: Int64 = 3_600_000
        let expected: [[Int64]] = [[0, -8 * hour], [day + 10 * hour, -7 * hour]]
        #expect(offsets == expected)
        let logs = try #require(s["logs"]?.arrayValue).map { $0.arrayValue ?? [] }
        #expect(logs[0] == [.int(rec.startMs + 5), .string("phone info: link up")])
        #expect(logs[1] == [.int(day + 12 * 3_600_000), .string("[watch] warning: late")])
        #expect(logs[2] == [.int(-1), .string("no time here")])
    }
}
