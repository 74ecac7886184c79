import Testing
@testable import PeerLinkCore
@testable import PeerLinkScenarios

/// The watch queued its workout's sample file; its store went back to before it queued it
/// while the file was still crossing a slow link; the phone kept the file. At the next
/// handshake the watch learns the phone delivered a file number it never issued, so its
/// store forgot that file: it records the numbers (`filesForgotten` in `query sync-state`) and
/// convergence does not ask it to list the file among those it delivered. Found by sweeps
/// (seeds 500429 and 500613 of `workout-over-a-slow-link.scenario`): "received by the phone,
/// not among the watch's delivered files after 900 s".
@Suite("Files a sender's store forgot when it went back")
struct ForgottenFilesTests {
    static let file: PlistValue = ["peer": "bb", "number": 3, "name": "w.plist", "bytes": 10, "sha256": "ab", "atMs": 500]

    static func watch(_ forgotten: [PlistValue]) -> PlistValue {
        var w = ConvergenceCheckTests.node("bb", peer: "aa")
        if !forgotten.isEmpty { w = w.with("filesForgotten", .array(forgotten)) }
        return w
    }

    @Test func aFileTheSendersStoreForgotIsNotAskedOfIt() {
        let p = ConvergenceCheckTests.node("aa", peer: "bb", ["filesReceived": [Self.file]])
        #expect(ConvergenceCheck.differences(phone: p, watch: Self.watch([])).count == 1)
        #expect(ConvergenceCheck.differences(phone: p, watch: Self.watch([["peer": "aa", "first": 2, "last": 3]])).isEmpty)
        // Another range, or a range the sender found with another store of the receiver, excuses nothing.
        #expect(ConvergenceCheck.differences(phone: p, watch: Self.watch([["peer": "aa", "first": 4, "last": 9]])).count == 1)
        #expect(ConvergenceCheck.differences(phone: p, watch: Self.watch([["peer": "cc", "first": 1, "last": 9]])).count == 1)
    }

    @Test func itExcusesNothingElse() {
        // A file the sender lists and the receiver does not hold is still named; so are contents that disagree.
        let sent = Self.watch([["peer": "aa", "first": 1, "last": 9]]).with("filesSent", [Self.file.with("peer", "aa")])
        #expect(ConvergenceCheck.differences(phone: ConvergenceCheckTests.node("aa", peer: "bb"), watch: sent).count == 1)
        let other = ConvergenceCheckTests.node("aa", peer: "bb", ["filesReceived": [Self.file.with("sha256", "ff")]])
        #expect(ConvergenceCheck.differences(phone: other, watch: sent).count == 1)
    }

    /// Replays: `sync-sim sweep scenarios/workout-over-a-slow-link.scenario --seed 500429
    /// --faults "@10m40s rollback watch"` and seed 500613's shrunk schedule; the watch's
    /// sync-state names the forgotten file.
    @Test func theSweepSeedsPass() throws {
        let s = try SimTest.load(SimTest.repositoryRoot + "/scenarios/workout-over-a-slow-link.scenario")
        for (seed, faults) in [(UInt64(500429), "@10m40s rollback watch"),
                               (500613, "@4m11s crash phone; @7m29s crash watch; @7m35s link close-after 11141 for 7m30s; @9m47s kill phone for 5m17s; @15m26s rollback watch")] {
            let o = try SimTest.replay("workout-over-a-slow-link", seed: seed, faults: faults)
            #expect(o.passed, "seed \(seed): \(o.problems)")
        }
        var o = SweepOptions()
        o.workload = .fitness
        let (driver, _) = try SimTest.runWorkload(s, seed: 500429, faults: try FaultSchedule.parse("@10m40s rollback watch"), ops: WorkloadOps([]), options: o)
        let state = try driver.call(.watch, "query sync-state filesForgotten").get()
        #expect(state.arrayValue?.count == 1 && state.arrayValue?.first?["first"] == 1 && state.arrayValue?.first?["last"] == 1, "\(state)")
    }
}
