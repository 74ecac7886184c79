import Testing
import PeerLinkCore
@testable import PeerLinkScenarios
import PhoneWatch

/// The scenario language (docs/SCENARIOS.md): what each line becomes, and where an error
/// points (`file:line:col: error: …`).
@Suite("Scenario language")
struct ScenarioParserTests {
    static let header = """
        scenario "demo"
        start 2026-06-01T07:00:00+09:00
        timezone Europe/Berlin
        seed 42
        locale en

        """
    static let startMs: EpochMs = 1_780_264_800_000  // 2026-05-31T22:00:00Z

    static func parse(_ body: String) throws -> Scenario {
        try ScenarioParser.parse(header + body, file: "demo.scenario")
    }

    /// The error for `body`, which must not parse.
    static func error(_ text: String) -> String {
        do {
            _ = try ScenarioParser.parse(text, file: "bad.scenario")
            return "parsed"
        } catch {
            return error.description
        }
    }

    @Test func theHeaderSetsNameStartZoneSeedAndLocale() throws {
        let s = try Self.parse("07:00:00 watch workout start running\n")
        #expect(s.name == "demo" && s.startMs == Self.startMs && s.timeZone == "Europe/Berlin")
        #expect(s.seed == 42 && s.language == .en && s.steps.count == 1)
    }

    @Test func stepsTakeAbsoluteAndRelativeTimesAndEveryExpands() throws {
        let s = try Self.parse("""
            07:00:00 watch workout start running   # a comment
            07:00:10 every 10s for 1m: watch hr 100..110
            +5s watch workout end
            +1m expect converged
            """)
        #expect(s.steps.count == 1 + 6 + 2)
        // 07:00:00 is local to the scenario's zone (Berlin): 05:00Z, seven hours after the start.
        #expect(s.steps[0].atMs == Self.startMs + 7 * 3_600_000)
        let times = s.steps.map { ($0.atMs - s.steps[0].atMs) / 1000 }
        #expect(times == [0, 10, 20, 30, 40, 50, 60, 75, 135])  // +5s counts from the end of the every block
        for step in s.steps[1...6] {
            guard case .node(.watch, let cmd) = step.action, cmd.words.count == 2, let bpm = Int(cmd.words[1]) else {
                Issue.record("\(step.text) is not `watch hr N`")
                continue
            }
            #expect((100...110).contains(bpm))
        }
        guard case .expectConverged = s.steps.last!.action else { Issue.record("last step: \(s.steps.last!.text)"); return }
        #expect(s.steps[7].location.description == "demo.scenario:8:5")  // the header is lines 1–5
    }

    @Test func expectationsKeepTheirOperatorAndJSONValue() throws {
        let s = try Self.parse("""
            07:00:00 expect phone goals count >= 2
            +0s expect watch goals titles == ["Tokyo Marathon","Trip"]
            +0s expect phone goal goal-1 title == "Tokyo Marathon"
            +0s expect phone goal top id != goal-1
            +0s expect watch refuses goal edit goal-2 --title again
            """)
        let values: [(DeviceRole, [String], ExpectOperator, PlistValue)] = s.steps.compactMap {
            if case .expectValue(let r, let path, let op, let v) = $0.action { return (r, path, op, v) } else { return nil }
        }
        #expect(values.count == 4)
        #expect(values[0].1 == ["goals", "count"] && values[0].2 == .greaterOrEqual && values[0].3 == .int(2))
        #expect(values[1].3 == .array(["Tokyo Marathon", "Trip"]))
        #expect(s.steps[1].text == #"expect watch goals titles == ["Tokyo Marathon","Trip"]"#)
        #expect(values[2].1 == ["goal", "goal-1", "title"] && values[2].3 == "Tokyo Marathon")
        #expect(values[3].2 == .notEqual && values[3].3 == "goal-1")
        guard case .expectRefusal(.watch, let cmd) = s.steps[4].action else { Issue.record("not a refusal"); return }
        #expect(cmd.words == ["goal", "edit", "goal-2", "--title", "again"])
    }

    @Test func errorsPointAtFileLineAndColumn() {
        let start = "start 2026-06-01T07:00:00+09:00\n"
        #expect(Self.error(start + "07:00:00 wach hr 100\n").hasPrefix("bad.scenario:2:10: error: unknown action 'wach'"))
        #expect(Self.error("07:00:00 watch hr 100\n").hasPrefix("bad.scenario:1:1: error: a step before the header's 'start' line"))
        #expect(Self.error(start + "2026-06-01T07:00:10 watch hr 100\n2026-06-01T07:00:05 watch hr 90\n")
            .hasPrefix("bad.scenario:3:1: error: step time 2026-06-01T07:00:05 is before the previous step"))
        #expect(Self.error("timezone Mars/Olympus\n").hasPrefix("bad.scenario:1:10: error: unknown time zone 'Mars/Olympus'"))
        #expect(Self.error(start + "07:00:00 expect phone goals count\n").hasPrefix("bad.scenario:2:10: error: expected 'expect converged'"))
        #expect(Self.error(start + "  07:00:00 watch hr 110..100\n").hasPrefix("bad.scenario:2:12: error: empty range 110..100"))
    }

    @Test func everyErrorOfAFileIsReportedOnceInLineOrder() {
        let start = "start 2026-06-01T07:00:00+09:00\n"
        let text = start + "07:00 every 5x for 10m: watch hr 100\n07:01 every 5s for 1q: watch hr 100\n"
            + "07:02 wach hr 1\n07:03 link flap\n07:04 watch hr 100\n"
        #expect(Self.error(text).split(separator: "\n") == [
            "bad.scenario:2:13: error: bad period '5x' (a duration like 250ms, 5s, 10m, 1h30m)",
            "bad.scenario:3:20: error: bad length '1q' (a duration like 30s, 10m, 1h30m)",
            "bad.scenario:4:7: error: unknown action 'wach' (expected phone, watch, expect, link, kill, restart, crash, clock, corrupt, rollback, damage-partial-file, stranger or every)",
            "bad.scenario:5:7: error: unknown link fault 'flap' (down, up, reset, clear, latency, bandwidth, loss, duplicate, reorder, tamper, slice, close-after)",
        ])
        // Steps before a missing start: said once, not once per step.
        #expect(Self.error("07:00 watch hr 1\n07:01 watch hr 2\n").split(separator: "\n") == [
            "bad.scenario:1:1: error: a step before the header's 'start' line",
        ])
    }

    @Test func atMostTwentyErrorsAreListed() {
        let text = "start 2026-06-01T07:00:00+09:00\n" + (1...30).map { "07:\(10 + $0) wach \($0)\n" }.joined()
        let lines = Self.error(text).split(separator: "\n")
        #expect(lines.count == ScenarioParser.maxErrors + 1)
        #expect(lines.first?.hasPrefix("bad.scenario:2:7: error: unknown action 'wach'") == true)
        #expect(lines.last == "bad.scenario: note: more errors not shown (the first 20 are)")
    }

    @Test func componentsSplitOnEveryOccurrence() {
        #expect("110..175".components(separatedBy: "..") == ["110", "175"])
        #expect("a..b..".components(separatedBy: "..") == ["a", "b", ""])
        #expect("歩数&心拍<&>".components(separatedBy: "&") == ["歩数", "心拍<", ">"])
        #expect("no separator".components(separatedBy: "..") == ["no separator"])
        #expect("".components(separatedBy: "..") == [""])
        #expect("Tokyo & \"Run\"".replacingAll("&", "&amp;") == "Tokyo &amp; \"Run\"")
    }

    /// Only `INT..INT` draws a number; any other word with dots stays as written (as when the
    /// word was split on every `..`), and a command word with a space is quoted in `raw`.
    @Test func rangesAreTwoIntegersAroundOneDoubleDot() throws {
        var p = ScenarioParser(file: "t", rng: SplitMix64(seed: 7))
        let loc = SourceLocation(file: "t", line: 1, column: 1)
        for w in ["1.5..3", "1...5", "1....5", "..5", "5..", "a..b", "1..2..3", "1.2", "v1.", "hr", "..", "."] {
            #expect(try p.expandRange(w, loc: loc) == w)
        }
        for _ in 0..<20 {
            #expect((-3 ... -1).contains(Int(try p.expandRange("-3..-1", loc: loc))!))
            #expect(try p.expandRange("+7..7", loc: loc) == "7")
        }
        #expect(throws: ScenarioError.self) { try p.expandRange("5..4", loc: loc) }
        #expect(ScenarioParser.commandText(["sample", "Tokyo Marathon", "x"]) == "sample \"Tokyo Marathon\" x")
    }
}
