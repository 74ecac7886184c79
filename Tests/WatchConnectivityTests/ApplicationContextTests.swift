import Testing
import PeerLinkCore

/// Apple: only the latest application context is delivered, and one equal to the current
/// context is not delivered again.
@Suite struct ApplicationContextTests {
    @Test func anIdenticalContextIsNotDeliveredTwice() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 phone set-ctx a 1
            +30s phone set-ctx a 1
            +30s phone set-ctx a 2
            +30s phone set-ctx a 3
            +0s phone set-ctx a 3
            +30s link down
            +10s phone set-ctx a 3
            +1m link up
            +1m phone set-ctx a 1
            09:06:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.phone, "results") == Array(repeating: "ctx ok", count: 7))
        let contexts = run.strings(.watch, "log").filter { $0.hasPrefix("ctx ") }
        #expect(contexts == ["ctx a=1", "ctx a=2", "ctx a=3", "ctx a=1"], "\(contexts)")
    }
}
