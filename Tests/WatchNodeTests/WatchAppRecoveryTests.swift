import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// Crash recovery at the node level: the engine is rebuilt over the same `MemoryStore`, which
/// holds exactly what was committed (kill -9 loses everything else).
@Suite struct WatchAppRecoveryTests {
    @Test func runningWorkoutIsRecoveredWithItsSamplesAfterACrash() throws {
        let store = MemoryStore()
        var t = morning
        var watch = try makeWatchEngine(store: store, now: t)
        #expect(watch.run("workout start cycling", at: t).isOK)
        let id = try #require(watch.value("workout id", at: t)?.stringValue)
        for bpm in [110, 120, 130] {
            t += 5 * second
            #expect(watch.run("hr \(bpm)", at: t).isOK)
        }
        t += 10 * second
        #expect(watch.run("energy 4.5", at: t).isOK)
        #expect(watch.run("workout pause", at: t + 10 * second).isOK)
        t += 40 * second
        #expect(watch.run("workout resume", at: t).isOK)
        t += 20 * second
        #expect(watch.run("hr 140", at: t).isOK)
        // Crash: the process dies; it is restarted 2 minutes later over the same store.
        let crashAt = t
        t += 120 * second
        watch = try makeWatchEngine(store: store, now: t, incarnation: 101)
        #expect(watch.value("workout id", at: t)?.stringValue == id)
        #expect(watch.value("workout state", at: t)?.stringValue == "running")
        #expect(watch.value("workout activity", at: t)?.stringValue == "cycling")
        #expect(watch.value("workout samples", at: t)?.intValue == 5)
        #expect(watch.value("workout hr latest", at: t)?.doubleValue == 140)
        #expect(watch.value("workout energy", at: t)?.doubleValue == 4.5)
        // Elapsed: 15 s + 10 s + 10 s before the pause, 30 s paused, then running through the
        // crash: (crashAt − resume) + 120 s.
        let resumeAt = crashAt - 20 * second
        let expected = 35 * second + (t - resumeAt)
        #expect(watch.value("workout elapsed", at: t)?.intValue == expected)
        #expect(watch.run("hr 150", at: t + second).isOK)
        let end = watch.run("workout end", at: t + 2 * second)
        #expect(end.value["samples"]?.intValue == 6)
        #expect(watch.value("samples count", at: t + 2 * second)?.intValue == 6)
        #expect(watch.value("workouts last elapsed", at: t + 2 * second)?.intValue == expected + 2 * second)
        #expect(watch.ctx.local[WorkoutSnapshotStore.headKey] == nil, "the snapshot goes once the workout is saved")
    }

    @Test func pausedWorkoutIsRecoveredPausedAndDeadTimeStaysPaused() throws {
        let store = MemoryStore()
        var watch = try makeWatchEngine(store: store, now: morning)
        watch.run("workout start", at: morning)
        watch.run("hr 100", at: morning + 30 * second)
        #expect(watch.run("workout pause", at: morning + 60 * second).isOK)
        let restart = morning + 600 * second
        watch = try makeWatchEngine(store: store, now: restart, incarnation: 101)
        #expect(watch.value("workout state", at: restart)?.stringValue == "paused")
        #expect(watch.value("workout elapsed", at: restart)?.intValue == 60 * second)
        #expect(watch.value("workout samples", at: restart)?.intValue == 1)
        #expect(watch.run("workout resume", at: restart).isOK)
        #expect(watch.value("workout elapsed", at: restart + 15 * second)?.intValue == 75 * second)
        #expect(watch.value("app running", at: restart) == .bool(true), "a recovered workout keeps the app alive")
    }

    @Test func everyCommittedSampleSurvivesAcrossChunkBoundaries() throws {
        let store = MemoryStore()
        var watch = try makeWatchEngine(store: store, now: morning)
        watch.run("workout start", at: morning)
        let n = WorkoutSnapshotStore.samplesPerChunk * 2 + 3
        var rng = SplitMix64(seed: 0x5EED)
        var bpms: [Double] = []
        for i in 1...n {
            let bpm = Double(rng.next(in: 60...190))
            bpms.append(bpm)
            #expect(watch.run("hr \(Int(bpm))", at: morning + EpochMs(i) * second).isOK, "seed 0x5EED, sample \(i)")
        }
        let restart = morning + EpochMs(n + 60) * second
        watch = try makeWatchEngine(store: store, now: restart, incarnation: 101)
        #expect(watch.app.manager.builder?.samples.map(\.value) == bpms, "seed 0x5EED")
        #expect(watch.app.manager.builder?.heartRate.sum == bpms.reduce(0, +), "seed 0x5EED")
    }

    @Test func snapshotWritesOnlyTheLastChunk() {
        let size = WorkoutSnapshotStore.samplesPerChunk
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        for i in 1...(size + 10) { _ = m.addHeartRate(bpm: 120, at: EpochMs(i) * 1000) }
        let snapshot = m.snapshot(at: EpochMs(size + 11) * 1000)!
        let all = WorkoutSnapshotStore.writes(for: snapshot, persistedSampleCount: 0)
        #expect(all.map(\.key) == [WorkoutSnapshotStore.headKey, "workout.samples.0", "workout.samples.1"])
        let incremental = WorkoutSnapshotStore.writes(for: snapshot, persistedSampleCount: size + 9)
        #expect(incremental.map(\.key) == [WorkoutSnapshotStore.headKey, "workout.samples.1"])
        var local: [String: PlistValue] = [:]
        for w in all { local[w.key] = w.value }
        guard case .success(let loaded)? = WorkoutSnapshotStore.load(from: local) else {
            Issue.record("snapshot did not load")
            return
        }
        #expect(loaded == snapshot)
        local["workout.samples.1"] = nil
        guard case .failure(let e)? = WorkoutSnapshotStore.load(from: local) else {
            Issue.record("a missing chunk must be refused")
            return
        }
        #expect(e.reason.contains("chunk 1 is missing"))
    }

    @Test func aSnapshotStoredWithTheOldChunkSizeStillLoads() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        for i in 1...300 { _ = m.addHeartRate(bpm: 100 + Double(i % 50), at: EpochMs(i) * 1000) }
        let snapshot = m.snapshot(at: 301_000)!
        // The layout before heads recorded `chunkSize`: 256 samples per chunk.
        var head = WorkoutSnapshotStore.writes(for: snapshot, persistedSampleCount: 0)[0].value!.dictionaryValue!
        head["chunkSize"] = nil
        var local: [String: PlistValue] = [WorkoutSnapshotStore.headKey: .dictionary(head)]
        local["workout.samples.0"] = WorkoutSnapshotStore.encodeChunk(snapshot.samples[0..<256])
        local["workout.samples.1"] = WorkoutSnapshotStore.encodeChunk(snapshot.samples[256..<300])
        guard case .success(let loaded)? = WorkoutSnapshotStore.load(from: local) else {
            Issue.record("a legacy snapshot did not load")
            return
        }
        #expect(loaded == snapshot)
        // Removing it by today's chunk size removes every legacy chunk too.
        let removed = Set(WorkoutSnapshotStore.removals(sampleCount: 300).map(\.key))
        #expect(removed.isSuperset(of: local.keys))
    }

    @Test func aWorkoutStoredWithTheOldChunkSizeKeepsGoingAcrossTwoRestarts() throws {
        let store = MemoryStore()
        var watch = try makeWatchEngine(store: store, now: morning)
        watch.run("workout start", at: morning)
        var bpms: [Double] = []
        for i in 1...300 {
            bpms.append(Double(100 + i % 60))
            watch.run("hr \(100 + i % 60)", at: morning + EpochMs(i) * second)
        }
        // Rewrite the stored snapshot in the layout before heads recorded `chunkSize`.
        let snapshot = try #require(watch.app.manager.snapshot(at: morning + 300 * second))
        var head = try #require(watch.ctx.local[WorkoutSnapshotStore.headKey]?.dictionaryValue)
        head["chunkSize"] = nil
        var batch = WriteBatch()
        let table = StoreTable("app_local")
        func put(_ key: String, _ value: PlistValue) { batch.put(table, Array(key.utf8), CanonicalEncoding.encode(value)) }
        put(WorkoutSnapshotStore.headKey, .dictionary(head))
        put("workout.samples.0", WorkoutSnapshotStore.encodeChunk(snapshot.samples[0..<256]))
        put("workout.samples.1", WorkoutSnapshotStore.encodeChunk(snapshot.samples[256..<300]))
        for i in 2..<10 { batch.delete(table, Array("workout.samples.\(i)".utf8)) }
        try store.commit(batch)
        // Restart over the old layout, record one more sample, restart again.
        var t = morning + 400 * second
        watch = try makeWatchEngine(store: store, now: t, incarnation: 101)
        #expect(watch.app.manager.builder?.samples.count == 300)
        t += second
        #expect(watch.run("hr 150", at: t).isOK)
        bpms.append(150)
        watch = try makeWatchEngine(store: store, now: t + second, incarnation: 102)
        #expect(watch.value("workout state", at: t + second)?.stringValue != "none")
        #expect(watch.app.manager.builder?.samples.map(\.value) == bpms)
    }

    @Test func unusableSnapshotIsQuarantinedNotOverwritten() throws {
        let store = MemoryStore()
        var watch = try makeWatchEngine(store: store, now: morning)
        watch.run("workout start", at: morning)
        watch.run("hr 100", at: morning + second)
        // Damage the stored snapshot: its running totals no longer match its samples.
        var head = try #require(watch.ctx.local[WorkoutSnapshotStore.headKey]?.dictionaryValue)
        head["hrSum"] = .double(999)
        var batch = WriteBatch()
        batch.put(StoreTable("app_local"), Array(WorkoutSnapshotStore.headKey.utf8), CanonicalEncoding.encode(.dictionary(head)))
        try store.commit(batch)
        let restart = morning + 60 * second
        watch = try makeWatchEngine(store: store, now: restart, incarnation: 101)
        #expect(watch.value("workout state", at: restart)?.stringValue == "none")
        #expect(watch.value("errors last", at: restart)?.stringValue?.contains("not recovered") == true)
        let moved = try #require(watch.ctx.local[WorkoutSnapshotStore.quarantineKey])
        #expect(moved[WorkoutSnapshotStore.headKey]?["hrSum"] == .double(999))
        #expect(watch.ctx.local[WorkoutSnapshotStore.headKey] == nil)
        #expect(watch.run("workout start", at: restart).isOK, "a new workout can start")
        #expect(watch.ctx.local[WorkoutSnapshotStore.quarantineKey] != nil, "the quarantined copy is kept")
    }

    @Test func snapshotOfAnAlreadySavedWorkoutIsNotResumedAtLaunch() throws {
        let store = MemoryStore()
        var watch = try makeWatchEngine(store: store, now: morning)
        watch.run("workout start", at: morning)
        watch.run("hr 100", at: morning + second)
        let id = try #require(watch.value("workout id", at: morning + second)?.stringValue)
        // The store holds both the snapshot and the saved record of the same workout (as
        // after a rollback that lost the end's batch, once the resync wrote the record back).
        let saved = try #require(watch.app.manager.builder?.record(state: .ended, at: morning + 2 * second))
        watch.withContext(now: morning + 2 * second) { _ = $0.put(saved) }
        let restart = morning + 60 * second
        watch = try makeWatchEngine(store: store, now: restart, incarnation: 101)
        #expect(watch.value("workout state", at: restart)?.stringValue == "none")
        #expect(watch.ctx.local[WorkoutSnapshotStore.headKey] == nil, "the snapshot is removed")
        #expect(watch.value("workouts last id", at: restart)?.stringValue == id)
        #expect(watch.value("errors count", at: restart)?.intValue == 0, "not a quarantine")
    }

    @Test func workoutResumedByAStoreRollbackIsDroppedWhenItsSavedRecordComesBack() throws {
        let net = try makeWatchNetwork(seed: 21)
        net.onWatch("workout start running")
        for bpm in 121...132 {
            net.advance(by: 5 * second)
            net.onWatch("hr \(bpm)")
        }
        let beforeEnd = net.store(.watch).undoableCommits
        net.onWatch("workout end")
        let id = try #require(net.watchValue("workouts last id")?.stringValue)
        #expect(net.phone.ctx.replica.record(WorkoutRecord.self, id: id) != nil)
        #expect(net.phone.app.files.count == 1)
        // The watch's store loses every commit since the end: the saved workout is gone and
        // the running workout's snapshot is back.
        net.kill(.watch)
        net.rollBack(.watch, commits: net.store(.watch).undoableCommits - beforeEnd)
        try net.restart(.watch)
        #expect(net.watchValue("workout state")?.stringValue == "running", "resumed from the snapshot")
        #expect(net.watchValue("workouts")?.intValue == 0)
        // The handshake notices the rollback; the phone's resync brings the record back.
        #expect(net.runUntilQuiet())
        #expect(net.watchValue("workout state")?.stringValue == "none")
        #expect(net.watch.ctx.local[WorkoutSnapshotStore.headKey] == nil)
        #expect(net.watchValue("workouts")?.intValue == 1)
        #expect(net.watchValue("workouts last samples")?.intValue == 12)
        #expect(net.watchValue("app workoutKeepsAlive") == .bool(false))
        #expect(!net.command(.watch, "workout end").isOK, "nothing left to end")
        #expect(net.runUntilQuiet())
        #expect(net.phone.app.files.count == 1, "no second sample file")
        #expect(net.phone.ctx.replica.digestHex() == net.watch.ctx.replica.digestHex())
    }
}
