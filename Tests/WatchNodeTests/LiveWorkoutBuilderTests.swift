import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

let runOutdoor = WorkoutConfiguration(activity: .running, location: .outdoor)

/// A builder that began collecting at t = 0.
func collectingBuilder(id: String = "w1") -> LiveWorkoutBuilder {
    var b = LiveWorkoutBuilder(workoutID: id, configuration: runOutdoor)
    _ = b.beginCollection(at: 0)
    return b
}

@Suite struct LiveWorkoutBuilderTests {
    // MARK: - Elapsed time

    @Test func elapsedIsZeroBeforeCollectionBegins() {
        let b = LiveWorkoutBuilder(workoutID: "w1", configuration: runOutdoor)
        #expect(b.elapsedMs(at: 1_000_000) == 0)
    }

    @Test func pausedTimeIsNotCountedInElapsed() {
        var b = collectingBuilder()
        // run 0–60 s, pause 60–90 s, run 90–150 s, pause 150–200 s, run 200–300 s.
        for (kind, at) in [(WorkoutEvent.Kind.pause, 60_000), (.resume, 90_000), (.pause, 150_000), (.resume, 200_000)] {
            let recorded = b.addEvent(WorkoutEvent(kind: kind, atMs: EpochMs(at)))
            #expect(recorded)
        }
        #expect(b.elapsedMs(at: 300_000) == 60_000 + 60_000 + 100_000)
        #expect(b.elapsedMs(at: 170_000) == 120_000, "inside the second pause")
        #expect(b.elapsedMs(at: 60_000) == 60_000)
        #expect(b.elapsedMs(at: 75_000) == 60_000)
        _ = b.endCollection(at: 300_000)
        #expect(b.elapsedMs(at: 999_000) == 220_000, "frozen after collection ends")
    }

    @Test func pauseWhilePausedAndResumeWhileRunningAreIgnored() {
        var b = collectingBuilder()
        let recorded = [
            b.addEvent(WorkoutEvent(kind: .resume, atMs: 10_000)),  // resume while running
            b.addEvent(WorkoutEvent(kind: .pause, atMs: 20_000)),
            b.addEvent(WorkoutEvent(kind: .pause, atMs: 30_000)),  // pause while paused
            b.addEvent(WorkoutEvent(kind: .resume, atMs: 40_000)),
        ]
        #expect(recorded == [false, true, false, true])
        #expect(b.events.count == 2)
        #expect(b.elapsedMs(at: 50_000) == 20_000 + 10_000)
    }

    // MARK: - Statistics

    @Test func heartRateStatisticsMatchHandComputedValues() {
        var b = collectingBuilder()
        // Added out of time order: most recent is by time, not by arrival.
        for (bpm, at) in [(120.0, 10_000), (150.0, 30_000), (138.0, 20_000), (142.0, 40_000), (95.5, 35_000)] {
            #expect((try? b.addHeartRate(bpm: bpm, atMs: EpochMs(at)).get()) != nil)
        }
        // mean = (120 + 150 + 138 + 142 + 95.5) / 5 = 645.5 / 5 = 129.1
        #expect(b.statistic(.average, of: .heartRate) == .success(129.1))
        #expect(b.statistic(.minimum, of: .heartRate) == .success(95.5))
        #expect(b.statistic(.maximum, of: .heartRate) == .success(150))
        #expect(b.statistic(.mostRecent, of: .heartRate) == .success(142))
        #expect(b.heartRate.count == 5)
    }

    @Test func activeEnergyIsACumulativeSum() {
        var b = collectingBuilder()
        _ = b.addActiveEnergy(kcal: 12.5, fromMs: 0, toMs: 60_000)
        _ = b.addActiveEnergy(kcal: 0, fromMs: 60_000, toMs: 120_000)
        _ = b.addActiveEnergy(kcal: 74.75, fromMs: 120_000, toMs: 180_000)
        #expect(b.sum(of: .activeEnergy) == .success(87.25))
        #expect(b.totalEnergyKcal == 87.25)
    }

    @Test func askingACumulativeTypeForAnAverageIsAnError() {
        var b = collectingBuilder()
        _ = b.addActiveEnergy(kcal: 10, fromMs: 0, toMs: 1_000)
        #expect(b.average(of: .activeEnergy) == .failure(.statisticNotDefined(statistic: .average, kind: "activeEnergy")))
        #expect(b.sum(of: .heartRate) == .failure(.statisticNotDefined(statistic: .sum, kind: "heartRate")))
        #expect(b.statistic(.mostRecent, of: .steps) == .failure(.unsupportedKind("steps")))
    }

    @Test func statisticsAreNilOrZeroBeforeTheFirstSample() {
        let b = collectingBuilder()
        #expect(b.average(of: .heartRate) == .success(nil))
        #expect(b.sum(of: .activeEnergy) == .success(0))
    }

    // MARK: - Rejections

    static let outOfBounds: [(HealthSampleKind, Double)] = [
        (.heartRate, 0), (.heartRate, -1), (.heartRate, 250.5), (.heartRate, 400), (.heartRate, .nan),
        (.heartRate, .infinity), (.activeEnergy, -0.1), (.activeEnergy, -.infinity),
    ]

    @Test(arguments: outOfBounds)
    func samplesOutsidePhysiologicalBoundsAreRejected(kind: HealthSampleKind, value: Double) {
        var b = collectingBuilder()
        let before = b
        let r = b.add(kind: kind, value: value, startMs: 1_000, endMs: kind == .heartRate ? 1_000 : 2_000)
        guard case .failure(let rejection) = r else {
            Issue.record("\(kind.name) \(value) was accepted")
            return
        }
        #expect(b == before, "a rejected sample changed the builder")
        #expect(rejection.logLine.hasPrefix("workout w1: rejected \(kind.name) sample at 1000: "))
    }

    @Test func boundaryValuesAreAccepted() {
        var b = collectingBuilder()
        #expect((try? b.addHeartRate(bpm: 250, atMs: 1_000).get()) != nil)
        #expect((try? b.addHeartRate(bpm: 0.5, atMs: 2_000).get()) != nil)
        #expect((try? b.addActiveEnergy(kcal: 0, fromMs: 0, toMs: 1_000).get()) != nil)
    }

    @Test func rejectionReasonsAreSpecific() {
        var b = LiveWorkoutBuilder(workoutID: "w1", configuration: runOutdoor)
        #expect(b.addHeartRate(bpm: 120, atMs: 5).failureReason == .collectionNotBegun)
        _ = b.beginCollection(at: 1_000)
        #expect(b.addHeartRate(bpm: 0, atMs: 2_000).failureReason == .heartRateOutOfRange(bpm: 0))
        #expect(b.addHeartRate(bpm: 120, atMs: 999).failureReason == .beforeCollection(collectionStartMs: 1_000))
        b.addEvent(WorkoutEvent(kind: .pause, atMs: 3_000))
        #expect(b.addHeartRate(bpm: 120, atMs: 3_500).failureReason == .duringPause)
        b.addEvent(WorkoutEvent(kind: .resume, atMs: 4_000))
        _ = b.endCollection(at: 5_000)
        #expect(b.addHeartRate(bpm: 120, atMs: 5_001).failureReason == .collectionEnded(collectionEndMs: 5_000))
        #expect(b.addActiveEnergy(kcal: 1, fromMs: 4_500, toMs: 4_000).failureReason == .endsBeforeStart(startMs: 4_500, endMs: 4_000))
        #expect(b.add(kind: .steps, value: 10, startMs: 4_000, endMs: 4_500).failureReason == .unsupportedKind("steps"))
        let line = b.addHeartRate(bpm: 300, atMs: 4_200).failureReason?.description
        #expect(line == "heart rate 300.0 bpm is outside 0 < bpm ≤ 250")
    }

    // MARK: - Finishing

    @Test func finishWorkoutSavesTotalsEventsAndDeterministicSamples() {
        func run() -> FinishedWorkout? {
            var b = collectingBuilder(id: "w7")
            _ = b.addHeartRate(bpm: 130, atMs: 1_000)
            _ = b.addActiveEnergy(kcal: 5, fromMs: 0, toMs: 2_000)
            b.addEvent(WorkoutEvent(kind: .pause, atMs: 3_000))
            b.addEvent(WorkoutEvent(kind: .resume, atMs: 8_000))
            _ = b.addHeartRate(bpm: 150, atMs: 9_000)
            #expect(b.finishWorkout() == .failure(.collectionNotEnded))
            _ = b.endCollection(at: 10_000)
            return try? b.finishWorkout().get()
        }
        guard let w = run() else {
            Issue.record("finishWorkout failed")
            return
        }
        #expect(w == run(), "replays are identical")
        #expect(w.record.state == .ended && w.record.startMs == 0 && w.record.endMs == 10_000)
        #expect(w.record.elapsedMs == 5_000)
        #expect(w.record.totalEnergyKcal == 5 && w.record.heartRateAverage == 140 && w.record.heartRateSampleCount == 2)
        #expect(w.record.heartRateMin == 130 && w.record.heartRateMax == 150)
        #expect(w.record.events.map(\.kind) == [.pause, .resume])
        #expect(w.samples.map(\.id) == ["w7.0000", "w7.0001", "w7.0002"])
        #expect(w.samples.allSatisfy { $0.source == .watch })
    }

    @Test func finishWorkoutWorksOnce() {
        var b = collectingBuilder()
        _ = b.endCollection(at: 1_000)
        #expect((try? b.finishWorkout().get()) != nil)
        #expect(b.finishWorkout() == .failure(.alreadyFinished))
    }
}

extension Result where Success == HealthSample, Failure == SampleRejection {
    /// The rejection reason, nil when accepted.
    var failureReason: SampleRejectionReason? {
        if case .failure(let r) = self { r.reason } else { nil }
    }
}
