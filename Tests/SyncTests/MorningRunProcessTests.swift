import Testing
import PeerLinkScenarios
import PhoneWatch

/// Runs the built `phone-node` and `watch-node` (next to the test bundle) on the morning run.
@Suite("Process mode: real nodes over TCP")
struct MorningRunProcessTests {
    /// The repository root: the scenario files are read from there.
    static var repositoryRoot: String {
        let file = #filePath
        return String(file[..<file.range(of: "/Tests/SyncTests/")!.lowerBound])
    }

    @Test func morningRunConvergesAndThePhoneHoldsTheWorkout() throws {
        let path = Self.repositoryRoot + "/scenarios/morning-run.scenario"
        let text = try #require(readScenarioFile(path))
        let scenario = try ScenarioParser.parse(text, file: path)
        let result = ProcessConductor(options: ConductorOptions(binDirectory: executableDirectory())).run(scenario)
        #expect(result.passed, "\(result.text())")
        #expect(result.phoneDigest != nil && result.phoneDigest == result.watchDigest)
        #expect(result.checks.contains { $0.description == "expect always phone workouts == 1" && $0.passed })
    }
}
