import Testing
import PeerLinkScenarios
import PhoneWatch

/// Every scenario of the library, in both modes: one test case per scenario and mode, with
/// the scenario's report in the failure message.
@Suite("The scenario library passes in both modes")
struct ScenarioLibraryTests {
    @Test(arguments: Library.names)
    func passesInProcessMode(name: String) throws {
        let scenario = try Library.load(name)
        let r = ProcessConductor(options: ConductorOptions(binDirectory: executableDirectory())).run(scenario)
        #expect(r.passed, "\(r.text())")
        #expect(r.phoneDigest != nil && r.phoneDigest == r.watchDigest, "\(r.text())")
    }

    @Test(arguments: Library.names)
    func passesInSimMode(name: String) throws {
        let scenario = try Library.load(name)
        let r = SimConductor().run(scenario)
        #expect(r.passed, "\(r.text())")
        #expect(r.phoneDigest != nil && r.phoneDigest == r.watchDigest, "\(r.text())")
        #expect(r.traceHash != nil)
    }
}
