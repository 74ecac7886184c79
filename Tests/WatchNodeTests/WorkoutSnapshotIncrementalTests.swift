import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// The head and chunk bytes the app writes incrementally (`WorkoutSnapshotEncoder`) are exactly
/// the bytes encoded from scratch (`headBytes`, `chunkBytes`), which are the canonical encoding
/// of the values (`WorkoutSnapshotStoreBytesTests`), through pauses, energy, chunk boundaries,
/// a stop, another workout and odd values.
@Suite struct WorkoutSnapshotIncrementalTests {
    /// Checks what `persistWorkout` writes for the manager's session at `now` against the
    /// writes `snapshotWrites` gives, for every chunk the encoder is asked for.
    func expectSame(_ m: WorkoutManager, _ encoder: inout WorkoutSnapshotEncoder, at now: EpochMs, persisted: Int) {
        guard let session = m.session, let builder = m.builder,
              let reference = m.snapshotWrites(at: now, persistedSampleCount: persisted)
        else {
            Issue.record("no session")
            return
        }
        #expect(reference.writes[0].key == WorkoutSnapshotStore.headKey)
        #expect(encoder.headBytes(session: session, builder: builder, at: now) == reference.writes[0].encoded)
        let size = WorkoutSnapshotStore.samplesPerChunk
        for w in reference.writes.dropFirst() {
            let index = Int(w.key.dropFirst(WorkoutSnapshotStore.chunkKeyPrefix.count))!
            let range = (index * size)..<min(builder.samples.count, index * size + size)
            let bytes = encoder.chunkBytes(workoutID: session.id, index: index, samples: builder.samples, range: range)
            #expect(encoder.chunkKey == w.key)
            #expect(bytes == w.encoded, "\(w.key)")
        }
    }

    @Test func sampleBySampleThroughPausesEnergyChunksAndAStop() {
        var m = WorkoutManager()
        var encoder = WorkoutSnapshotEncoder()
        _ = m.start(workoutID: "wörk-ü", configuration: runOutdoor, at: 1_000)
        expectSame(m, &encoder, at: 1_000, persisted: 0)
        var persisted = 0
        for i in 1...(3 * WorkoutSnapshotStore.samplesPerChunk + 5) {
            _ = m.addHeartRate(bpm: 100 + Double(i) * 0.37, at: 1_000 + EpochMs(i) * 1_000)
            if i % 5 == 0 { _ = m.addActiveEnergy(kcal: 0.125 * Double(i), fromMs: EpochMs(i) * 1_000, toMs: EpochMs(i) * 1_000 + 999) }
            if i == 10 { _ = m.pause(at: 11_500) }
            if i == 12 { _ = m.resume(at: 13_200) }
            if i == 40 { _ = m.pause(at: 41_100) }
            if i == 41 { _ = m.resume(at: 41_900) }
            // Mostly the last sample only; sometimes several chunks again (a recovered store).
            let from = i % 17 == 0 ? 0 : persisted
            expectSame(m, &encoder, at: 2_000 + EpochMs(i) * 1_000 + EpochMs(i % 3), persisted: from)
            persisted = m.builder!.samples.count
        }
        _ = m.stop(at: 200_000)
        expectSame(m, &encoder, at: 200_001, persisted: persisted)
    }

    @Test func anotherWorkoutStartsAfresh() {
        var encoder = WorkoutSnapshotEncoder()
        for id in ["a", "b", "a"] {
            var m = WorkoutManager()
            _ = m.start(workoutID: id, configuration: runOutdoor, at: 5_000)
            for i in 1...(WorkoutSnapshotStore.samplesPerChunk / 2) {
                _ = m.addHeartRate(bpm: id == "a" ? 90 : 150, at: 5_000 + EpochMs(i) * (id == "b" ? 700 : 1_000))
                expectSame(m, &encoder, at: 5_000 + EpochMs(i) * 1_000, persisted: i - 1)
            }
        }
    }

    @Test func oddValuesAndTimes() {
        var m = WorkoutManager()
        var encoder = WorkoutSnapshotEncoder()
        _ = m.start(workoutID: "odd", configuration: runOutdoor, at: (1 << 41) + 3)
        var persisted = 0
        for (i, kcal) in [0.0, 1e-300, 123_456.789, 0.1, 5e5].enumerated() {
            let t = (1 << 41) + 3 + EpochMs(i) * 86_400_000
            _ = m.addActiveEnergy(kcal: kcal, fromMs: t, toMs: t + 3_600_000)
            _ = m.addHeartRate(bpm: 1e-3 + Double(i) * 60, at: t + 1)
            expectSame(m, &encoder, at: t + 1 + (1 << 50), persisted: persisted)
            persisted = m.builder!.samples.count
        }
        let canonicalPieces: [(Int64, [UInt8])] = ([0, -1, 63, -64, 64, 8191, 1 << 40, .max, .min] as [Int64]).map { i in
            var a: [UInt8] = []
            CanonicalBytes.appendInt(i, to: &a)
            return (i, a)
        }
        for (i, a) in canonicalPieces {
            #expect(a == CanonicalEncoding.encode(.int(i)))
            #expect(a.count == CanonicalBytes.intSize(i))
        }
        for d in [0.0, -0.0, .nan, -.nan, .infinity, 1.5] {
            var a: [UInt8] = []
            CanonicalBytes.appendDouble(d, to: &a)
            #expect(a == CanonicalEncoding.encode(.double(d)))
        }
    }
}
