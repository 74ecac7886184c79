import PeerLinkCore

/// The canonical bytes of the head and of a sample chunk, written straight from the snapshot's
/// fields: both are stored after every sample, and walking, sorting and encoding the values
/// built for them cost more than building them (a sixth of the watch's time in a workout).
///
/// Each MUST equal `CanonicalEncoding.encode` of the value `writes(for:)` gives for the same key
/// (tested; `NodeContext.setLocal(_:encoded:)` checks in debug builds that they decode): the layout is the
/// one `WorkoutSnapshot.plistValue()` and `encodeChunk` define, with the keys in byte order.
extension WorkoutSnapshotStore {
    /// The head: `head.plistValue()` plus `sampleCount` and `chunkSize`.
    static func headBytes(_ head: WorkoutSnapshot, sampleCount: Int) -> [UInt8] {
        let w = CanonicalEncoding.DirectWriter(capacity: 320 + 32 * (head.samples.count + head.events.count))
        let optionals = [head.collectionEndMs, head.collectionStartMs, head.startMs, head.stopMs].reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        w.dictionaryHeader(count: 17 + optionals)
        func int(_ key: String, _ value: Int64?) {
            guard let value else { return }
            w.key(key); w.int(value)
        }
        func ints(_ key: String, _ values: [Int64]) {
            w.key(key); w.arrayHeader(count: values.count)
            for v in values { w.int(v) }
        }
        let base = head.collectionStartMs ?? 0
        let samples = head.samples
        w.key("activity"); w.string(head.configuration.activity.rawValue)
        int("chunkSize", Int64(samplesPerChunk))
        int("collEnd", head.collectionEndMs)
        int("collStart", head.collectionStartMs)
        w.key("energy"); w.double(head.energyKcal)
        w.key("eventKinds"); w.data(head.events.map { $0.kind == .pause ? 0 : 1 })
        ints("eventTimes", WorkoutSnapshot.deltas(head.events.map(\.atMs), from: base))
        int("hrCount", Int64(head.heartRateCount))
        w.key("hrSum"); w.double(head.heartRateSumBpm)
        w.key("id"); w.string(head.workoutID)
        w.key("location"); w.string(head.configuration.location.rawValue)
        int("sampleCount", Int64(sampleCount))
        ints("sampleDurations", samples.map { $0.endMs - $0.startMs })
        w.key("sampleKinds"); w.data(samples.map(WorkoutSnapshot.kindCode))
        ints("sampleStarts", WorkoutSnapshot.deltas(samples.map(\.startMs), from: base))
        w.key("sampleValues"); w.arrayHeader(count: samples.count)
        for s in samples { w.double(s.value) }
        int("savedAt", head.savedAtMs)
        int("start", head.startMs)
        w.key("state"); w.string(head.state.rawValue)
        int("stop", head.stopMs)
        int("v", WorkoutSnapshot.formatVersion)
        return w.finish()
    }

    /// A chunk: `encodeChunk(samples)`.
    static func chunkBytes(_ samples: ArraySlice<WorkoutSnapshot.Sample>) -> [UInt8] {
        let w = CanonicalEncoding.DirectWriter(capacity: 48 + 32 * samples.count)
        w.dictionaryHeader(count: 4)
        w.key("durations"); w.arrayHeader(count: samples.count)
        for s in samples { w.int(s.endMs - s.startMs) }
        w.key("kinds"); w.data(samples.map(WorkoutSnapshot.kindCode))
        w.key("starts"); w.arrayHeader(count: samples.count)
        var previous: EpochMs = 0
        for s in samples {
            w.int(s.startMs &- previous)
            previous = s.startMs
        }
        w.key("values"); w.arrayHeader(count: samples.count)
        for s in samples { w.double(s.value) }
        return w.finish()
    }
}
