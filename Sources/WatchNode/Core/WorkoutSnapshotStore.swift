import PeerLinkCore
import FitnessDomain

/// Keeps a `WorkoutSnapshot` in an app's durable key-value values (`NodeContext.setLocal`) as
/// a **head** and fixed-size **sample chunks**, so that persisting after every sample rewrites
/// the small head and the last chunk only, not the whole series (a 3-hour ride with heart rate
/// every 5 s holds 2,160 samples; rewriting all of them per sample would be quadratic).
///
/// Layout (all values property lists):
/// - `workout.snapshot`: `WorkoutSnapshot.plistValue()` with empty sample columns (the
///   running totals still cover every sample) plus `sampleCount`;
/// - `workout.samples.<i>`: samples `i·samplesPerChunk ..< (i+1)·samplesPerChunk` as columns:
///   `kinds` (data, 0 heart rate, 1 active energy), `starts` (int: the first absolute, then
///   deltas), `durations` (int), `values` (double).
///
/// Reassembly (`load`) checks the sample count and every chunk's shape; the snapshot's own
/// `restore()` then checks the running totals against the samples, which catches a missing or
/// stale chunk.
public enum WorkoutSnapshotStore {
    /// The head's key.
    public static let headKey = "workout.snapshot"
    /// Sample chunks are `chunkKeyPrefix` + index.
    public static let chunkKeyPrefix = "workout.samples."
    /// Where an unusable snapshot is moved (never overwritten by the next workout's).
    public static let quarantineKey = "workout.snapshot.unusable"
    /// Samples per chunk written (small, so the chunk rewritten after each sample is small;
    /// the head records it as `chunkSize`).
    public static let samplesPerChunk = 32
    /// The chunk size of a head without `chunkSize` (stores written before it was recorded).
    static let legacySamplesPerChunk = 256

    /// One durable write: set `key` to its canonical bytes `encoded` (written straight from the
    /// fields: `headBytes`, `chunkBytes`), or to `value`; remove it when both are nil. `value`
    /// comes beside `encoded` only when asked for (`writes(for:)`: tests and tools).
    public typealias Write = (key: String, value: PlistValue?, encoded: [UInt8]?)

    // MARK: - Writing

    /// The writes that bring the stored copy up to `snapshot`, given that the first
    /// `persistedSampleCount` samples are already stored (samples never change once kept).
    public static func writes(for snapshot: WorkoutSnapshot, persistedSampleCount: Int) -> [Write] {
        var head = snapshot
        head.samples = []
        return writes(head: head, sampleCount: snapshot.samples.count, persistedSampleCount: persistedSampleCount, withValues: true) {
            Array(snapshot.samples[$0])
        }
    }

    /// The writes for a snapshot given as its head (`samples` empty) and its `sampleCount`
    /// samples, of which `samples(range)` returns the ones in `range` (only the rewritten
    /// chunks are asked for).
    /// (Building the values too costs as much as the bytes; the node stores only the bytes.)
    static func writes(head: WorkoutSnapshot, sampleCount count: Int, persistedSampleCount: Int, withValues: Bool = false,
                       samples: (Range<Int>) -> [WorkoutSnapshot.Sample]) -> [Write] {
        var headValue: PlistValue? = nil
        if withValues {
            guard case .dictionary(var d) = head.plistValue() else { preconditionFailure("a snapshot encodes as a dictionary") }
            d["sampleCount"] = .int(Int64(count))
            d["chunkSize"] = .int(Int64(samplesPerChunk))
            headValue = .dictionary(d)
        }
        var out: [Write] = [(headKey, headValue, headBytes(head, sampleCount: count))]
        guard count > persistedSampleCount else { return out }
        let first = max(0, persistedSampleCount) / samplesPerChunk
        let last = (count - 1) / samplesPerChunk
        for i in first...last {
            let lower = i * samplesPerChunk
            let upper = min(count, lower + samplesPerChunk)
            let chunk = samples(lower..<upper)[...]
            out.append((chunkKey(i), withValues ? encodeChunk(chunk) : nil, chunkBytes(chunk)))
        }
        return out
    }

    /// The writes that remove a stored snapshot of `sampleCount` samples.
    /// (Removing by the smallest chunk size also removes every chunk of a larger one.)
    public static func removals(sampleCount: Int) -> [Write] {
        let chunks = sampleCount == 0 ? 0 : (sampleCount - 1) / samplesPerChunk + 1
        return [(headKey, nil, nil)] + (0..<chunks).map { (chunkKey($0), nil, nil) }
    }

    /// True when the stored head was written with today's chunk size (a head from before
    /// `chunkSize` was recorded was not): only then can its chunks be extended in place.
    public static func hasCurrentLayout(_ local: [String: PlistValue]) -> Bool {
        local[headKey]?["chunkSize"]?.intValue == Int64(samplesPerChunk)
    }

    /// The key of chunk `index`.
    public static func chunkKey(_ index: Int) -> String { chunkKeyPrefix + String(index) }

    // MARK: - Reading

    /// The stored snapshot, nil when there is none, or why the stored values do not make one.
    public static func load(from local: [String: PlistValue]) -> Result<WorkoutSnapshot, WorkoutSnapshotError>? {
        guard let headValue = local[headKey] else { return nil }
        guard let count = headValue["sampleCount"]?.intValue, count >= 0, count <= SampleLimits.maxSamplesPerWorkout else {
            return .failure(.init("head has no valid sampleCount"))
        }
        var snapshot: WorkoutSnapshot
        switch WorkoutSnapshot.decode(headValue) {
        case .failure(let e): return .failure(e)
        case .success(let s): snapshot = s
        }
        guard snapshot.samples.isEmpty else { return .failure(.init("head holds samples")) }
        let chunkSize = headValue["chunkSize"].map { $0.intValue.map(Int.init) ?? 0 } ?? legacySamplesPerChunk
        guard chunkSize >= 1, chunkSize <= legacySamplesPerChunk else { return .failure(.init("head has no valid chunkSize")) }
        var samples: [WorkoutSnapshot.Sample] = []
        samples.reserveCapacity(Int(count))
        var index = 0
        while samples.count < Int(count) {
            guard let chunk = local[chunkKey(index)] else { return .failure(.init("sample chunk \(index) is missing")) }
            guard let part = decodeChunk(chunk, maxCount: chunkSize) else { return .failure(.init("sample chunk \(index) does not decode")) }
            let expected = min(chunkSize, Int(count) - samples.count)
            guard part.count == expected else {
                return .failure(.init("sample chunk \(index) holds \(part.count) samples, expected \(expected)"))
            }
            samples += part
            index += 1
        }
        snapshot.samples = samples
        return .success(snapshot)
    }

    // MARK: - Chunks

    static func encodeChunk(_ samples: ArraySlice<WorkoutSnapshot.Sample>) -> PlistValue {
        var previous: EpochMs = 0
        var starts: [PlistValue] = []
        starts.reserveCapacity(samples.count)
        for s in samples {
            starts.append(.int(s.startMs &- previous))
            previous = s.startMs
        }
        return [
            "kinds": .data(samples.map(WorkoutSnapshot.kindCode)),
            "starts": .array(starts),
            "durations": .array(samples.map { .int($0.endMs - $0.startMs) }),
            "values": .array(samples.map { .double($0.value) }),
        ]
    }

    static func decodeChunk(_ value: PlistValue, maxCount: Int) -> [WorkoutSnapshot.Sample]? {
        guard let kinds = value["kinds"]?.dataValue, let starts = value["starts"]?.int64ArrayValue,
              let durations = value["durations"]?.int64ArrayValue, let values = value["values"]?.doubleArrayValue,
              kinds.count == starts.count, kinds.count == durations.count, kinds.count == values.count,
              kinds.count <= maxCount
        else { return nil }
        var out: [WorkoutSnapshot.Sample] = []
        out.reserveCapacity(kinds.count)
        var previous: EpochMs = 0
        for i in kinds.indices {
            let kind: HealthSampleKind
            switch kinds[i] {
            case WorkoutSnapshot.heartRateCode: kind = .heartRate
            case WorkoutSnapshot.energyCode: kind = .activeEnergy
            default: return nil
            }
            let start = previous &+ starts[i]
            previous = start
            let (end, overflow) = start.addingReportingOverflow(durations[i])
            guard !overflow else { return nil }
            out.append(WorkoutSnapshot.Sample(kind: kind, startMs: start, endMs: end, value: values[i]))
        }
        return out
    }
}
