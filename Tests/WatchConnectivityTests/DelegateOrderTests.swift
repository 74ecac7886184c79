import Testing
import PeerLinkCore

typealias PlainSide = ProbeSide<Plain>

/// Apple: the delegate's calls come serially, on one background queue, in the order the
/// counterpart sent; user info arrives in the order it was queued, exactly once.
@Suite struct DelegateOrderTests {
    @Test func userInfoAndMessagesArriveSeriallyInTheOrderSent() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 phone send-ui 1 12
            +0s phone send-msg 101 105
            +10s phone send-ui 13 15
            +30s watch send-ui 1 3
            09:02:00 expect converged
            """)
        defer { run.cleanUp() }
        let watchLog = run.strings(.watch, "log")
        #expect(watchLog.first == "activated 2 ok", "\(watchLog)")
        #expect(watchLog.filter { $0.hasPrefix("ui ") } == (1...15).map { "ui \($0)" }, "\(watchLog)")
        #expect(watchLog.filter { $0.hasPrefix("msg ") } == (101...105).map { "msg \($0)" }, "\(watchLog)")
        #expect(run.strings(.phone, "log").filter { $0.hasPrefix("ui ") } == ["ui 1", "ui 2", "ui 3"])
        // Each of the phone's transfers finished once, in order, without error.
        #expect(run.strings(.phone, "log").filter { $0.hasPrefix("finished-ui") } == (1...15).map { "finished-ui \($0) ok" })
        #expect(run.int(.watch, "overlaps") == 0)
        #expect(run.int(.phone, "overlaps") == 0)
        // The failure of a call made inside a delegate call comes after that call returned.
        #expect(run.strings(.watch, "results") == ["nested payloadUnsupportedTypes during-callback false"])
        #expect(run.strings(.phone, "results") == ["nested payloadUnsupportedTypes during-callback false"])
    }
}
