import Testing
import PeerLinkCore

/// Apple: user info and files are queued by the system, so they are delivered even when an
/// app exits before they go (and to an app that activates after they arrived).
@Suite struct RelaunchTests {
    @Test func userInfoQueuedBeforeACrashArrivesOnceAndTheRelaunchedAppHearsItFinished() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 link down
            +1m phone send-ui 1 3
            +10s crash phone
            +10s link up
            09:04:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.watch, "log").filter { $0.hasPrefix("ui") } == ["ui 1", "ui 2", "ui 3"])
        // The phone's app after the crash is a new one: it gets the three didFinish.
        #expect(run.strings(.phone, "log") == ["activated 2 ok", "finished-ui 1 ok", "finished-ui 2 ok", "finished-ui 3 ok"])
    }

    @Test func aFileThatArrivedBeforeActivateIsHandedOverThenDeleted() throws {
        let run = try WCRun(DormantSide.self, PlainSide.self, """
            09:00:30 watch send-file notes.bin 500
            +1m phone activate
            09:03:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.phone, "log") == ["activated 2 ok", "file notes.bin exists true"])
        #expect(run.bools(.phone, "received-exist") == [false])
        #expect(run.strings(.watch, "log").filter { $0.hasPrefix("finished-file") } == ["finished-file notes.bin ok"])
    }
}
