import PeerLinkCore
import Testing

@testable import WatchNode

/// Snapshot → canonical bytes → decode → recover into a fresh manager (a simulated crash).
func crashAndRecover(_ m: WorkoutManager, savedAt: EpochMs, recoverAt: EpochMs) -> (WorkoutManager, [WorkoutEffect]) {
    guard let snapshot = m.snapshot(at: savedAt) else { return (WorkoutManager(), []) }
    let bytes = snapshot.encode()
    guard case .success(let decoded) = WorkoutSnapshot.decode(bytes) else {
        Issue.record("snapshot did not decode")
        return (WorkoutManager(), [])
    }
    #expect(decoded == snapshot)
    var fresh = WorkoutManager()
    let effects = fresh.recover(from: decoded, at: recoverAt)
    return (fresh, effects)
}

@Suite struct RecoveryTests {
    @Test func elapsedContinuesAfterACrashWhileRunning() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        _ = m.addHeartRate(bpm: 120, at: 30_000)
        _ = m.pause(at: 60_000)
        _ = m.resume(at: 90_000)
        _ = m.addActiveEnergy(kcal: 9.5, fromMs: 90_000, toMs: 120_000)
        // Crash at 120 s (snapshot saved then); the process is dead until 180 s.
        let (r, effects) = crashAndRecover(m, savedAt: 120_000, recoverAt: 180_000)
        #expect(effects.first == .recovered(workoutID: "w1", state: .running))
        #expect(r.session?.id == "w1" && r.session?.state == .running)
        // Dead time counts as running: 180 s − 30 s paused.
        #expect(r.screen(at: 180_000)?.elapsedMs == 150_000)
        #expect(r.screen(at: 180_000) == m.screen(at: 180_000))
        #expect(r.mirror.isMirroring)
        var after = r
        let saved = after.end(at: 240_000).savedWorkout
        #expect(saved?.record.elapsedMs == 210_000)
        #expect(saved?.record.heartRateSampleCount == 1 && saved?.record.totalEnergyKcal == 9.5)
        #expect(saved?.samples.map(\.id) == ["w1.0000", "w1.0001"])
    }

    @Test func pausePersistsAcrossACrash() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        _ = m.pause(at: 100_000)
        let (r, _) = crashAndRecover(m, savedAt: 100_000, recoverAt: 400_000)
        #expect(r.session?.state == .paused)
        #expect(r.screen(at: 400_000)?.elapsedMs == 100_000, "dead time while paused stays paused")
        var after = r
        #expect(after.resume(at: 400_000).refusal == nil)
        #expect(after.screen(at: 460_000)?.elapsedMs == 160_000)
    }

    @Test func preparedSessionIsRecoveredPrepared() {
        var m = WorkoutManager()
        _ = m.prepare(workoutID: "w1", configuration: WorkoutConfiguration(activity: .walking, location: .indoor), at: 0)
        let (r, effects) = crashAndRecover(m, savedAt: 0, recoverAt: 10_000)
        #expect(effects.first == .recovered(workoutID: "w1", state: .prepared))
        #expect(r.session == m.session && r.builder == m.builder && !r.mirror.isMirroring)
    }

    @Test func snapshotStaysCompact() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        for i in 1...1_000 { _ = m.addHeartRate(bpm: 100 + Double(i % 60), at: EpochMs(i) * 5_000) }
        let bytes = m.snapshot(at: 5_000_000)?.encode().count ?? .max
        // 1,000 samples: 1 kind byte + ~3 delta bytes + 2 duration bytes + 9 value bytes each.
        #expect(bytes < 16_000, "snapshot of 1,000 samples is \(bytes) bytes")
    }

    @Test func recoveryRefusesWhenASessionIsActive() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        guard let snap = m.snapshot(at: 1_000) else {
            Issue.record("no snapshot")
            return
        }
        #expect(m.recover(from: snap, at: 2_000).refusal == .sessionAlreadyActive(workoutID: "w1"))
    }

    @Test func corruptSnapshotsAreRefused() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        _ = m.addHeartRate(bpm: 120, at: 1_000)
        guard var snap = m.snapshot(at: 2_000), case .dictionary(var d) = snap.plistValue() else {
            Issue.record("no snapshot")
            return
        }
        snap.heartRateSumBpm = 121
        var fresh = WorkoutManager()
        let effects = fresh.recover(from: snap, at: 3_000)
        #expect(effects.refusal == .snapshotUnusable(WorkoutSnapshotError("running totals do not match the samples")))
        #expect(effects.logLines.first?.contains("running totals do not match") == true)
        #expect(fresh.session == nil)
        d["v"] = 2
        guard case .failure(let e) = WorkoutSnapshot.decode(.dictionary(d)) else {
            Issue.record("version 2 decoded")
            return
        }
        #expect(e.description == "workout snapshot: unsupported version 2")
        #expect((try? WorkoutSnapshot.decode([0x09, 0x01]).get()) == nil, "truncated bytes")
    }

    /// Random workouts, crashed and recovered after every call: the recovered manager equals
    /// the uninterrupted one (session and builder), so the saved workout is identical.
    @Test(arguments: [UInt64(1), 42, 0xC0FFEE])
    func recoveryAfterAnyCallMatchesAnUninterruptedRun(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var live = WorkoutManager()
        var now: EpochMs = 0
        _ = live.start(workoutID: "w\(seed)", configuration: runOutdoor, at: now)
        for step in 0..<200 {
            now += EpochMs(rng.next(in: 1...20_000))
            switch rng.next(in: 0...9) {
            case 0: _ = live.pause(at: now)
            case 1: _ = live.resume(at: now)
            case 2 where step > 150: _ = live.stop(at: now)
            case 3...6: _ = live.addHeartRate(bpm: Double(rng.next(in: -20...300)), at: now)
            default: _ = live.addActiveEnergy(kcal: Double(rng.next(in: -5...40)) / 4, fromMs: now - 1_000, toMs: now)
            }
            let (recovered, _) = crashAndRecover(live, savedAt: now, recoverAt: now + 5_000)
            #expect(recovered.session == live.session, "seed \(seed) step \(step): session differs after recovery")
            #expect(recovered.builder == live.builder, "seed \(seed) step \(step): builder differs after recovery")
            if recovered.builder != live.builder { return }
        }
    }
}
