import Testing
import PeerLinkCore

/// Apple: a payload over the limit fails with `payloadTooLarge` (messages 65,536 bytes;
/// PeerLink: user info 65,536, application context 262,144, measured on the canonical encoding).
@Suite struct PayloadLimitTests {
    @Test func aPayloadAtTheLimitGoesAndOneByteMoreFailsPayloadTooLarge() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 phone big msg 65536
            +5s phone big msg 65537
            +5s phone big data 65536
            +5s phone big data 65537
            +5s phone big ctx 262144
            +5s phone big ctx 262145
            +5s phone big ui 65536
            +5s phone big ui 65537
            09:02:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.phone, "results") == ["big msg 65536 reply", "big msg 65537 payloadTooLarge", "askData reply 3", "askData payloadTooLarge",
                                                   "big ctx 262144 ok", "big ctx 262145 payloadTooLarge"])
        #expect(run.strings(.phone, "log").filter { $0.hasPrefix("finished-ui") } == ["finished-ui - ok", "finished-ui - payloadTooLarge"])
        let watchLog = run.strings(.watch, "log")
        #expect(watchLog == ["activated 2 ok", "ask ?", "askData 65532", "ctx b=data262136", "ui ?"], "\(watchLog)")
    }
}
