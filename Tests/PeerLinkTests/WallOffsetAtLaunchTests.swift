#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import PeerLinkCore
@testable import PeerLinkPOSIX

/// `--wall-offset MS`: a node process starts with its wall clock off, as a device whose clock is
/// wrong when the app starts (the scenario runner restarts a node with the offset it had, as
/// the simulated network does).
@Suite("The wall clock's offset at launch", .serialized)
struct WallOffsetAtLaunchTests {
    @Test func theOptionIsParsedAndABadValueIsAUsageError() throws {
        let cl = try NodeCommandLine(arguments: ["--wall-offset", "-3600000"], role: .phone, subcommands: [])
        #expect(cl.wallOffsetMs == -3_600_000 && cl.processOptions(role: .phone).wallOffsetMs == -3_600_000)
        #expect(try NodeCommandLine(arguments: [], role: .phone, subcommands: []).wallOffsetMs == 0)
        #expect(throws: UsageError.self) { try NodeCommandLine(arguments: ["--wall-offset", "1h"], role: .phone, subcommands: []) }
    }

    @Test func aNodeStartedWithAnOffsetShowsItsWallClockOff() throws {
        let dir = NSTemporaryDirectory() + "peerlink-walloffset-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try makePrivateDirectory(dir)
        defer { removeTreeForTest(dir) }
        var o = NodeProcessOptions(role: .phone, stateDirectory: dir)
        o.virtualStartMs = 1_780_000_000_000
        o.wallOffsetMs = -3_600_000
        o.seed = 7
        o.listen = SocketAddress(host: "127.0.0.1", port: 0)
        let phone = try NodeProcessThread(options: o) { RecorderApp() }
        defer { _ = phone.stop() }
        let (ok, clock) = try phone.call("clock")
        #expect(ok)
        let mono: Int64? = clock["mono"]?.intValue, wall: Int64? = clock["wall"]?.intValue
        #expect(mono == 1_780_000_000_000)
        #expect(wall == 1_779_996_400_000, "an hour behind: \(clock)")
    }
}
