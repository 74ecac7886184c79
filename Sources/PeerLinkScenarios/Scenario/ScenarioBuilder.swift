import PeerLinkCore

/// A scenario written in Swift instead of a file: the same header and the same steps, each
/// placed by a call whose file and line then name the step in errors, reports and failed
/// expectations (`WaterTests.swift:42:1: error: …`).
///
/// ```swift
/// var b = ScenarioBuilder("two wrists, one goal", start: "2026-06-01T08:00:00+09:00")
/// b.watch("08:00:00", "drink 250")
/// b.expect("+10s", .phone, "total", .equal, 250)
/// b.link("08:01:00", "down")
/// b.step("08:02:00", "every 1m for 5m: watch drink 100")
/// b.expectConverged("08:10:00")
/// let scenario = try b.scenario()
/// ```
///
/// Each step is one line of the scenario language (docs/SCENARIOS.md) after its time, so a
/// builder accepts exactly what a file accepts — `every`, `for DURATION`, `+DURATION`,
/// ranges — and is read by the same parser; the typed methods only write the line.
public struct ScenarioBuilder: Sendable {
    /// The lines of the scenario text, and for each the Swift call that wrote it.
    private var lines: [String] = []
    private var origins: [SourceLocation] = []

    /// A scenario starting at `start` (an ISO date-time with an offset). `timeZone`, `language`
    /// and `seed` are the header's `timezone`, `locale` and `seed` lines.
    public init(_ name: String, start: String, timeZone: String = "Asia/Tokyo", language: AppLanguage = .ja,
                seed: UInt64 = 1, workload: WorkloadKind? = nil,
                file: String = #fileID, line: Int = #line, column: Int = #column) {
        let here = SourceLocation(file: file, line: line, column: column)
        add("scenario \(Self.quoted(name))", here)
        add("start \(start)", here)
        add("timezone \(timeZone)", here)
        add("locale \(language.rawValue)", here)
        add("seed \(seed)", here)
        if let workload { add("workload \(workload.rawValue)", here) }
    }

    /// A step at `time` (`07:31:00`, `+30s`, or an ISO date-time): `text` is what follows the
    /// time on a line of a scenario file (`watch workout start running`, `link loss 20% for 1m`).
    public mutating func step(_ time: String, _ text: String, file: String = #fileID, line: Int = #line, column: Int = #column) {
        add("\(time) \(text)", SourceLocation(file: file, line: line, column: column))
    }

    /// A command for the phone at `time`.
    public mutating func phone(_ time: String, _ command: String, file: String = #fileID, line: Int = #line, column: Int = #column) {
        step(time, "phone \(command)", file: file, line: line, column: column)
    }

    /// A command for the watch at `time`.
    public mutating func watch(_ time: String, _ command: String, file: String = #fileID, line: Int = #line, column: Int = #column) {
        step(time, "watch \(command)", file: file, line: line, column: column)
    }

    /// A change to the link at `time` (`down`, `up`, `loss 20%`, `latency 200ms for 1m`…).
    public mutating func link(_ time: String, _ change: String, file: String = #fileID, line: Int = #line, column: Int = #column) {
        step(time, "link \(change)", file: file, line: line, column: column)
    }

    /// `expect ROLE PATH OP VALUE` at `time`; `path` is the query's words (`total`, `sync pending`).
    public mutating func expect(_ time: String, _ role: DeviceRole, _ path: String, _ op: ExpectOperator, _ value: PlistValue,
                                always: Bool = false, file: String = #fileID, line: Int = #line, column: Int = #column) {
        step(time, "expect \(always ? "always " : "")\(role.rawValue) \(path) \(op.rawValue) \(value.jsonString())", file: file, line: line, column: column)
    }

    /// `expect converged` at `time`: both nodes hold the same state and nothing is in flight.
    public mutating func expectConverged(_ time: String, file: String = #fileID, line: Int = #line, column: Int = #column) {
        step(time, "expect converged", file: file, line: line, column: column)
    }

    /// The scenario, read by the scenario parser; its errors (and its steps' locations) name
    /// the Swift calls that wrote each line.
    public func scenario() throws(ScenarioErrors) -> Scenario {
        let name = origins.first?.file ?? "ScenarioBuilder"
        do {
            var s = try ScenarioParser.parse(lines.joined(separator: "\n"), file: name)
            for i in s.steps.indices { s.steps[i].location = origin(s.steps[i].location) }
            return s
        } catch {
            throw ScenarioErrors(error.errors.map { ScenarioError(location: origin($0.location), message: $0.message) },
                                 truncated: error.truncated)
        }
    }

    /// The scenario as a file would hold it (for `sync-sim` or to keep beside the test).
    public var text: String { lines.joined(separator: "\n") + "\n" }

    private mutating func add(_ line: String, _ origin: SourceLocation) {
        lines.append(line)
        origins.append(origin)
    }

    /// The Swift call behind a location in the generated text.
    private func origin(_ loc: SourceLocation) -> SourceLocation {
        guard loc.line >= 1, loc.line <= origins.count else { return loc }
        return origins[loc.line - 1]
    }

    /// A header value as one word of the scenario language.
    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
