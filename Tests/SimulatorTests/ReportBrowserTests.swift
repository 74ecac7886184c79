import Foundation
import PeerLinkCore
import CountdownDomain
import PeerLinkScenarios
import PhoneWatch
import Testing

/// The HTML report as a browser shows it: a recorded sim-mode run written with the report's
/// production code, opened in headless Chromium. Skipped (loudly) without Chromium, except
/// under `CI=true`, where a missing browser fails.
@Suite(.serialized) struct ReportBrowserTests {
    /// A short run with data on both devices, a lossy stretch and a kill, so the diagram and
    /// the screens have something to show.
    static let scenarioText = """
        scenario "report in a browser"
        start 2026-06-01T07:00:00+09:00
        timezone Asia/Tokyo
        seed 11
        07:00:00 phone authorize grant all
        +0s phone steps 6200 --from 06:00 --to 06:50
        +0s phone energy 310 --from 06:00 --to 06:50
        07:00:02 watch workout start running
        07:00:05 every 10s for 8m: watch hr 110..160
        07:02:00 link loss 30%
        07:04:00 link clear
        07:05:00 kill phone
        07:05:30 restart phone
        07:08:10 watch workout end
        07:09:00 expect converged
        +0s expect phone workouts == 1
        """

    /// The run and its report, written once for the suite's tests.
    static let report: (result: ScenarioResult, path: String)? = {
        guard let scenario = try? ScenarioParser.parse(scenarioText, file: "report-in-a-browser.scenario") else { return nil }
        var options = SimOptions()
        options.recordsReport = true
        let r = SimConductor(options: options).run(scenario)
        let path = NSTemporaryDirectory() + "peerlink-report-\(getpid()).html"
        guard (try? HTMLReport.scenarios([r]).write(toFile: path, atomically: true, encoding: .utf8)) != nil else { return nil }
        return (r, path)
    }()

    static var chromium: HeadlessChromium? { HeadlessChromium.installed }

    /// The page's DOM as it opens (one browser run shared by the tests that read it).
    static let openedDOM: Result<String, any Error>? = {
        guard let chromium, let report else { return nil }
        return Result(catching: { try chromium.dumpDOM("file://\(report.path)") })
    }()

    /// The timeline's frame lines in the JSON report (`TIME DIRECTION LABEL … FATE`).
    static func frameLines(_ r: ScenarioResult) -> Int {
        (r.jsonValue()["timeline"]?.arrayValue ?? []).filter { line in
            let words = (line.stringValue ?? "").split(separator: " ")
            return words.count > 2 && ["phone>watch", "watch>phone", "phone→watch", "watch→phone"].contains(String(words[1]))
        }.count
    }

    /// The page without its `<script>` elements (the data block and the code).
    static func withoutScripts(_ dom: String) -> String {
        var out = "", rest = Substring(dom)
        while let start = rest.range(of: "<script") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "</script>") else { rest = ""; break }
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    /// The page's text as a person sees it: no scripts, no tags (attributes hold the data).
    static func visibleText(_ dom: String) -> String {
        var text = "", inTag = false
        for ch in withoutScripts(dom) {
            if ch == "<" { inTag = true } else if ch == ">" { inTag = false; text.append(" ") } else if !inTag { text.append(ch) }
        }
        return text
    }

    /// True when `text` has a run of 13 decimal digits starting "17" (epoch ms of this decade).
    static func showsEpochMs(_ text: String) -> Bool {
        var run = ""
        for ch in text + " " {
            if ch.isASCII && ch.isNumber { run.append(ch); continue }
            if run.count == 13 && run.hasPrefix("17") { return true }
            run = ""
        }
        return false
    }

    @Test func chromiumIsThereOrTheSkipIsSaidAloud() {
        if Self.chromium == nil {
            if HeadlessChromium.isRequired {
                Issue.record("CI=true but chromium is not installed: the report's browser tests cannot run (.ci/run installs chromium)")
            } else {
                print("⚠️⚠️⚠️ SKIPPED: chromium is not installed, so the HTML report is NOT checked in a browser (apt-get install chromium fonts-noto-cjk)")
            }
        }
    }

    @Test(.enabled(if: chromium != nil)) func pageLoadsWithoutAScriptErrorAndDrawsEveryFrame() throws {
        let (r, path) = try #require(Self.report)
        #expect(r.passed, "\(r.text())")
        _ = path
        let dom = try #require(Self.openedDOM).get()
        #expect(dom.contains("data-ready=\"1\""), "the script did not finish")
        let lastError = dom.range(of: "data-last-error=").map { String(dom[$0.upperBound...].prefix(200)) } ?? "?"
        #expect(!dom.contains("data-script-errors=\""), "script error: \(lastError)")
        let frames = Self.frameLines(r)
        #expect(frames > 100)
        #expect(dom.contains("data-frames-drawn=\"\(frames)\""))
        let page = Self.withoutScripts(dom)
        #expect(page.components(separatedBy: "<g data-frame=\"").count - 1 == frames)
        #expect(dom.contains("<svg data-view=\"timeline\""))
        // Faults, marks and checks are in the diagram.
        #expect(dom.contains("data-fault=\"loss 30.0%\""))
        #expect(dom.contains("data-mark=\"kill\"") && dom.contains("data-mark=\"restart\""))
        #expect(dom.contains("data-check=\"pass\""))
        #expect(dom.contains("class=\"fr dropped"), "a lossy stretch drops frames")
        // Both devices' screens, each in its own element; local date-times and offsets, no epoch ms shown.
        for key in PhoneWatchPair.screens.map({ "\($0.0.rawValue)/\($0.1)" }) { #expect(dom.contains("data-screen=\"\(key)\""), "\(key)") }
        #expect(dom.contains("2026-06-01 07:09:00 (+9m00s)"))
        // (The logs keep the nodes' own text, JSON numbers included; their times are shown as local date-times.)
        let beforeLogs = String(page[..<(page.range(of: "<div class=\"logs\">")?.lowerBound ?? page.endIndex)])
        #expect(!Self.showsEpochMs(Self.visibleText(beforeLogs)), "an epoch millisecond value is shown")
        #expect(page.contains("<div class=\"log info\" data-at=\""))
    }

    @Test(.enabled(if: chromium != nil)) func pickingAMomentChangesTheScreens() throws {
        let (r, path) = try #require(Self.report)
        let moments = try #require(r.recording?.moments)
        #expect(moments.count >= 4)
        let chromium = try #require(Self.chromium)
        func dashboard(_ dom: String) -> String {
            guard let start = dom.range(of: "data-screen=\"phone/dashboard\"") else { return "" }
            let rest = dom[start.upperBound...]
            return String(rest[..<(rest.range(of: "</figure>")?.lowerBound ?? rest.endIndex)])
        }
        // The page opens on the last moment; #pick picks a point of the timeline as a click does.
        let last = try #require(Self.openedDOM).get()
        let first = try chromium.dumpDOM("file://\(path)#pick=0,\(moments[0].atMs)")
        #expect(dashboard(last).contains("data-moment=\"\(moments.count - 1)\""))
        #expect(dashboard(first).contains("data-moment=\"0\""))
        #expect(dashboard(first) != dashboard(last), "the screens did not change with the moment")
        // The watch was running its workout at the end, not at the start.
        #expect(last.contains("data-view=\"watch/workout\""))
    }

    @Test(.enabled(if: chromium != nil)) func screenshotIsADarkUIWithTheRingsDrawn() throws {
        let (_, path) = try #require(Self.report)
        let png = NSTemporaryDirectory() + "peerlink-report-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        try #require(Self.chromium).screenshot("file://\(path)", width: 1400, height: 1000, to: png)
        let image = try PNGImage(Array(try Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(image.width == 1400 && image.height == 1000)
        var dark = 0, green = 0, total = 0
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) {
                let p = image.rgb(x, y)
                total += 1
                if p.r + p.g + p.b < 120 { dark += 1 }
                // The fitness green (#30D158) of the rings and the widgets.
                if abs(p.r - 0x30) < 40 && abs(p.g - 0xD1) < 40 && abs(p.b - 0x58) < 40 { green += 1 }
            }
        }
        #expect(Double(dark) / Double(total) > 0.6, "not a dark page: \(dark) of \(total) sampled pixels are dark")
        #expect(green > 150, "no rings drawn in the fitness green: \(green) green pixels sampled")
    }
}
