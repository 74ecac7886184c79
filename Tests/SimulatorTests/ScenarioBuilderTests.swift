import Testing
import PeerLinkCore
import PeerLinkScenarios

@Suite("Scenarios written in Swift")
struct ScenarioBuilderTests {
    /// scenarios/morning-run.scenario, written with the builder.
    static func morningRun() -> ScenarioBuilder {
        var b = ScenarioBuilder("morning run", start: "2026-06-01T07:00:00+09:00", timeZone: "Asia/Tokyo", seed: 42)
        b.watch("07:00:00", "workout start running")
        b.step("07:00:05", "every 5s for 30m: watch hr 118..168")
        b.watch("07:30:05", "workout end")
        b.expectConverged("07:31:00")
        b.expect("+0s", .phone, "workouts", .equal, 1, always: true)
        b.expect("+0s", .phone, "samples count", .equal, 360, always: true)
        return b
    }

    @Test func aBuiltScenarioRunsExactlyAsTheSameFileDoes() throws {
        let built = try Self.morningRun().scenario()
        let file = try SimTest.load(SimTest.repositoryRoot + "/scenarios/morning-run.scenario")
        #expect(built.steps.count == file.steps.count)
        #expect(built.steps.map(\.text) == file.steps.map(\.text))
        let (a, _) = SimTest.run(built)
        let (b, _) = SimTest.run(file)
        #expect(a.passed, "\(a.text())")
        #expect(a.traceHash != nil && a.traceHash == b.traceHash)
        #expect(a.checks.map(\.description) == b.checks.map(\.description))
    }

    @Test func itsStepsAndFailedChecksNameTheSwiftLineThatWroteThem() throws {
        var b = ScenarioBuilder("wrong count", start: "2026-06-01T07:00:00+09:00")
        b.watch("07:00:00", "workout start running")
        b.watch("07:00:05", "workout end"); let endLine = #line
        b.expect("07:01:00", .phone, "workouts", .equal, 2); let expectLine = #line
        let s = try b.scenario()
        #expect(s.steps[1].location.line == endLine)
        #expect(s.steps[1].location.file.hasSuffix("ScenarioBuilderTests.swift"))
        let (r, _) = SimTest.run(s)
        #expect(!r.passed)
        let failed = try #require(r.checks.first { !$0.passed })
        #expect(failed.location?.line == expectLine, "\(failed)")
    }

    @Test func aBadLineIsReportedAtTheCallThatWroteIt() {
        var b = ScenarioBuilder("bad", start: "2026-06-01T07:00:00+09:00")
        b.watch("07:00:00", "workout start running")
        b.link("07:00:10", "loss 120%"); let badLine = #line
        b.step("07:00:20", "every 0s for 1m: watch hr 100"); let periodLine = #line
        #expect(throws: ScenarioErrors.self) { try b.scenario() }
        do {
            _ = try b.scenario()
        } catch {
            #expect(error.errors.map(\.location.line) == [badLine, periodLine], "\(error)")
            #expect(error.description.contains("ScenarioBuilderTests.swift:\(badLine):"))
        }
    }

    @Test func itsTextIsAScenarioFileThatParsesToTheSameSteps() throws {
        let b = Self.morningRun()
        let reparsed = try ScenarioParser.parse(b.text, file: "morning.scenario")
        #expect(reparsed.steps.map(\.text) == (try b.scenario()).steps.map(\.text))
        #expect(reparsed.name == "morning run" && reparsed.seed == 42)
    }
}
