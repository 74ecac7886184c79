import Testing
import PeerLinkCore

/// Apple (iOS): `transferCurrentComplicationUserInfo` has a daily budget
/// (`remainingComplicationUserInfoTransfers`, 50); once it is 0 the call still transfers the
/// data, as ordinary user info (not current complication info). The budget is per day.
@Suite struct ComplicationBudgetTests {
    @Test func theBudgetCountsDownAndPastItTheInfoStillArrivesAsUserInfo() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:10 watch session complication on
            +20s expect phone remaining == 50
            +0s phone push-comp 52
            +0s expect phone remaining == 0
            09:02:00 expect converged
            2026-06-02T09:00:00 phone push-comp 1
            +0s expect phone remaining == 49
            +1m expect converged
            """)
        defer { run.cleanUp() }
        let results = run.strings(.phone, "results")
        let expected = (1...50).map { "comp \($0) before \(51 - $0) current true" }
            + ["comp 51 before 0 current false", "comp 52 before 0 current false", "comp 1 before 50 current true"]
        #expect(results == expected, "\(results)")
        let received = run.strings(.watch, "log").filter { $0.hasPrefix("ui ") }
        #expect(received.count == 53, "\(received)")
        #expect(Set(received) == Set((1...52).map { "ui \($0)" }), "\(received)")
        #expect(run.strings(.phone, "log").filter { $0.hasPrefix("finished-ui") && !$0.hasSuffix(" ok") } == [])
        #expect(run.int(.watch, "remaining") == 0)
        // In didFinish, the 50 within the budget are complication info, the two past it not.
        let finished = run.strings(.phone, "finished-complications").sorted()
        let within = (1...50).map { "\($0) current true" } + ["1 current true"]
        #expect(finished == (within + ["51 current false", "52 current false"]).sorted(), "\(finished)")
    }

    /// Apple: `isCurrentComplicationInfo` is true for a transfer started with
    /// `transferCurrentComplicationUserInfo` (within the budget), also in its `didFinish`.
    @Test func aDeliveredComplicationTransferIsStillCurrentComplicationInfoInDidFinish() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 phone push-comp 1
            09:01:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.phone, "results") == ["comp 1 before 50 current true"])
        #expect(run.strings(.phone, "finished-complications") == ["1 current true"])
    }

    /// Apple (iOS): `sessionWatchStateDidChange` follows `isComplicationEnabled`; while the
    /// complication is not on the active face, `transferCurrentComplicationUserInfo` fails at
    /// once and the budget reads 0.
    @Test func theComplicationTakenOffTheFaceIsReportedAndItsTransfersFail() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 watch session complication off
            +30s expect phone remaining == 0
            +0s phone push-comp 1
            +30s watch session complication on
            +30s expect phone remaining == 50
            +0s phone push-comp 1
            09:03:00 expect converged
            """)
        defer { run.cleanUp() }
        // The first connection reports the watch app installed and its complication on; then off, on.
        let states = run.strings(.phone, "watch-states")
        #expect(Array(states.suffix(2)) == ["paired true installed true complication false", "paired true installed true complication true"], "\(states)")
        #expect(states.dropLast(2).allSatisfy { $0 == "paired true installed true complication true" }, "\(states)")
        #expect(run.strings(.phone, "log").filter { $0.hasPrefix("finished-ui") } == ["finished-ui 1 invalidParameter", "finished-ui 1 ok"])
        #expect(run.strings(.watch, "log").filter { $0.hasPrefix("ui") } == ["ui 1"])
    }
}
