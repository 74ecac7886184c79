import Foundation
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import Testing

/// The report's recording in process mode: running `phone-node` and `watch-node` answer
/// `show SCREEN --svg` on their control channel (read-only), and the fault proxy's frames are
/// recorded beside its timeline lines.
@Suite("Process mode: the report's recording")
struct ReportProcessTests {
    static let scenarioText = """
        scenario "report from processes"
        start 2026-06-01T07:00:00+09:00
        timezone Asia/Tokyo
        seed 5
        07:00:00 phone authorize grant all
        +0s phone steps 4200 --from 06:00 --to 06:30
        07:00:02 watch workout start running
        07:00:05 every 30s for 6m: watch hr 120..150
        07:03:10 kill watch
        07:03:30 restart watch
        07:06:10 watch workout end
        07:07:00 expect converged
        """

    @Test func runningNodesAnswerShowSVGAndEveryFrameIsRecorded() throws {
        let scenario = try ScenarioParser.parse(Self.scenarioText, file: "report-from-processes.scenario")
        var options = ConductorOptions.phoneAndWatch(binDirectory: executableDirectory())
        options.recordsReport = true
        let r = ProcessConductor(options: options).run(scenario)
        #expect(r.passed, "\(r.text())")
        let rec = try #require(r.recording)
        let frameLines = r.timeline.filter { line in
            let w = line.split(separator: " ")
            return w.count > 2 && ["phone→watch", "watch→phone"].contains(String(w[1]))
        }.count
        #expect(frameLines > 20)
        #expect(rec.frames.count == frameLines)
        #expect(rec.frames.allSatisfy { $0.bytes > 0 })
        // Screens from both running processes; none of the killed watch's.
        let end = try #require(rec.moments.last)
        #expect(end.screens.count == PhoneWatchPair.screens.count)
        #expect(end.screens["phone/dashboard"]?.contains("4,200") == true)
        #expect(end.screens["watch/rings"]?.hasPrefix("<svg") == true)
        let killed = try #require(rec.moments.first { $0.reason == "kill watch" })
        #expect(killed.screens.keys.allSatisfy { $0.hasPrefix("phone/") } && killed.screens.count == 9)
        #expect(rec.marks.map(\.kind) == [.kill, .restart])
    }
}
