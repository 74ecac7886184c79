import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch

/// `--junit PATH` of sweeps and merges, read back by an XML parser (libxml2 through
/// FoundationXML), as a CI server reads it.
@Suite("Sweep reports: JUnit XML")
struct SweepJUnitReportTests {
    @Test func oneSuitePerScenarioOneCasePerSeedAndTheFailuresWithTheirReplayCommands() throws {
        let tiny = try SweepFixture.report(count: 12)
        let other = try SweepFixture.report(count: 3, text: SweepFixture.text.replacingOccurrences(of: "tiny sweep fixture", with: "second"))
        let doc = try XMLDocument(xmlString: SweepJUnitReport.xml([tiny, other]))
        let root = try #require(doc.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "15" && root.attribute(forName: "failures")?.stringValue == "2")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["tiny sweep fixture", "second"])
        let cases = suites[0].elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue ?? "" } == (1...12).map { "seed \($0)" })
        #expect(cases.allSatisfy { $0.attribute(forName: "classname")?.stringValue == "tiny.scenario" })
        let failing = cases.filter { !$0.elements(forName: "failure").isEmpty }
        #expect(failing.map { $0.attribute(forName: "name")?.stringValue } == ["seed 6", "seed 11"])
        for (element, seed) in zip(failing, tiny.outcomes.filter { !$0.passed }) {
            let failure = element.elements(forName: "failure")[0]
            #expect(failure.attribute(forName: "message")?.stringValue?.hasPrefix("expectation: tiny.scenario:8:10: expect always phone settings step-goal == 9000") == true)
            #expect(failure.attribute(forName: "type")?.stringValue == "expectation")
            #expect(failure.stringValue == seed.failure)
            #expect(failure.stringValue?.contains("replay: sync-sim sweep tiny.scenario --seed \(seed.seed)") == true)
        }
        let properties = suites[0].elements(forName: "properties").first?.elements(forName: "property") ?? []
        let named = Dictionary(uniqueKeysWithValues: properties.map { ($0.attribute(forName: "name")!.stringValue!, $0.attribute(forName: "value")!.stringValue!) })
        #expect(named["commit"] == "0123abcd" && named["version"] == PeerLinkVersion.string && named["sha256"] == tiny.scenario.sha256)
        #expect(named["seeds"] == "seeds 1…12")
    }

    /// A checker's problem starts with its epoch-millisecond time (TransferLedger,
    /// NodeInvariants): the CI page shows it as a local date-time in the scenario's zone, as
    /// `sync-sim sweep` prints it, message and body alike.
    @Test func aProblemsTimeReadsAsALocalDateTimeNotEpochMilliseconds() throws {
        var report = try SweepFixture.report(count: 2)
        let scenario = try SweepFixture.scenario()
        let problems = ["\(scenario.startMs + 61_123) phone: started a new store (its receive logs empty) though the run did not damage its store",
                        "\(scenario.startMs + 3_723_000) watch: its receive log for the userInfo stream went back from 4 to 2"]
        // As a sweep records it (its failure block), and without the block (a hand-made report).
        let o = SeedOutcome(seed: 1, faults: FaultSchedule(faults: []), problems: problems, shrunk: nil)
        report.outcomes[0] = SweepReport.Seed(o, file: SweepFixture.file, options: SweepOptions(), scenario: scenario)
        report.outcomes[1] = report.outcomes[0]
        report.outcomes[1].seed = 2
        report.outcomes[1].failure = nil
        let doc = try XMLDocument(xmlString: SweepJUnitReport.xml([report]))
        let cases = doc.rootElement()?.elements(forName: "testsuite").first?.elements(forName: "testcase") ?? []
        let failures = cases.compactMap { $0.elements(forName: "failure").first }
        #expect(failures.count == 2)
        for failure in failures {
            let message = try #require(failure.attribute(forName: "message")?.stringValue)
            #expect(message == "2026-06-03 12:01:01.123 (+1m01s) phone: started a new store (its receive logs empty) though the run did not damage its store")
            #expect(failure.stringValue?.contains("2026-06-03 13:02:03.000 (+1h02m03s) watch: its receive log") == true, "\(failure.stringValue ?? "")")
            for text in [message, failure.stringValue ?? ""] {
                #expect(text.firstRange(of: /\d{13}/) == nil, "an epoch-millisecond time in \(text)")
            }
        }
        // What `sync-sim merge` prints for them: the block, and for the seed without one its
        // first problem read the same way.
        #expect(report.failureText(report.outcomes[0]) == report.outcomes[0].failure)
        #expect(report.failureText(report.outcomes[1])
                == "FAIL seed 2: 2026-06-03 12:01:01.123 (+1m01s) phone: started a new store (its receive logs empty) though the run did not damage its store")
    }

    @Test func anyTextInAProblemStaysWellFormedAndReadsBackAsWritten() throws {
        var report = try SweepFixture.report(count: 1)
        let nasty = "lost: <u1> & \"u2\" 'u3' \u{1}\u{7}bell\ttab\r\nnext line — 歩数 ]]> \u{FFFE}"
        let read = "lost: <u1> & \"u2\" 'u3' \u{FFFD}\u{FFFD}bell\ttab\r\nnext line — 歩数 ]]> \u{FFFD}"
        report.outcomes[0].passed = false
        report.outcomes[0].problems = [nasty]
        report.outcomes[0].kind = "lost"
        report.outcomes[0].failure = "FAIL seed 1: " + nasty
        report.scenario.name = "a <\"name\"> & 'more'"
        let doc = try XMLDocument(xmlString: SweepJUnitReport.xml([report]))
        let suite = try #require(doc.rootElement()?.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "name")?.stringValue == report.scenario.name)
        let failure = try #require(suite.elements(forName: "testcase").first?.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == read)
        #expect(failure.stringValue == "FAIL seed 1: " + read)
    }
}
