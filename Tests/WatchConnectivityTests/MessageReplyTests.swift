import Testing
import PeerLinkCore

/// Apple: `sendMessage` with a reply handler gets the counterpart's reply; a counterpart that
/// is not reachable (its app in the background, or out of range) gives `notReachable` to the
/// error handler.
@Suite struct MessageReplyTests {
    @Test func aReplyComesToTheReplyHandlerAndAnUnreachableCounterpartGivesNotReachable() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 phone ask 4
            +10s watch ask 7
            +10s watch session background
            +10s phone ask 5
            +0s phone send-msg 9 9
            +10s watch session foreground
            +10s phone ask 6
            +10s link down
            +3m phone ask 8
            +0s watch ask 3
            +10s link up
            09:08:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.phone, "results") == ["ask 4 reply 40", "ask 5 notReachable", "msg 9 notReachable", "ask 6 reply 60", "ask 8 notReachable"])
        #expect(run.strings(.watch, "results") == ["ask 7 reply 70", "ask 3 notReachable"])
        // The watch's app was called only for the messages that reached it.
        #expect(run.strings(.watch, "log").filter { $0.hasPrefix("ask") || $0.hasPrefix("msg") } == ["ask 4", "ask 6"])
    }
}
