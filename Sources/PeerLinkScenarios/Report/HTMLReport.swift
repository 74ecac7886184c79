import PeerLinkCore
import SVGKit

/// `sync-sim … --html PATH`: ONE self-contained HTML file (inline CSS, SVG and a little
/// script; no network, no other file) with, per scenario, the space-time diagram of its
/// frames, faults, marks and checks; both devices' screens at the recorded moments (picking a
/// point of the diagram shows the screens as they were then); the checks, both digests and the
/// logs, filterable. docs/REPORT.md tells how to read it.
///
/// The page draws from one JSON block (`HTMLReportData`); the script lays the diagram out,
/// so a zoom level can fold dense stretches without a frame ever leaving the page.
public enum HTMLReport {
    /// The report of a run of `results` (each recorded: `ScenarioResult.recording`).
    public static func scenarios(_ results: [ScenarioResult], title: String = "PeerLink run report") -> String {
        var svgs = SVGTable()
        let data = results.enumerated().map { HTMLReportData.scenario($0.element, id: "s\($0.offset)", svgs: &svgs) }
        let summary = "<p class=\"summary\">\(SVGText.escape(RunReport.summaryLine(results)))</p>"
        return document(title: title, intro: summary, scenarios: data, svgs: svgs, extra: [:])
    }

    /// The page around the data: `intro` is HTML put above the scenarios; `extra` goes into the
    /// data block beside them (the sweep's summary).
    static func document(title: String, intro: String, scenarios: [PlistValue], svgs: SVGTable, extra: [String: PlistValue]) -> String {
        var data = extra
        data["scenarios"] = .array(scenarios)
        data["svgs"] = .array(svgs.documents.map { .string($0) })
        let json = scriptSafe(PlistValue.dictionary(data).jsonString())
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(SVGText.escape(title))</title>
            <style>\(HTMLReportAssets.css)</style>
            <script>\(HTMLReportAssets.errorTrap)</script>
            </head><body>
            <header><h1>\(SVGText.escape(title))</h1>\(intro)<nav id="toc"></nav></header>
            <main id="report"></main>
            <script type="application/json" id="report-data">\(json)</script>
            <script>\(HTMLReportAssets.script)</script>
            </body></html>

            """
    }

    /// JSON that cannot end its `<script>` element early (`</` written `<\/`, `<!--` as `<\u0021--`).
    static func scriptSafe(_ json: String) -> String {
        json.replacingAll("</", "<\\/").replacingAll("<!--", "<\\u0021--")
    }
}
