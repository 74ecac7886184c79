import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch

/// The same scenario and seed give the same trace, byte for byte, in sim mode.
@Suite("Sim mode is deterministic")
struct DeterminismTests {
    @Test(arguments: SimTest.libraryFiles.map { String($0.split(separator: "/").last!) })
    func everyLibraryScenarioRunsTwiceToTheSameTraceHash(name: String) throws {
        let scenario = try SimTest.load(SimTest.repositoryRoot + "/scenarios/" + name)
        let first = SimConductor().run(scenario)
        let second = SimConductor().run(scenario)
        let h1 = try #require(first.traceHash, "no trace hash: \(first.text())")
        #expect(h1.count == 64)
        #expect(h1 == second.traceHash, "\(name): trace hashes differ")
        #expect(first.timeline == second.timeline, "\(name): timelines differ")
        #expect(first.phoneDigest == second.phoneDigest)
    }

    @Test func anotherSeedGivesAnotherTrace() throws {
        let body = """
            07:00:00 link loss 30%
            07:00:00 watch workout start running
            07:00:05 every 5s for 2m: watch hr 120..150
            07:02:05 watch workout end
            07:02:10 link clear
            07:04:00 expect converged
            """
        let a = SimConductor().run(try SimTest.scenario(body, seed: 1))
        let b = SimConductor().run(try SimTest.scenario(body, seed: 2))
        #expect(a.passed && b.passed, "\(a.text())\n\(b.text())")
        #expect(a.traceHash != nil && a.traceHash != b.traceHash)
    }

    @Test func theTraceHashIsInTheJSONReport() throws {
        let r = SimConductor().run(try SimTest.scenario("07:00:00 watch settings step-goal 9000\n07:01:00 expect converged\n"))
        let json = RunReport.json([r])
        #expect(json.contains("\"traceHash\":\"\(r.traceHash!)\""), "\(json.prefix(400))")
        #expect(json.contains("\"mode\":\"sim\""))
    }
}
