import Testing
@testable import PeerLinkCore
@testable import PeerLinkSim

/// A restarted node's device clock is as wrong as it was: the simulated network starts it with
/// the wall-clock offset it had, so what the node does at launch (the clock floor's check among
/// it) sees the time its device shows, not the true time until the next clock fault's tick.
@Suite("A restart keeps the device clock's offset")
struct RestartKeepsClockOffsetTests {
    @Test func theWallClockAfterAKillAndRestartIsStillSetBack() throws {
        let net = try makeNetwork(seed: 3)
        net.runUntilQuiet()
        net.setWallOffset(.phone, -3_600_000)
        net.advance(to: net.now + 1_000)
        net.kill(.phone)
        try net.restart(.phone)
        #expect(net.phone.wallOffsetMs == -3_600_000)
        #expect(net.phone.ctx.now == net.now - 3_600_000, "the app's first moment is on the device's clock")
        #expect(net.watch.wallOffsetMs == 0, "the other device's clock is its own")
    }

    /// The device's clock moves while the app is dead too: a node killed, its clock set back,
    /// then restarted, launches on the set-back clock.
    @Test func aClockSetBackWhileTheNodeIsDownIsTheOneItRestartsOn() throws {
        let net = try makeNetwork(seed: 3)
        net.runUntilQuiet()
        net.kill(.phone)
        net.setWallOffset(.phone, -3_600_000)
        net.advance(to: net.now + 1_000)
        try net.restart(.phone)
        #expect(net.phone.wallOffsetMs == -3_600_000)
        #expect(net.phone.ctx.now == net.now - 3_600_000, "the app's first moment is on the device's clock")
        net.kill(.phone)
        try net.restart(.phone)
        #expect(net.phone.wallOffsetMs == -3_600_000, "kept by the next restart, not set again")
    }
}

