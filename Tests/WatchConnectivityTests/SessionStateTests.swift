import Testing
import PeerLinkCore

typealias RepliesLaterSide = ProbeSide<RepliesLater>

/// The session's state as Apple documents it, seen by the apps: reachability and its
/// callback, outstanding transfers and `cancel()`, both contexts, `watchDirectoryURL`, and a
/// reply handler called after the delegate call returned.
@Suite struct SessionStateTests {
    /// Apple: `sessionReachabilityDidChange` follows each change of `isReachable`.
    @Test func reachabilityChangesComeToTheDelegateWithTheNewValue() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 expect phone reachable == true
            +0s watch session background
            +30s expect phone reachable == false
            +0s watch session foreground
            +30s expect phone reachable == true
            09:02:00 expect converged
            """)
        defer { run.cleanUp() }
        let seen = run.bools(.phone, "reachability")
        #expect(seen == [true, false, true], "\(seen)")
    }

    /// Apple: a queued user info is in `outstandingUserInfoTransfers` and `isTransferring`
    /// until delivered; `cancel()` takes it back: never delivered, no `didFinish`.
    /// The simulator's transfer ledger takes a transfer that left the sender's outbox for an
    /// acknowledged one (TransferLedger.swift: "Neither app cancels transfers"; docs/SCENARIOS.md
    /// keeps cancels out of sweeps), so it reports one as never delivered: excused here, where
    /// the apps' own records say what arrived.
    @Test func outstandingUserInfoUntilDeliveredAndACancelledOneNeverArrives() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, excusing: ["acknowledged to the sender but never delivered"], """
            09:00:30 link down
            +1m phone send-ui 1 3
            +0s phone cancel-ui 2
            +10s expect phone outstanding == ["1","3"]
            +0s expect phone transferring == ["1 true","2 false","3 true"]
            +0s expect watch pending == false
            +0s link up
            09:04:00 expect converged
            +0s expect phone outstanding == []
            +0s expect phone transferring == ["1 false","2 false","3 false"]
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.watch, "log").filter { $0.hasPrefix("ui") } == ["ui 1", "ui 3"])
        #expect(run.strings(.phone, "log").filter { $0.hasPrefix("finished-ui") } == ["finished-ui 1 ok", "finished-ui 3 ok"])
    }

    /// Apple: `applicationContext` is the last context sent, `receivedApplicationContext` the
    /// last received; `watchDirectoryURL` exists on the phone once activated (iOS only).
    @Test func bothContextsAndTheWatchDirectory() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 phone set-ctx a 1
            +10s watch set-ctx w 7
            +10s phone set-ctx a 2
            09:02:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.query(.phone, "contexts")?.stringValue == "sent a=2 received w=7")
        #expect(run.query(.watch, "contexts")?.stringValue == "sent w=7 received a=2")
        #expect(run.query(.phone, "watch-directory")?.boolValue == true)
        #expect(run.query(.watch, "watch-directory")?.boolValue == false)
    }

    /// Apple: the reply handler may be called after the delegate call returned; the reply
    /// still comes to the sender's reply handler (within its timeout).
    @Test func aReplyHandlerCalledLaterStillAnswers() throws {
        let run = try WCRun(PlainSide.self, RepliesLaterSide.self, """
            09:00:30 phone ask 3
            +0s phone ask 4
            +2s expect phone results == []
            +0s watch reply-now
            09:02:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.phone, "results") == ["ask 3 reply 30", "ask 4 reply 40"])
    }
}
