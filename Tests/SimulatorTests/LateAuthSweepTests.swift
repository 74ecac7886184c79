import Testing
@testable import PeerLinkScenarios

/// The sweep's run that found the phone taking a late `auth` on an older connection
/// (`LateAuthOnOlderConnectionTests` has the rule at the session's level).
@Suite("A late auth in a sweep")
struct LateAuthSweepTests {
    /// The sweep's seed that found it: a rolled-back phone, a slow link, duplicated frames; the
    /// phone took connection 3's late auth after connection 5 was up, and the context version
    /// the watch stored, as the phone knew it, went back from 6 to 5.
    @Test func seed600524OfReplyNeverSentTimesOut() throws {
        let o = try SimTest.replay(
            "reply-never-sent-times-out", seed: 600524,
            faults: "@3m44s rollback phone; @5m47s link latency 488ms jitter 74ms for 3m31s; @6m9s link latency 792ms jitter 329ms for 3m17s; @8m56s link duplicate 5% for 6m24s",
            workload: .fitness,
            ops: "@6m12s phone step-goal 23000; @7m51s watch steps 289; @8m39s phone step-goal 25000; @8m49s phone step-goal 24500; @9m phone step-goal 27000; @9m16s watch step-goal 12500")
        #expect(o.passed, "\(o.problems)")
    }
}
