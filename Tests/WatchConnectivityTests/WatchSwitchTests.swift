import Testing
import PeerLinkCore

typealias StaysDeactivatedSide = ProbeSide<StaysDeactivated>

/// Apple (iOS): when the user switches to another watch, the session becomes inactive
/// (`sessionDidBecomeInactive`: no more sending), then deactivated (`sessionDidDeactivate`);
/// the app calls `activate()` again to talk to the new watch.
@Suite struct WatchSwitchTests {
    @Test func theWatchSwitchDeactivatesThePhoneAndAnActivateResumesIt() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 phone set-ctx a 1
            +10s phone session switch-watch
            +30s phone send-ui 1 1
            +0s phone ask 2
            09:02:00 expect converged
            """)
        defer { run.cleanUp() }
        let log = run.strings(.phone, "log")
        #expect(log == ["activated 2 ok", "inactive 1", "deactivated 0", "activated 2 ok", "finished-ui 1 ok"], "\(log)")
        #expect(run.strings(.phone, "results") == ["ctx ok", "ctx while inactive sessionInactive", "ask 2 reply 20"])
        #expect(run.strings(.watch, "log").filter { $0.hasPrefix("ui") } == ["ui 1"])
        #expect(run.int(.phone, "state") == 2)
    }

    @Test func aPhoneThatDoesNotActivateAgainCannotSend() throws {
        let run = try WCRun(StaysDeactivatedSide.self, PlainSide.self, """
            09:00:30 phone session switch-watch
            +10s expect phone state == 0
            +10s phone send-ui 1 1
            +0s phone ask 2
            +0s phone set-ctx a 1
            +30s phone activate
            +10s phone send-ui 3 3
            09:02:00 expect converged
            """)
        defer { run.cleanUp() }
        let log = run.strings(.phone, "log")
        #expect(log == ["activated 2 ok", "inactive 1", "deactivated 0", "finished-ui 1 sessionNotActivated", "activated 2 ok", "finished-ui 3 ok"], "\(log)")
        #expect(run.strings(.phone, "results") == ["ctx while inactive sessionInactive", "ask 2 sessionNotActivated", "ctx sessionNotActivated"])
        #expect(run.strings(.watch, "log").filter { $0.hasPrefix("ui") } == ["ui 3"])
    }
}
