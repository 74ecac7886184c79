import PeerLinkCore

/// `sync-sim sweep … --junit PATH` and `sync-sim merge … --junit PATH`: JUnit XML as CI
/// servers read it — one `testsuite` per scenario, one `testcase` per seed (`seed 17`), a
/// failing seed's `failure` with its first problem as the message and the block
/// `sync-sim sweep` prints (schedule, shrunk schedule, replay commands) as the body; a
/// problem's time as a local date-time, never epoch milliseconds.
public enum SweepJUnitReport {
    public static func xml(_ reports: [SweepReport]) -> String {
        let tests = reports.reduce(0) { $0 + $1.outcomes.count }
        let failures = reports.reduce(0) { $0 + $1.failed }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"sync-sim sweep\" tests=\"\(tests)\" failures=\"\(failures)\">\n"
        for r in reports {
            let wall = r.timing["wallMs"]?.intValue.map { " time=\"\(Double($0) / 1000)\"" } ?? ""
            out += "  <testsuite name=\"\(attribute(r.scenario.name))\" tests=\"\(r.outcomes.count)\" failures=\"\(r.failed)\" errors=\"0\"\(wall)>\n"
            out += "    <properties>\n"
            for (name, value) in [("file", r.scenario.file), ("sha256", r.scenario.sha256), ("commit", r.commit), ("version", r.version),
                                  ("seeds", r.seeds.description), ("options", r.options.commandLine)] {
                out += "      <property name=\"\(name)\" value=\"\(attribute(value))\"/>\n"
            }
            out += "    </properties>\n"
            // A problem's leading epoch-millisecond time as a local date-time in the scenario's
            // zone, as `sync-sim sweep` prints it (the report carries the text to parse).
            let scenario = try? ScenarioParser.parse(r.scenario.text, file: r.scenario.file)
            let readable = { (line: String) in SweepSession.readableTime(line, scenario: scenario) }
            for s in r.outcomes {
                out += "    <testcase classname=\"\(attribute(r.scenario.file))\" name=\"seed \(s.seed)\""
                guard !s.passed else { out += "/>\n"; continue }
                out += ">\n      <failure message=\"\(attribute(readable(s.problems.first ?? "failed")))\" type=\"\(attribute(s.kind ?? "failure"))\">"
                    + text(s.failure ?? s.problems.map(readable).joined(separator: "\n")) + "</failure>\n    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// `s` as an XML attribute value: as `text`, with newlines and tabs as character
    /// references, which a reader keeps (raw ones it reads as spaces).
    public static func attribute(_ s: String) -> String { escape(s, attribute: true) }

    /// `s` as XML character data: the five special characters as entities, a return as
    /// `&#13;` (kept, where a raw one is read as a newline), and each character XML 1.0
    /// cannot hold at all (control characters but tab, newline and return; U+FFFE, U+FFFF)
    /// as U+FFFD.
    public static func text(_ s: String) -> String { escape(s, attribute: false) }

    /// Scalar by scalar: a return and a newline are one `Character` in Swift.
    static func escape(_ s: String, attribute: Bool) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            switch u.value {
            case 0x26: out.append(contentsOf: "&amp;".unicodeScalars)
            case 0x3C: out.append(contentsOf: "&lt;".unicodeScalars)
            case 0x3E: out.append(contentsOf: "&gt;".unicodeScalars)
            case 0x22: out.append(contentsOf: "&quot;".unicodeScalars)
            case 0x27: out.append(contentsOf: "&#39;".unicodeScalars)
            case 0x0D: out.append(contentsOf: "&#13;".unicodeScalars)
            case 0x0A where attribute: out.append(contentsOf: "&#10;".unicodeScalars)
            case 0x09 where attribute: out.append(contentsOf: "&#9;".unicodeScalars)
            case 0x09, 0x0A: out.append(u)
            case 0..<0x20, 0xFFFE, 0xFFFF: out.append("\u{FFFD}")
            default: out.append(u)
            }
        }
        return String(out)
    }
}
