import Testing
@testable import PeerLinkCore
@testable import PeerLinkSim

/// A command that only reads (`query PATH…`) is answered in place by the simulated network, as
/// a node process answers it: no entry point runs, so the observer is not called and no frame
/// goes out. A command that runs is observed and routed.
@Suite("Simulated network: read-only answers")
struct SimReadOnlyCommandTests {
    @Test func aQueryRunsNoEntryPointAndACommandDoes() throws {
        let net = try makeNetwork(seed: 3)
        net.advance(by: 1_000)
        #expect(net.isLinkUp)
        var observed: [DeviceRole] = []
        net.observer = { observed.append($0) }
        let traceBefore = net.trace.count

        let reply = net.command(.watch, "query received")
        #expect(reply == .ok(.int(0), text: "0"))
        #expect(net.command(.phone, "query no such") == .error(L10n.nodeNoValue("no such")(net.language(.phone))))
        #expect(observed.isEmpty, "a query is not an entry point")
        #expect(net.trace.count == traceBefore, "and sends nothing")

        #expect(net.command(.watch, "send 1").isOK)
        #expect(observed == [.watch], "a command that runs is observed")
        #expect(net.trace.count > traceBefore, "and its user info goes out")
    }
}
