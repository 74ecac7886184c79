#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLinkCore
import PeerLinkScenarios
import PeerLinkSim
import WaterLog

/// The water log under PeerLink's simulator, from outside PeerLink's package: one scenario
/// played in virtual time, then a sweep of random fault schedules over it.
@Suite struct WaterLogTests {
    static let scenarioPath = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
    static func scenario() throws -> Scenario {
        let path = "/" + scenarioPath + "/scenarios/two-wrists-one-goal.scenario"
        let text = try #require(readText(path), "no scenario at \(path)")
        return try ScenarioParser.parse(text, file: "two-wrists-one-goal.scenario")
    }

    static func readText(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            bytes += buf[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The watch alone against a scripted phone (`NodeHarness`): its drink reaches the peer's
    /// replica, and a drink the peer writes reaches the watch's total.
    @Test func theWatchAloneAgainstAScriptedPhone() throws {
        let h = try NodeHarness(role: .watch) { WaterWatch() }
        #expect(h.command("drink 250").value == 250)
        #expect(h.settle())
        #expect(h.peerEngine.ctx.replica.records(in: WaterLog.drinks).map { $0.fields["ml"] } == [250])
        h.peer { ctx in _ = ctx.set(RecordKey(WaterLog.drinks, "scripted-1"), ["ml": 300, "atMs": .int(ctx.now)]) }
        #expect(h.settle())
        #expect(h.query("total") == 550)
        try h.restart()
        #expect(h.query("total") == 550)
    }

    @Test func theScenarioPassesInVirtualTime() throws {
        let result = SimConductor(apps: .waterLog).run(try Self.scenario())
        #expect(result.passed, "\(result.checks.filter { !$0.passed }.map { "\($0.description): \($0.detail)" })\n\(result.error ?? "")")
        #expect(result.checks.count >= 7)
    }

    @Test func aSweepOfRandomFaultsAlwaysConverges() throws {
        let seeds = (1...200).map(UInt64.init)
        let outcomes = SweepSession(scenario: try Self.scenario(), seeds: seeds, options: SweepOptions(apps: .waterLog), jobs: 2).run()
        #expect(outcomes.count == seeds.count)
        for o in outcomes where !o.passed {
            Issue.record("seed \(o.seed) failed: \(o.problems.joined(separator: "; ")) — replay: SweepSession with seeds [\(o.seed)]")
        }
    }

    @Test func theScenarioPassesWithEachSideAProcessOverTCP() throws {
        // water-node is built beside this test bundle (the test target depends on it).
        let bin = executableDirectory() + "/water-node"
        let options = ConductorOptions(phone: NodeExecutable(path: bin, leadingArguments: ["phone"]),
                                       watch: NodeExecutable(path: bin, leadingArguments: ["watch"]))
        let result = ProcessConductor(options: options).run(try Self.scenario())
        #expect(result.passed, "\(result.checks.filter { !$0.passed }.map { "\($0.description): \($0.detail)" })\n\(result.error ?? "")")
    }
}
