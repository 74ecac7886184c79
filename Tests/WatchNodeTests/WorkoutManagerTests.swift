import PeerLinkCore
import FitnessDomain
import CountdownDomain
import Testing

@testable import WatchNode

@Suite struct WorkoutManagerTests {
    @Test func startBeginsCollectionAndEndSavesTheWorkout() {
        var m = WorkoutManager()
        let started = m.start(workoutID: "w1", configuration: runOutdoor, at: 1_000)
        #expect(started.transitions.map(\.to) == [.running])
        #expect(m.builder?.collectionStartMs == 1_000)
        #expect(m.addHeartRate(bpm: 142, at: 2_000).count == 1)
        _ = m.addActiveEnergy(kcal: 87.3, fromMs: 1_000, toMs: 1_201_000)
        let ended = m.end(at: 1_201_000)
        #expect(ended.transitions.map(\.to) == [.ended])
        #expect(ended.contains(.mirroringStopped(workoutID: "w1")))
        let saved = ended.savedWorkout
        #expect(saved?.record.elapsedMs == 1_200_000)
        #expect(saved?.record.totalEnergyKcal == 87.3)
        #expect(saved?.samples.count == 2)
        #expect(m.session == nil && m.activeState == nil)
    }

    @Test func startingASecondSessionEndsTheFirstWithAnotherWorkoutSessionError() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 1_000)
        _ = m.addHeartRate(bpm: 120, at: 2_000)
        let effects = m.start(workoutID: "w2", configuration: WorkoutConfiguration(activity: .cycling, location: .indoor), at: 5_000)
        #expect(effects.first == .sessionFailed(workoutID: "w1", failure: .anotherWorkoutSession))
        #expect(effects.transitions.map { "\($0.workoutID):\($0.to)" } == ["w1:ended", "w2:running"])
        #expect(effects.savedWorkout?.record.id == "w1")
        #expect(effects.savedWorkout?.record.elapsedMs == 4_000)
        #expect(effects.contains(.mirroringStopped(workoutID: "w1")))
        #expect(effects.logLines.contains { $0.contains("HKErrorAnotherWorkoutSession") })
        #expect(m.session?.id == "w2" && m.session?.state == .running)
        #expect(m.mirror.isMirroring, "the new session mirrors")
    }

    @Test func preparedSessionStartsWithTheSameID() {
        var m = WorkoutManager()
        #expect(m.prepare(workoutID: "w1", configuration: runOutdoor, at: 0).transitions.map(\.to) == [.prepared])
        #expect(m.builder?.collectionStartMs == nil, "no data while prepared")
        let effects = m.start(workoutID: "w1", configuration: runOutdoor, at: 3_000)
        #expect(effects.transitions.map(\.from) == [.prepared])
        #expect(!effects.contains { if case .sessionFailed = $0 { true } else { false } })
    }

    @Test func illegalCallIsRefusedAndChangesNothing() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 1_000)
        _ = m.pause(at: 2_000)
        let before = m
        let effects = m.pause(at: 3_000)
        #expect(effects == [.refused(.session(.illegalTransition(call: .pause, state: .paused)))])
        #expect(effects.refusal?.description == "cannot pause: session is paused")
        #expect(m == before)
        #expect(m.resume(at: 9_000).refusal == nil)
    }

    @Test func workoutClockHoldsAtTheLatestRecordedTimeWhileTheWallClockIsBehind() {
        var m = WorkoutManager()
        #expect(m.clockMs(at: 500) == 500, "no workout: the wall clock")
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 1_000)
        _ = m.addActiveEnergy(kcal: 3, fromMs: 1_000, toMs: 4_000)
        _ = m.pause(at: 3_000)
        #expect(m.latestRecordedMs == 4_000, "the latest sample end, after the pause")
        #expect(m.clockMs(at: 2_000) == 4_000)
        #expect(m.clockMs(at: 9_000) == 9_000)
        #expect(m.resume(at: m.clockMs(at: 2_000)).refusal == nil)
        #expect(m.end(at: m.clockMs(at: 2_500)).savedWorkout?.record.elapsedMs == 2_000)
    }

    @Test func endedWorkoutIDCannotBeStartedAgain() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 1_000)
        _ = m.end(at: 2_000)
        let effects = m.start(workoutID: "w1", configuration: runOutdoor, at: 3_000)
        #expect(effects.refusal == .session(.illegalTransition(call: .start, state: .ended)))
        #expect(m.session == nil)
    }

    @Test func callsWithoutASessionAreRefused() {
        var m = WorkoutManager()
        #expect(m.pause(at: 0).refusal == .noActiveSession(call: "pause"))
        #expect(m.addHeartRate(bpm: 100, at: 0).refusal == .noActiveSession(call: "add sample"))
        #expect(m.start(workoutID: "", configuration: runOutdoor, at: 0).refusal == .invalidWorkoutID(""))
    }

    @Test func stopTurnsSensorsOffAndEndStillSaves() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        _ = m.stop(at: 10_000)
        let late = m.addHeartRate(bpm: 120, at: 11_000)
        #expect(late.contains { if case .sampleRejected = $0 { true } else { false } })
        #expect(late.logLines.count == 1)
        let ended = m.end(at: 20_000)
        #expect(ended.savedWorkout?.record.elapsedMs == 10_000, "elapsed stops at the stop")
    }

    @Test func discardingAPreparedSessionSavesNothing() {
        var m = WorkoutManager()
        _ = m.prepare(workoutID: "w1", configuration: runOutdoor, at: 0)
        #expect(m.end(at: 1_000).refusal == .session(.illegalTransition(call: .end, state: .prepared)))
        let effects = m.discardPrepared()
        #expect(effects.transitions.map(\.to) == [.ended] && effects.savedWorkout == nil)
        #expect(m.session == nil)
    }

    // MARK: - Screen and mirroring

    @Test func workoutScreenUpdatesLive() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        #expect(m.screen(at: 0)?.text(.ja) == "ワークアウト記録 — ランニング（屋外）: 記録中\n心拍数: --\n消費カロリー: 0.0 kcal\n経過時間: 00:00\n[一時停止] [停止]")
        _ = m.addHeartRate(bpm: 142, at: 60_000)
        _ = m.addActiveEnergy(kcal: 87.3, fromMs: 0, toMs: 1_200_000)
        let screen = m.screen(at: 1_200_000)
        #expect(screen?.text(.en) == "Workout — Running (Outdoor): Running\nHeart rate: 142 bpm\nCalories: 87.3 kcal\nElapsed time: 20:00\n[Pause] [Stop]")
        let json = screen?.jsonValue()
        #expect(json?["heartRateBpm"] == .double(142) && json?["elapsedMs"] == .int(1_200_000))
        #expect(json?["energyKcal"] == .double(87.3) && json?["state"] == "running")
        _ = m.pause(at: 1_200_000)
        #expect(m.screen(at: 1_500_000)?.elapsedMs == 1_200_000)
        #expect(m.screen(at: 1_500_000)?.buttons == [.resume])
        #expect(m.screen(at: 1_500_000)?.text(.ja).hasSuffix("\n[再開]") == true, "no [停止] while stop is refused")
    }

    @Test func everyButtonOnAWorkoutScreenIsACallTheSessionAllows() {
        var m = WorkoutManager()
        _ = m.prepare(workoutID: "w1", configuration: runOutdoor, at: 0)
        var seen: Set<WorkoutSessionState> = []
        func check(_ at: EpochMs) {
            guard let screen = m.screen(at: at) else { return }
            seen.insert(screen.state)
            #expect(!screen.buttons.isEmpty, "a \(screen.state) workout offers a way on")
            for b in screen.buttons {
                #expect(WorkoutSession.legalStates(for: b.call).contains(screen.state), "\(b) offered while \(screen.state)")
            }
        }
        check(0)
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 1_000)
        check(1_000)
        _ = m.pause(at: 2_000)
        check(2_000)
        #expect(m.stop(at: 3_000).refusal != nil, "the session refuses stop while paused")
        _ = m.resume(at: 3_000)
        _ = m.stop(at: 4_000)
        check(4_000)
        #expect(m.screen(at: 4_000)?.buttons == [.end])
        #expect(seen == [.prepared, .running, .paused, .stopped])
    }

    @Test func mirrorTicksSendUntilTheWorkoutEnds() {
        var m = WorkoutManager()
        #expect(m.onMirrorTick(at: 0) == [.mirrorSkipped(.notMirroring)])
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        _ = m.addHeartRate(bpm: 130, at: 500)
        guard case .mirror(let payload, let bytes) = m.onMirrorTick(at: 1_000).first else {
            Issue.record("expected a mirror payload")
            return
        }
        #expect(bytes == CanonicalEncoding.encode(payload).count)
        #expect(payload["type"] == .string(MirrorPayload.type) && payload["heartRateBpm"] == .double(130))
        _ = m.end(at: 2_000)
        #expect(m.onMirrorTick(at: 3_000) == [.mirrorSkipped(.notMirroring)])
        #expect(!m.mirror.isMirroring)
    }
}
