import Testing
@testable import PeerLinkCore
@testable import PeerLinkScenarios

/// The phone recorded a received file and sent its acknowledgement in one event; the link was
/// slow (latency above 600 ms), and the phone's store went back before the acknowledgement
/// reached the watch. The rollback took the phone's record of the file; the watch recorded the
/// file delivered after the damage, so the damage's time could not excuse the difference and
/// convergence failed: "delivered by the watch, not among the phone's received files after
/// 900 s". Nothing in the link was wrong: the phone's app had the file (kept at `workouts/`),
/// and a store that loses its tail loses the records in it. Found by sweeps (seed 900465 of
/// `phone-elapsed-matches-saved-workout.scenario` from 900000, plain; seed 1100324 of
/// `complication-60-pushes.scenario` from 1100001 with the fitness workload). The runner now
/// asks a node for its file records just before it damages the store and again after the
/// restart (`FileRecordsLostToDamage`), and the check excuses exactly the records the damage
/// took.
@Suite("A file record lost with a store's tail while its acknowledgement was in flight")
struct FileRecordLostInFlightTests {
    static let file: PlistValue = ["peer": "aa", "number": 2, "name": "w.plist", "bytes": 10, "sha256": "ab", "atMs": 12_400]

    static func phone(_ received: [PlistValue] = []) -> PlistValue {
        ConvergenceCheckTests.node("aa", peer: "bb", ["filesReceived": .array(received)])
    }

    static let watch = ConvergenceCheckTests.node("bb", peer: "aa", ["filesSent": [file]])

    static func records(_ field: String, peer: String = "bb", number: Int64 = 2) -> PlistValue {
        [field: [["peer": .string(peer), "number": .int(number)]]]
    }

    /// What `role`'s damage took: `before` listed, `after` did not.
    static func lost(_ role: DeviceRole, before: PlistValue, after: PlistValue = [:]) -> FileRecordsLostToDamage {
        var l = FileRecordsLostToDamage()
        l.note(role, before: before, after: after)
        return l
    }

    static let damage: [DeviceRole: EpochMs] = [.phone: 12_300]

    @Test func aRecordTheReceiversDamageTookIsExcused() {
        // The damage came before the sender's record: its time alone excuses nothing.
        #expect(ConvergenceCheck.differences(phone: Self.phone(), watch: Self.watch, damagedAtMs: Self.damage).count == 1)
        #expect(ConvergenceCheck.differences(phone: Self.phone(), watch: Self.watch, damagedAtMs: Self.damage,
                                             lostToDamage: Self.lost(.phone, before: Self.records("filesReceived"))).isEmpty)
    }

    @Test func aRecordThatSurvivedTheDamageIsStillNamedWhenItGoesLater() {
        let kept = Self.lost(.phone, before: Self.records("filesReceived"), after: Self.records("filesReceived"))
        #expect(ConvergenceCheck.differences(phone: Self.phone(), watch: Self.watch, damagedAtMs: Self.damage, lostToDamage: kept).count == 1)
    }

    @Test func onlyThatVeryRecordIsExcused() {
        for other in [Self.lost(.watch, before: Self.records("filesReceived")), Self.lost(.phone, before: Self.records("filesSent")),
                      Self.lost(.phone, before: Self.records("filesReceived", peer: "cc")),
                      Self.lost(.phone, before: Self.records("filesReceived", number: 3))] {
            #expect(ConvergenceCheck.differences(phone: Self.phone(), watch: Self.watch, damagedAtMs: Self.damage, lostToDamage: other).count == 1)
        }
        // Contents that disagree are named whatever the damage took.
        let otherContent = Self.phone([Self.file.with("peer", "bb").with("sha256", "ff")])
        #expect(ConvergenceCheck.differences(phone: otherContent, watch: Self.watch, damagedAtMs: Self.damage,
                                             lostToDamage: Self.lost(.phone, before: Self.records("filesReceived"))).count == 1)
    }

    /// A sender's lost delivery record needs no such excuse (the receiver's record is older than
    /// the sender's, which is older than the damage: the time rule covers it), and gets none: a
    /// receiver's record newer than the sender's damage is a delivery after it, which the
    /// sender's store must hold.
    @Test func aSendersLostDeliveryRecordIsLeftToTheTimeRule() {
        let w = ConvergenceCheckTests.node("bb", peer: "aa")
        let took = Self.lost(.watch, before: Self.records("filesSent", peer: "aa"))
        let older = Self.phone([Self.file.with("peer", "bb").with("atMs", 9_000)])
        #expect(ConvergenceCheck.differences(phone: older, watch: w, damagedAtMs: [.watch: 10_000], lostToDamage: took).isEmpty)
        let newer = Self.phone([Self.file.with("peer", "bb").with("atMs", 11_000)])
        #expect(ConvergenceCheck.differences(phone: newer, watch: w, damagedAtMs: [.watch: 10_000], lostToDamage: took).count == 1)
    }

    /// Replays of the two shrunk runs the sweeps gave: `sync-sim sweep SCENARIO --seed S
    /// --faults "…" [--workload fitness --ops "…"]`. Each fails without the runner's note.
    @Test func theShrunkRunsConverge() throws {
        let a = try SimTest.replay("phone-elapsed-matches-saved-workout", seed: 900465,
                                   faults: "@54s link tamper 7% for 31s; @1m3s link latency 620ms jitter 281ms for 40s; @1m10s rollback phone")
        #expect(a.passed, "\(a.problems)")
        let b = try SimTest.replay("complication-60-pushes", seed: 1100324,
                                   faults: "@5m46s link tamper 6% for 6m23s; @7m43s link down for 3m8s; @12m17s link latency 631ms jitter 37ms for 2m33s; @12m23s rollback phone",
                                   workload: .fitness,
                                   ops: "@4m18s watch workout start; @6m51s watch workout end; @7m22s watch workout start; @9m51s watch workout end")
        #expect(b.passed, "\(b.problems)")
    }
}
