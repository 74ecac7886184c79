import PeerLinkCore
import FitnessDomain

/// Property-list layout of `WorkoutSnapshot` (version 1), a dictionary:
///
/// | key | value |
/// |-----|-------|
/// | `v` | int 1 |
/// | `savedAt`, `start`?, `stop`?, `collStart`?, `collEnd`? | int ms |
/// | `id`, `activity`, `location`, `state` | string |
/// | `eventKinds` | data, one byte per event: 0 pause, 1 resume |
/// | `eventTimes` | array of int: each event's time minus the previous one's (the first: minus `collStart`) |
/// | `sampleKinds` | data, one byte per sample: 0 heart rate, 1 active energy |
/// | `sampleStarts` | array of int: each start minus the previous sample's start (the first: minus `collStart`) |
/// | `sampleDurations` | array of int: end minus start |
/// | `sampleValues` | array of double |
/// | `hrCount` int, `hrSum` double, `energy` double | running totals |
extension WorkoutSnapshot {
    static let heartRateCode: UInt8 = 0
    static let energyCode: UInt8 = 1

    /// The stored code of a sample's kind.
    static func kindCode(_ s: Sample) -> UInt8 { s.kind == .heartRate ? heartRateCode : energyCode }

    // MARK: - Encoding

    /// The snapshot as a property-list dictionary.
    public func plistValue() -> PlistValue {
        let base = collectionStartMs ?? 0
        var d: [String: PlistValue] = [
            "v": .int(Self.formatVersion), "savedAt": .int(savedAtMs), "id": .string(workoutID),
            "activity": .string(configuration.activity.rawValue), "location": .string(configuration.location.rawValue),
            "state": .string(state.rawValue),
            "eventKinds": .data(events.map { $0.kind == .pause ? 0 : 1 }),
            "eventTimes": .array(Self.deltas(events.map(\.atMs), from: base).map { .int($0) }),
            "sampleKinds": .data(samples.map(Self.kindCode)),
            "sampleStarts": .array(Self.deltas(samples.map(\.startMs), from: base).map { .int($0) }),
            "sampleDurations": .array(samples.map { .int($0.endMs - $0.startMs) }),
            "sampleValues": .array(samples.map { .double($0.value) }),
            "hrCount": .int(Int64(heartRateCount)), "hrSum": .double(heartRateSumBpm), "energy": .double(energyKcal),
        ]
        if let startMs { d["start"] = .int(startMs) }
        if let stopMs { d["stop"] = .int(stopMs) }
        if let collectionStartMs { d["collStart"] = .int(collectionStartMs) }
        if let collectionEndMs { d["collEnd"] = .int(collectionEndMs) }
        return .dictionary(d)
    }

    /// The snapshot's canonical bytes, as the shell stores them.
    public func encode() -> [UInt8] { CanonicalEncoding.encode(plistValue()) }

    // MARK: - Decoding

    /// Decodes canonical bytes written by `encode()`.
    public static func decode(_ bytes: [UInt8]) -> Result<WorkoutSnapshot, WorkoutSnapshotError> {
        do {
            return decode(try CanonicalEncoding.decode(bytes))
        } catch {
            return .failure(.init("undecodable bytes: \(error)"))
        }
    }

    /// Decodes a property-list value written by `plistValue()`; refuses another version,
    /// a missing or mistyped key, or columns of different lengths.
    public static func decode(_ value: PlistValue) -> Result<WorkoutSnapshot, WorkoutSnapshotError> {
        guard let d = value.dictionaryValue else { return .failure(.init("not a dictionary")) }
        guard let v = d["v"]?.intValue, v == formatVersion else {
            return .failure(.init("unsupported version \(d["v"]?.intValue.map { String($0) } ?? "none")"))
        }
        guard let savedAt = d["savedAt"]?.intValue, let id = d["id"]?.stringValue,
              let activity = d["activity"]?.stringValue.flatMap(WorkoutActivityType.init(rawValue:)),
              let location = d["location"]?.stringValue.flatMap(WorkoutLocation.init(rawValue:)),
              let state = d["state"]?.stringValue.flatMap(WorkoutSessionState.init(rawValue:)),
              let eventKinds = d["eventKinds"]?.dataValue, let eventTimes = d["eventTimes"]?.int64ArrayValue,
              let sampleKinds = d["sampleKinds"]?.dataValue, let sampleStarts = d["sampleStarts"]?.int64ArrayValue,
              let durations = d["sampleDurations"]?.int64ArrayValue, let values = d["sampleValues"]?.doubleArrayValue,
              let hrCount = d["hrCount"]?.intValue, let hrSum = d["hrSum"]?.doubleValue,
              let energy = d["energy"]?.doubleValue
        else { return .failure(.init("missing or mistyped key")) }
        guard eventKinds.count == eventTimes.count else { return .failure(.init("event columns differ in length")) }
        guard sampleKinds.count == sampleStarts.count, sampleKinds.count == durations.count,
              sampleKinds.count == values.count
        else { return .failure(.init("sample columns differ in length")) }
        guard sampleKinds.count <= SampleLimits.maxSamplesPerWorkout else { return .failure(.init("too many samples")) }

        let base = d["collStart"]?.intValue ?? 0
        var events: [WorkoutEvent] = []
        for (k, t) in zip(eventKinds, undeltas(eventTimes, from: base)) {
            guard k <= 1 else { return .failure(.init("unknown event kind \(k)")) }
            events.append(WorkoutEvent(kind: k == 0 ? .pause : .resume, atMs: t))
        }
        var samples: [Sample] = []
        samples.reserveCapacity(sampleKinds.count)
        for (i, start) in undeltas(sampleStarts, from: base).enumerated() {
            let k = sampleKinds[i]
            guard k == heartRateCode || k == energyCode else { return .failure(.init("unknown sample kind \(k)")) }
            let (end, overflow) = start.addingReportingOverflow(durations[i])
            guard !overflow else { return .failure(.init("sample \(i) duration overflows")) }
            samples.append(Sample(kind: k == heartRateCode ? .heartRate : .activeEnergy, startMs: start, endMs: end, value: values[i]))
        }
        let snap = WorkoutSnapshot(
            savedAtMs: savedAt, workoutID: id, configuration: WorkoutConfiguration(activity: activity, location: location),
            state: state, startMs: d["start"]?.intValue, stopMs: d["stop"]?.intValue, events: events,
            collectionStartMs: d["collStart"]?.intValue, collectionEndMs: d["collEnd"]?.intValue, samples: samples,
            heartRateCount: Int(clamping: hrCount), heartRateSumBpm: hrSum, energyKcal: energy)
        return .success(snap)
    }

    // MARK: - Columns

    static func deltas(_ times: [EpochMs], from base: EpochMs) -> [Int64] {
        var previous = base
        return times.map { t in
            defer { previous = t }
            return t &- previous
        }
    }

    static func undeltas(_ deltas: [Int64], from base: EpochMs) -> [EpochMs] {
        var previous = base
        return deltas.map { d in
            previous = previous &+ d
            return previous
        }
    }
}
