import Testing
import PeerLinkCore

typealias DormantSide = ProbeSide<Dormant>

/// Apple: an app may start transfers only while its session is activated; before
/// `activate()` (state `notActivated`) sending is an error: `sendMessage`'s error handler,
/// `updateApplicationContext`'s throw and the transfers' `didFinish` report `sessionNotActivated`.
@Suite struct ActivationTests {
    @Test func everySendBeforeActivateFailsWithSessionNotActivatedAndWorksAfter() throws {
        let run = try WCRun(DormantSide.self, PlainSide.self, """
            09:00:30 phone try-all
            +10s watch send-ui 1 1
            +10s expect phone state == 0
            +10s phone activate
            +10s expect phone state == 2
            +10s phone try-all
            09:03:00 expect converged
            """)
        defer { run.cleanUp() }
        let results = run.strings(.phone, "results")
        #expect(Array(results.prefix(3)).sorted() == ["askData sessionNotActivated", "sendMessage sessionNotActivated",
                                                     "updateApplicationContext sessionNotActivated"], "\(results)")
        let log = run.strings(.phone, "log")
        // The three transfers' didFinish with the error, before the activation completed.
        let beforeActivation = Array(log.prefix { !$0.hasPrefix("activated") })
        #expect(beforeActivation.sorted() == ["finished-file f sessionNotActivated", "finished-ui 1 sessionNotActivated",
                                              "finished-ui 99 sessionNotActivated"], "\(log)")
        // Once activated: the user info the watch queued meanwhile arrives; every call works.
        #expect(log.contains("ui 1"), "\(log)")
        #expect(Array(results.dropFirst(3)).sorted() == ["askData reply 3", "sendMessage reply", "updateApplicationContext ok"], "\(results)")
        #expect(log.filter { $0.hasPrefix("finished-") }.dropFirst(3).sorted() == ["finished-file f ok", "finished-ui 1 ok", "finished-ui 99 ok"], "\(log)")
    }

    /// Apple: a live message is never queued; the counterpart must be reachable (its session
    /// activated) or the error handler gets `notReachable`.
    @Test
    func aLiveMessageToASessionNotYetActivatedFailsAndIsNeverDeliveredLater() throws {
        let run = try WCRun(DormantSide.self, PlainSide.self, """
            09:00:30 watch ask 7
            +1m phone activate
            09:03:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.watch, "results") == ["ask 7 notReachable"])
        #expect(run.strings(.phone, "log") == ["activated 2 ok"])
    }
}
