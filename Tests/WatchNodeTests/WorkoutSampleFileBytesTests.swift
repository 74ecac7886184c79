import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// The sample file written straight from the samples is exactly `WorkoutSampleFile.encode()`.
@Suite struct WorkoutSampleFileBytesTests {
    @Test func aFinishedWorkoutsFile() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "wörk-1", configuration: runOutdoor, at: 1_000)
        for i in 1...3_700 {
            _ = m.addHeartRate(bpm: 60 + Double(i % 130) * 0.5, at: 1_000 + EpochMs(i) * 1_000)
            if i % 60 == 0 { _ = m.addActiveEnergy(kcal: Double(i) / 7, fromMs: EpochMs(i) * 1_000 - 59_000, toMs: EpochMs(i) * 1_000) }
            if i == 100 { _ = m.pause(at: 101_500) }
            if i == 130 { _ = m.resume(at: 131_500) }
        }
        let effects = m.end(at: 5_000_000)
        guard let saved = effects.savedWorkout else {
            Issue.record("no saved workout")
            return
        }
        let file = WorkoutSampleFile(saved)
        #expect(file.samples.count > 3_000)
        #expect(WorkoutSampleFileBytes.encode(file) == file.encode())
    }

    @Test func oddFiles() {
        let record = WorkoutRecord(
            id: "w", activity: .cycling, location: .indoor, state: .ended, startMs: 1 << 42, endMs: nil, events: [],
            totalEnergyKcal: 0, elapsedMs: 0, heartRateAverage: nil, heartRateMin: nil, heartRateMax: nil, heartRateSampleCount: 0)
        let samples = [
            HealthSample(id: "w.0000", kind: .steps, source: .watch, startMs: -5, endMs: 1 << 50, value: .nan),
            HealthSample(id: "w.0001", kind: .activeEnergy, source: .watch, startMs: 1 << 42, endMs: 1 << 42, value: -0.0),
            HealthSample(id: "w.0002", kind: .sleep(.awake), source: .phone, startMs: 7, endMs: 9, value: .infinity),
        ]
        for file in [WorkoutSampleFile(record: record, samples: []), WorkoutSampleFile(record: record, samples: samples)] {
            #expect(WorkoutSampleFileBytes.encode(file) == file.encode())
        }
    }
}
