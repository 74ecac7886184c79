import PeerLinkCore

/// The outcome of one expectation or failure in a run.
public struct CheckOutcome: Sendable {
    public var location: SourceLocation?
    public var description: String
    public var passed: Bool
    public var detail: String
}

/// The result of running one scenario.
public struct ScenarioResult: Sendable {
    public var name: String
    public var file: String
    public var mode: String
    public var passed: Bool
    public var checks: [CheckOutcome]
    /// Why the run stopped early, if it did.
    public var error: String?
    public var stepsRun: Int
    public var virtualMs: Int64
    public var wallMs: Int64
    public var phoneDigest: String?
    public var watchDigest: String?
    /// Remarks that are not checks (where state was kept…).
    public var notes: [String] = []
    /// The message timeline: which frames crossed, when, which were dropped or retried.
    public var timeline: [String] = []
    /// The nodes' log lines (all of them in sim mode; warnings and errors in process mode).
    public var logs: [String] = []
    /// SHA-256 (hex) of the run's trace, in a deterministic mode (sim): equal for equal runs.
    public var traceHash: String?
    /// The run as the HTML report draws it; nil unless recorded (`sync-sim --html`).
    public var recording: RunRecording?

    /// A result that failed before it ran (unreadable or invalid file).
    public static func failedBeforeRunning(file: String, mode: String, error: String) -> ScenarioResult {
        ScenarioResult(name: file, file: file, mode: mode, passed: false, checks: [], error: error, stepsRun: 0, virtualMs: 0, wallMs: 0)
    }

    /// Failed checks listed in the text report; the rest are counted (all are in the JSON).
    static let maxFailuresShown = 20

    /// The report block of this scenario (text).
    public func text() -> String {
        var lines: [String] = []
        lines.append("\(passed ? "PASS" : "FAIL") \(name)  (\(file), \(mode) mode)")
        lines.append("  steps: \(stepsRun)   virtual time: \(Self.duration(virtualMs))   wall: \(wallMs) ms")
        if let p = phoneDigest, let w = watchDigest {
            lines.append("  digests: phone \(p.prefix(16))…  watch \(w.prefix(16))…  \(p == w ? "equal" : "DIFFERENT")")
        }
        var failuresShown = 0
        var failuresHidden = 0
        for c in checks {
            if !c.passed {
                failuresShown += 1
                if failuresShown > Self.maxFailuresShown { failuresHidden += 1; continue }
            }
            let loc = c.location.map { "\($0): " } ?? ""
            lines.append("  \(c.passed ? "ok  " : "FAIL") \(loc)\(c.description)\(c.detail.isEmpty ? "" : " — \(c.detail)")")
        }
        if failuresHidden > 0 { lines.append("  … and \(failuresHidden) more failures (see --json)") }
        if let e = error { lines.append("  error: \(e)") }
        if let h = traceHash { lines.append("  trace: \(h)") }
        for n in notes { lines.append("  note: \(n)") }
        return lines.joined(separator: "\n")
    }

    /// The result as JSON-ready data.
    public func jsonValue() -> PlistValue {
        var v: [String: PlistValue] = [
            "name": .string(name), "file": .string(file), "mode": .string(mode), "passed": .bool(passed),
            "steps": .int(Int64(stepsRun)), "virtualMs": .int(virtualMs), "wallMs": .int(wallMs),
            "checks": .array(checks.map { c in
                ["location": .string(c.location?.description ?? ""), "check": .string(c.description),
                 "passed": .bool(c.passed), "detail": .string(c.detail)]
            }),
        ]
        if let e = error { v["error"] = .string(e) }
        if let p = phoneDigest { v["phoneDigest"] = .string(p) }
        if let w = watchDigest { v["watchDigest"] = .string(w) }
        if let h = traceHash { v["traceHash"] = .string(h) }
        v["timeline"] = .array(timeline.map { .string($0) })
        v["logs"] = .array(logs.map { .string($0) })
        v["notes"] = .array(notes.map { .string($0) })
        return .dictionary(v)
    }

    static func duration(_ ms: Int64) -> String {
        let s = ms / 1000
        if s >= 3600 { return "\(s / 3600)h \(s % 3600 / 60)m \(s % 60)s" }
        if s >= 60 { return "\(s / 60)m \(s % 60)s" }
        return "\(s)s"
    }
}

/// Summary line and machine formats over several results.
public enum RunReport {
    /// The last line of every run: `N passed, M failed`.
    public static func summaryLine(_ results: [ScenarioResult]) -> String {
        let p = results.filter(\.passed).count
        return "\(p) passed, \(results.count - p) failed"
    }

    public static func json(_ results: [ScenarioResult]) -> String {
        let p = results.filter(\.passed).count
        return PlistValue.dictionary([
            "scenarios": .array(results.map { $0.jsonValue() }),
            "passed": .int(Int64(p)), "failed": .int(Int64(results.count - p)),
        ]).jsonString()
    }

    /// JUnit XML: one test case per scenario.
    /// Escaped as the sweep's report escapes (`SweepJUnitReport.escape`): control characters
    /// a log line may hold would otherwise make the file something no XML parser reads.
    public static func junit(_ results: [ScenarioResult]) -> String {
        func esc(_ s: String) -> String { SweepJUnitReport.escape(s, attribute: true) }
        func body(_ s: String) -> String { SweepJUnitReport.escape(s, attribute: false) }
        let failures = results.filter { !$0.passed }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuite name=\"sync-sim\" tests=\"\(results.count)\" failures=\"\(failures)\">\n"
        for r in results {
            out += "  <testcase classname=\"\(esc(r.file))\" name=\"\(esc(r.name))\" time=\"\(Double(r.wallMs) / 1000)\">\n"
            if !r.passed {
                let msg = r.error ?? r.checks.filter { !$0.passed }.map { $0.description + " " + $0.detail }.joined(separator: "; ")
                out += "    <failure message=\"\(esc(msg))\">\(body(r.text()))</failure>\n"
            }
            out += "  </testcase>\n"
        }
        out += "</testsuite>\n"
        return out
    }
}

extension String {
    func replacingAll(_ a: String, _ b: String) -> String { components(separatedBy: a).joined(separator: b) }
}
