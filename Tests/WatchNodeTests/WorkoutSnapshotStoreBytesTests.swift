import PeerLinkCore
import Testing

@testable import WatchNode

/// The head and chunk bytes written straight from the fields are exactly the canonical
/// encoding of the values stored beside them (the store keeps the bytes, the app the values).
@Suite struct WorkoutSnapshotStoreBytesTests {
    func expectBytesMatchValues(_ snapshot: WorkoutSnapshot, persisted: Int = 0) {
        for w in WorkoutSnapshotStore.writes(for: snapshot, persistedSampleCount: persisted) {
            guard let value = w.value, let bytes = w.encoded else {
                Issue.record("\(w.key) has no value or no bytes")
                continue
            }
            #expect(bytes == CanonicalEncoding.encode(value), "\(w.key)")
        }
    }

    @Test func aFreshWorkoutsHeadHasNoOptionalTimes() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        expectBytesMatchValues(m.snapshot(at: 1_000)!)
    }

    @Test func headAndChunksMatchThroughPausesEnergyAndTheEnd() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "wörk-ü", configuration: runOutdoor, at: 1_000)
        for i in 1...(WorkoutSnapshotStore.samplesPerChunk + 7) {
            _ = m.addHeartRate(bpm: 100 + Double(i) * 0.37, at: 1_000 + EpochMs(i) * 1_000)
            if i % 5 == 0 { _ = m.addActiveEnergy(kcal: 0.125 * Double(i), fromMs: EpochMs(i) * 1_000, toMs: EpochMs(i) * 1_000 + 999) }
            if i == 10 { _ = m.pause(at: 11_500) }
            if i == 12 { _ = m.resume(at: 13_200) }
            expectBytesMatchValues(m.snapshot(at: 2_000 + EpochMs(i) * 1_000)!, persisted: max(0, i - 3))
        }
        _ = m.stop(at: 90_000)
        if let s = m.snapshot(at: 90_001) { expectBytesMatchValues(s) }
        _ = m.end(at: 91_000)
        if let s = m.snapshot(at: 91_001) { expectBytesMatchValues(s) }
    }

    @Test func oddValuesEncodeAsTheGeneralEncoderDoes() {
        let samples: [WorkoutSnapshot.Sample] = [
            .init(kind: .heartRate, startMs: -5, endMs: 3, value: .nan),
            .init(kind: .activeEnergy, startMs: 1 << 40, endMs: (1 << 40) + 70_000, value: -0.0),
            .init(kind: .heartRate, startMs: 12, endMs: 12, value: .infinity),
        ]
        #expect(WorkoutSnapshotStore.chunkBytes(samples[...]) == CanonicalEncoding.encode(WorkoutSnapshotStore.encodeChunk(samples[...])))
        #expect(WorkoutSnapshotStore.chunkBytes([]) == CanonicalEncoding.encode(WorkoutSnapshotStore.encodeChunk([])))
    }
}
