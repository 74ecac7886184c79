import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch

/// Tests/Fixtures/sweep-fixture.scenario: cheap to sweep, and seeds 6 and 11 of 1…16 fail
/// (its comment says why), so reports hold passes and failures.
enum SweepFixture {
    static let file = "tiny.scenario"
    static let text = readScenarioFile(SimTest.repositoryRoot + "/Tests/Fixtures/sweep-fixture.scenario") ?? "(Tests/Fixtures/sweep-fixture.scenario is missing)"

    static func scenario(_ text: String = text) throws -> Scenario { try ScenarioParser.parse(text, file: file) }

    /// `report()`, run once for the tests that only read or damage it.
    static let sixteen = Result { try report() }

    /// The report of seeds `from…` (`count`, or shard `shard` of them), run for real.
    static func report(from: UInt64 = 1, count: Int = 16, shard: SweepShard? = nil, options: SweepOptions = SweepOptions(),
                       commit: String = "0123abcd", text: String = text, file: String = file, jobs: Int = 2) throws -> SweepReport {
        let s = try ScenarioParser.parse(text, file: file)
        let seeds = SweepReport.Seeds(from: from, count: count, shard: shard)
        let outcomes = SweepSession(scenario: s, seeds: seeds.list, options: options, jobs: jobs).run()
        return SweepReport(scenario: s, file: file, text: text, commit: commit, options: options, seeds: seeds, outcomes: outcomes,
                           timing: ["wallMs": .int(Int64(jobs * 10)), "jobs": .int(Int64(jobs)), "host": .string("test-host-\(jobs)")])
    }
}
