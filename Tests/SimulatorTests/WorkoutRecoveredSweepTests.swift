import Testing
@testable import PeerLinkCore
@testable import PeerLinkScenarios
import PhoneWatch

/// A workout ended on the watch while the link was down, then the watch's store went back to
/// before the end: the watch recovers the session from its snapshot, running again, and the
/// phone shows it live. Found by a 1,000-seed fitness sweep from seed 300001 (seed 300125 of
/// `fitness-widget-after-midnight.scenario`, seed 300808 of
/// `clocks-ahead-and-back-budgets.scenario`): the model took the last `workout end` as certain
/// and reported "the phone still shows a live workout (running) after the last one ended".
@Suite("A workout recovered after the watch's store went back, found by sweeps")
struct WorkoutRecoveredSweepTests {
    /// Replay: `sync-sim sweep scenarios/fitness-widget-after-midnight.scenario --seed 300125
    /// --faults "@19m21s link down for 9m25s; @28m47s rollback watch" --workload fitness --ops
    /// "@13s watch workout start; @15m14s watch step-goal 25000; @19m39s watch workout end"`.
    @Test func theSessionTheWatchRecoversAfterItsStoreWentBackMayBeLive() throws {
        let ops = "@13s watch workout start; @15m14s watch step-goal 25000; @19m39s watch workout end"
        let o = try SimTest.replay("fitness-widget-after-midnight", seed: 300125, faults: "@19m21s link down for 9m25s; @28m47s rollback watch",
                                   workload: .fitness, ops: ops)
        #expect(o.passed, "\(o.problems)")
        let o2 = try SimTest.replay("clocks-ahead-and-back-budgets", seed: 300808, faults: "@1h5m3s link down for 19m46s; @1h25m5s rollback watch",
                                    workload: .fitness, ops: "@5m30s watch workout start; @1h20m43s watch workout end")
        #expect(o2.passed, "\(o2.problems)")
    }

    /// What the model predicts, on runs built by hand: a session started and ended, then the
    /// watch's store damaged or not.
    @Test func aSessionEndedBeforeADamageOfTheWatchsStoreIsNotKnownToHaveEnded() {
        for (damage, activeAtEnd) in [([(DeviceRole, EpochMs)](), false), ([(.phone, 500)], false), ([(.watch, 500)], true), ([(.watch, 150)], false)] {
            let run = WorkloadRun(kind: .fitness)
            for (at, action) in [(EpochMs(100), "start"), (200, "end")] {
                var e = WorkloadRun.Entry(op: WorkloadOp(atMs: at, role: .watch, action: .workout(action)), command: "workout \(action)", atMs: at, wallMs: at)
                e.accepted = true
                e.reply = ["id": "workout-1"]
                run.appendEntry(e)
            }
            for (role, at) in damage { run.storeDamaged(role, atMs: at) }
            #expect(FitnessModel.workouts(run).activeAtEnd == activeAtEnd, "\(damage)")
        }
    }
}
