import PeerLink
import Shared
import Simulator

/// A scenario cheap enough to sweep in every report test (a few ms a seed) whose `expect
/// always` is wrong, so the seeds that keep its premise fail — seeds 6 and 11 of 1…16 — and
/// the others pass: reports hold both, failures with their shrunk schedules and replay lines.
enum SweepFixture {
    static let file = "tiny.scenario"
    static let text = """
        scenario "tiny sweep fixture"
        start 2026-06-03T12:00:00+09:00
        12:00:00 phone settings step-goal 8000
        12:01:00 expect always phone settings step-goal == 9000

        """

    static func scenario(_ text: String = text) throws -> Scenario { try ScenarioParser.parse(text, file: file) }

    /// `report()`, run once for the tests that only read or damage it.
    static let sixteen = Result { try report() }

    /// The report of seeds `from…` (`count`, or shard `shard` of them), run for real.
    static func report(from: UInt64 = 1, count: Int = 16, shard: SweepShard? = nil, options: SweepOptions = SweepOptions(),
                       commit: String = "0123abcd", text: String = text, jobs: Int = 2) throws -> SweepReport {
        let s = try scenario(text)
        let seeds = SweepReport.Seeds(from: from, count: count, shard: shard)
        let outcomes = SweepSession(scenario: s, seeds: seeds.list, options: options, jobs: jobs).run()
        return SweepReport(scenario: s, file: file, text: text, commit: commit, options: options, seeds: seeds, outcomes: outcomes,
                           timing: ["wallMs": .int(Int64(jobs * 10)), "jobs": .int(Int64(jobs)), "host": .string("test-host-\(jobs)")])
    }
}
