import Testing
import PeerLinkCore
import PeerLinkScenarios
import PeerLinkWatchConnectivityHarness

/// Apple: user info is delivered exactly once, in the order queued, also when either app
/// exits. Both sides send each other 1…20 in four batches while a seeded schedule of random
/// link faults, kills and crashes runs; at the end each app must have received exactly
/// [1…20], in order (its own record, kept across restarts, compared by `expect converged`).
@Suite struct ExactlyOnceSweepTests {
    static let apps = SimApps.watchConnectivity("wc-probe", phone: PlainSide.self, watch: PlainSide.self)
    /// Link faults, kills, crashes and clock jumps: store damage (corruption, rollback) loses what a store
    /// acknowledged, which the app's own record keeps, so it is left out.
    static let classes = Set(FaultClass.allCases).subtracting([.corruption, .rollback, .damagePartialFile])

    @Test func userInfoArrivesExactlyOnceInOrderUnderRandomFaults() throws {
        let text = """
            scenario "user info both ways under faults"
            start 2026-06-01T09:00:00+09:00
            09:00:30 phone send-ui 1 10
            09:01:00 watch send-ui 1 10
            09:02:00 phone send-ui 11 20
            09:02:30 watch send-ui 11 20
            09:06:00 expect converged
            """
        let scenario = try ScenarioParser.parse(text, file: "ExactlyOnceSweepTests")
        var options = SweepOptions(apps: Self.apps)
        options.classes = Self.classes
        let seeds = (1...100).map(UInt64.init)
        let outcomes = SweepSession(scenario: scenario, seeds: seeds, options: options, jobs: 2).run()
        #expect(outcomes.count == seeds.count)
        for o in outcomes where !o.passed {
            Issue.record("seed \(o.seed): \(SweepSession.failureText(o, file: "ExactlyOnceSweepTests", classes: Self.classes, program: "sync-sim"))")
        }
    }
}
