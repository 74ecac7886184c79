import Testing
import PeerLinkCore
import PeerLinkSim
import CountdownDomain
@testable import PeerLinkScenarios
import PhoneWatch

/// The sim driver on small scenarios written here: one test per step kind.
@Suite("Sim mode: every step kind on the simulated network")
struct SimDriverTests {
    @Test func nodeCommandsAndExpectationsPassAndFailAsWritten() throws {
        let (r, _) = try SimTest.run("""
            07:00:00 watch workout start running
            07:00:05 every 5s for 1m: watch hr 120..150
            07:01:05 watch workout end
            07:02:00 expect converged
            +0s expect phone workouts == 1
            +0s expect phone samples count == 12
            +0s expect phone workouts == 2
            +0s expect watch refuses workout end
            +0s expect watch refuses settings step-goal 7
            """)
        #expect(r.mode == "sim")
        #expect(r.error == nil, "\(r.text())")
        #expect(SimTest.check(r, "expect converged")?.passed == true, "\(r.text())")
        #expect(SimTest.check(r, "expect phone workouts == 1")?.passed == true, "\(r.text())")
        #expect(SimTest.check(r, "expect phone samples count == 12")?.passed == true, "\(r.text())")
        #expect(SimTest.check(r, "expect phone workouts == 2")?.passed == false, "a false expectation must fail")
        #expect(SimTest.check(r, "expect watch refuses workout end")?.passed == true, "\(r.text())")
        #expect(!r.passed)
        #expect(r.phoneDigest == r.watchDigest)
    }

    @Test func aRefusedCommandFailsTheScenario() throws {
        let (r, _) = try SimTest.run("07:00:00 watch no-such-command\n")
        #expect(!r.passed)
        #expect(r.checks.contains { !$0.passed && $0.detail.contains("refused") }, "\(r.text())")
    }

    @Test func nothingCrossesWhileTheLinkIsDown() throws {
        let (r, _) = try SimTest.run("""
            07:00:00 link down
            07:00:10 watch settings step-goal 9000
            07:00:30 expect phone link connected == false
            +0s expect phone settings step-goal == 10000
            07:05:00 link up
            07:06:00 expect converged
            +0s expect phone settings step-goal == 9000
            """)
        #expect(r.passed, "\(r.text())")
        #expect(r.timeline.contains { $0.hasSuffix("link down") } && r.timeline.contains { $0.hasSuffix("link up") })
    }

    @Test func lossyDuplicatingSlowLinksStillConverge() throws {
        let (r, _) = try SimTest.run("""
            07:00:00 link loss 20%
            +0s link duplicate 20%
            +0s link reorder 20%
            +0s link latency 120ms jitter 60ms
            +0s link bandwidth 4000 for 2m
            07:00:00 watch workout start walking
            07:00:05 every 5s for 3m: watch hr 90..130
            07:01:00 link slice 7 for 30s
            07:03:05 watch workout end
            07:03:10 link clear
            07:05:00 expect converged
            +0s expect phone samples count == 36
            """)
        #expect(r.passed, "\(r.text())")
        for fate in ["dropped", "duplicated", "reordered"] {
            #expect(r.timeline.contains { $0.hasSuffix(fate) }, "no frame \(fate)")
        }
    }

    @Test func closeAfterAndResetDropTheConnectionAndItComesBack() throws {
        let (r, _) = try SimTest.run("""
            07:00:00 link close-after 600 for 1m
            07:00:10 watch settings step-goal 8000
            07:01:30 link reset
            07:03:00 expect converged
            +0s expect phone settings step-goal == 8000
            """)
        #expect(r.passed, "\(r.text())")
        #expect(r.timeline.contains { $0.contains("closed after") })
        #expect(r.timeline.contains { $0.hasSuffix(" reset") })
    }

    @Test func aKilledNodeStaysDownUntilRestarted() throws {
        let (r, driver) = try SimTest.run("""
            07:00:00 kill watch
            07:00:10 watch settings step-goal 8000
            07:00:30 phone settings step-goal 7000
            07:01:00 expect phone link connected == false
            07:05:00 restart watch
            07:06:00 expect converged
            +0s expect watch settings step-goal == 7000
            """)
        #expect(SimTest.check(r, "watch settings step-goal 8000")?.detail == "the watch is not running")
        #expect(SimTest.check(r, "expect phone link connected == false")?.passed == true, "\(r.text())")
        #expect(SimTest.check(r, "expect converged")?.passed == true, "\(r.text())")
        #expect(r.timeline.contains { $0.hasSuffix("kill watch") } && r.timeline.contains { $0.hasSuffix("restart watch") })
        #expect(driver.isRunning(.watch))
    }

    @Test func aCrashMidWorkoutKeepsWhatWasCommitted() throws {
        let (r, _) = try SimTest.run("""
            07:00:00 watch workout start running
            07:00:05 every 5s for 2m: watch hr 120..150
            07:01:02 crash watch
            07:01:03 expect watch workout state == running
            +0s expect watch workout samples == 12
            07:02:05 watch workout end
            07:03:00 expect converged
            +0s expect phone samples count == 24
            """)
        #expect(r.passed, "\(r.text())")
    }

    @Test func clockFaultsMoveOnlyTheWallClock() throws {
        let s = try SimTest.scenario("""
            07:00:00 clock watch +7m
            07:00:00 clock phone drift 1000ppm
            07:10:00 watch settings step-goal 9000
            07:20:00 clock phone freeze
            07:30:00 expect converged
            +0s expect phone settings step-goal == 9000
            """)
        let (r, driver) = SimTest.run(s)
        #expect(r.passed, "\(r.text())")
        let net = try #require(driver.network)
        #expect(net.watch.wallOffsetMs == 7 * 60_000)
        // 20 minutes at +1000 ppm, then frozen for 10 minutes (plus the converge wait).
        #expect(net.phone.wallOffsetMs <= 1_200 - 10 * 60_000 && net.phone.wallOffsetMs > -12 * 60_000, "offset \(net.phone.wallOffsetMs)")
    }

    /// A clock step while the node is down reaches its launch: the phone writes, is killed,
    /// its clock goes back an hour, and it restarts inside the floor's lease, so its store's
    /// clock is ahead of the wall clock it launches on and the hybrid clock starts past the
    /// floor. (The driver used to keep the step until after the launch.)
    @Test func aClockSetBackWhileANodeIsDownIsSeenByItsLaunch() throws {
        let (r, driver) = try SimTest.run("""
            07:00:00 phone settings step-goal 6500
            07:00:10 kill phone
            07:00:20 clock phone -1h
            07:00:30 restart phone
            07:02:00 expect converged
            +0s expect phone settings step-goal == 6500
            """)
        #expect(r.passed, "\(r.text())")
        let net = try #require(driver.network)
        #expect(net.phone.wallOffsetMs == -3_600_000)
        #expect(net.logs.contains { $0.contains("phone") && $0.contains("the hybrid clock starts past its floor") },
                "\(net.logs.filter { $0.contains("phone") }.suffix(8))")
    }

    @Test func aCorruptStoreIsResetAndRestoredFromThePeer() throws {
        let (r, driver) = try SimTest.run("""
            07:00:00 phone settings step-goal 6500
            07:01:00 expect converged
            07:02:00 corrupt phone
            07:04:00 expect converged
            +0s expect phone settings step-goal == 6500
            """)
        #expect(r.passed, "\(r.text())")
        #expect(r.timeline.contains { $0.contains("corrupt store of phone") })
        #expect(driver.network!.logs.contains { $0.contains("phone error") && $0.contains("store corrupt") })
    }

    @Test func aRollbackUndoesTheLastCommitsAndThePeerResends() throws {
        // Only the watch writes: the phone's rollback loses what it received, its receive log
        // goes back, and the watch resends. (A node losing its own writes is a known issue.)
        let (r, _) = try SimTest.run("""
            07:00:00 watch settings step-goal 7000
            07:01:00 expect converged
            07:02:00 rollback phone
            07:04:00 expect converged
            +0s expect phone settings step-goal == 7000
            """)
        #expect(r.passed, "\(r.text())")
        let line = try #require(r.timeline.first { $0.contains("roll back the store of phone by") })
        #expect(!line.contains("by 0 commits"), "\(line)")
    }

    @Test func theFastForwardSkipsHeartbeatsButNotWork() throws {
        let body = """
            07:00:00 watch settings step-goal 8000
            08:00:00 phone settings step-goal 9000
            08:01:00 expect converged
            +0s expect watch settings step-goal == 9000
            """
        let (fast, _) = try SimTest.run(body)
        let (slow, _) = try SimTest.run(body, fastForward: false)
        #expect(fast.passed && slow.passed, "\(fast.text())\n\(slow.text())")
        #expect(fast.phoneDigest == slow.phoneDigest)
        let pings = { (r: ScenarioResult) in r.timeline.filter { $0.contains(" ping ") || $0.contains(" pong ") }.count }
        #expect(pings(fast) * 10 < pings(slow), "fast \(pings(fast)) slow \(pings(slow))")
    }

    @Test func theCSVExportGoesToTheInMemoryFolder() throws {
        let (r, driver) = try SimTest.run("""
            07:00:00 phone authorize grant all
            07:01:00 phone export csv
            +0s expect phone export count == 1
            """)
        #expect(r.passed, "\(r.text())")
        #expect(driver.exports.names.count == 1)
    }

    @Test func everyRunChecksTheTransferLedgerAndTheClocks() throws {
        let (r, driver) = try SimTest.run("""
            07:00:00 watch settings step-goal 8000
            07:00:30 crash phone
            07:01:00 phone settings step-goal 9000
            07:02:00 expect converged
            """)
        #expect(r.passed, "\(r.text())")
        #expect(driver.ledger.queuedCount > 0 && driver.ledger.acknowledgedCount == driver.ledger.queuedCount)
        #expect(driver.problems.isEmpty)
        #expect(r.checks.contains { $0.description.hasPrefix("user info exactly once") && $0.passed })
    }

    /// One fault model: the scenario's link faults are the simulated network's, and latency
    /// L ± J is a base of L − J plus 0…2J there.
    @Test func aScenariosLinkFaultsAreTheNetworksOwn() throws {
        let (r, driver) = try SimTest.run("""
            07:00:00 link latency 100ms jitter 30ms
            07:00:00 link bandwidth 500
            07:00:00 link loss 5%
            07:00:00 link slice 9
            07:00:01 link down
            07:00:02 expect phone workouts == 0
            """)
        #expect(r.passed, "\(r.text())")
        let n = try #require(driver.network)
        var f = LinkFaults()
        f.latencyMs = 100
        f.jitterMs = 30
        f.bandwidthBytesPerSecond = 500
        f.lossPercent = 5
        f.sliceBytes = 9
        f.down = true
        #expect(n.faults == f)
        #expect(!n.isLinkUp)
        #expect(n.baseLatencyMs == 70 && n.jitterSpreadMs == 60)
        n.faults.jitterMs = 150  // more jitter than latency: the base stops at 0
        #expect(n.baseLatencyMs == 0 && n.jitterSpreadMs == 300)
    }
}

/// `SimDriver.call` keeps the last line's words: a line is reused only when it is the same
/// bytes, not merely `==` (a canonically equivalent spelling has other words).
@Suite("Sim driver: the kept command line")
struct SimDriverKeptLineTests {
    @Test func aCanonicallyEquivalentLineIsSplitAgain() throws {
        let (r, driver) = try SimTest.run("07:00:00 expect converged\n")
        #expect(r.passed, "\(r.text())")
        let nfc = "caf\u{e9}-command", nfd = "cafe\u{301}-command"
        #expect(nfc == nfd && Array(nfc.utf8) != Array(nfd.utf8))
        func message(_ line: String) throws -> [UInt8] {
            guard case .failure(let e) = try driver.call(.watch, line) else { return [] }
            return Array(e.message.utf8)
        }
        let first = try message(nfc), second = try message(nfd), again = try message(nfd)
        #expect(first.contains(0xC3) && !first.contains(0xCC), "the NFC line's words: \(String(decoding: first, as: UTF8.self))")
        #expect(second.contains(0xCC) && !second.contains(0xC3), "the NFD line's own words, not the NFC line's: \(String(decoding: second, as: UTF8.self))")
        #expect(again == second)
    }
}
