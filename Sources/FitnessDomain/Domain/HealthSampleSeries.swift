import PeerLinkCore

/// A run of up to `maxSamples` consecutive samples of one saved workout, kept as one
/// replicated record, as HealthKit keeps a workout's heart rate in series samples
/// (`HKQuantitySeriesSampleBuilder`: one sample, many readings).
///
/// Readers expand a series into the `HealthSample`s it holds — the same ids
/// (`<workoutID>.0007`: `WorkoutSampleFile.sampleID`), kinds, times and values the watch's builder accepted — so queries,
/// statistics, exports and charts see samples, never series. Like samples, series are
/// immutable once saved and form a grow-only set.
///
/// Record id: the id of its first sample (`WorkoutSampleFile.sampleID(workoutID:index: first)`). Fields:
/// - `workout`: the workout's id; `first`: the index of its first sample; `source`: `watch`;
/// - `start`, `end`: the earliest start and the latest end of its samples, so a reader can
///   pass over a series outside the window it wants without decoding it;
/// - `readings`: for each sample, in order, its kind code (one byte: 0 heart rate, 1 active
///   energy, 2 steps), its start as a signed varint (zigzag; the first absolute, the others
///   the difference from the previous start), its duration `end − start` as a varint, and its
///   value as the eight big-endian bytes of the IEEE 754 double.
public struct HealthSampleSeries: Sendable, Hashable {
    public static let collection = "series"
    /// The most samples one series holds: a minute of one-second readings.
    public static let maxSamples = 60

    public var workoutID: String
    /// The index of the first sample in the workout.
    public var first: Int
    public var source: DeviceRole
    /// The samples, in index order, with their ids.
    public var samples: [HealthSample]

    public init(workoutID: String, first: Int, source: DeviceRole, samples: [HealthSample]) {
        self.workoutID = workoutID
        self.first = first
        self.source = source
        self.samples = samples
    }

    /// The record's id: its first sample's.
    public var id: String { WorkoutSampleFile.sampleID(workoutID: workoutID, index: first) }

    /// A workout's samples (in index order, as accepted) cut into series of `maxSamples`.
    /// All from one device (a series keeps one `source`), and of the kinds a workout records
    /// (heart rate, active energy, steps: a sleep sample has no kind byte and would make its
    /// series unreadable); the watch's builder accepts nothing else.
    public static func series(workoutID: String, samples: [HealthSample]) -> [HealthSampleSeries] {
        assert(Set(samples.map(\.source)).count <= 1, "a workout's samples come from one device")
        return stride(from: 0, to: samples.count, by: maxSamples).map { lower in
            let run = Array(samples[lower..<min(samples.count, lower + maxSamples)])
            return HealthSampleSeries(workoutID: workoutID, first: lower, source: run.first?.source ?? .watch, samples: run)
        }
    }

    // MARK: - Fields

    public var fields: [String: PlistValue] {
        ["workout": .string(workoutID), "first": .int(Int64(first)), "source": .string(source.rawValue),
         "start": .int(Self.span(of: samples).startMs), "end": .int(Self.span(of: samples).endMs),
         "readings": .data(Self.encodeReadings(samples))]
    }

    /// The earliest start and the latest end of `samples` (0, 0 for none).
    static func span(of samples: [HealthSample]) -> (startMs: EpochMs, endMs: EpochMs) {
        (samples.lazy.map(\.startMs).min() ?? 0, samples.lazy.map(\.endMs).max() ?? 0)
    }

    /// The span the `start` and `end` fields of a series record give, without decoding it.
    public static func span(of fields: (String) -> PlistValue?) -> (startMs: EpochMs, endMs: EpochMs)? {
        guard let start = fields("start")?.intValue, let end = fields("end")?.intValue else { return nil }
        return (start, end)
    }

    static func encodeReadings(_ samples: [HealthSample]) -> [UInt8] {
        var w = ByteWriter(capacity: samples.count * 12)
        var previous: EpochMs = 0
        for s in samples {
            w.writeByte(WorkoutSampleFile.code(of: s.kind))
            w.writeSignedVarint(s.startMs &- previous)
            previous = s.startMs
            w.writeVarint(UInt64(bitPattern: s.endMs &- s.startMs))
            w.writeUInt64BE(s.value.bitPattern)
        }
        return w.bytes
    }

    /// Decodes a record's fields; nil when a field is missing or mistyped, the readings do not
    /// decode, hold an unknown kind, a negative duration, or more than `maxSamples` samples,
    /// or `start` and `end` are not the samples' earliest start and latest end.
    public init?(id: String, fields f: [String: PlistValue]) {
        guard let workoutID = f["workout"]?.stringValue, let first = f["first"]?.intValue, (0...Int64(Int32.max)).contains(first),
              let sourceName = f["source"]?.stringValue, let source = DeviceRole(rawValue: sourceName),
              let readings = f["readings"]?.dataValue,
              WorkoutSampleFile.sampleID(workoutID: workoutID, index: Int(first)) == id,
              let samples = Self.decodeReadings(readings, workoutID: workoutID, first: Int(first), source: source),
              let span = Self.span(of: { f[$0] }), span == Self.span(of: samples)
        else { return nil }
        self.init(workoutID: workoutID, first: Int(first), source: source, samples: samples)
    }

    static func decodeReadings(_ bytes: [UInt8], workoutID: String, first: Int, source: DeviceRole) -> [HealthSample]? {
        var out: [HealthSample] = []
        var known = true
        let whole = walkReadings(bytes) { code, start, end, value in
            guard out.count < maxSamples, let kind = WorkoutSampleFile.kind(of: code) else {
                known = false
                return false
            }
            out.append(HealthSample(
                id: WorkoutSampleFile.sampleID(workoutID: workoutID, index: first + out.count), kind: kind,
                source: source, startMs: start, endMs: end, value: value))
            return true
        }
        return whole && known && !out.isEmpty ? out : nil
    }

    /// Reads `bytes` as `encodeReadings` wrote them, handing `body` each reading's kind byte,
    /// start, end and value until it returns false. False when a reading does not decode
    /// (truncated, or a start or end out of range); the walk stops there.
    static func walkReadings(_ bytes: [UInt8], _ body: (UInt8, EpochMs, EpochMs, Double) -> Bool) -> Bool {
        var r = ByteReader(bytes)
        var previous: EpochMs = 0
        do {
            while !r.isAtEnd {
                let code = try r.readByte()
                let (start, o1) = previous.addingReportingOverflow(try r.readSignedVarint())
                let duration = try r.readVarint()
                guard !o1, duration <= UInt64(Int64.max) else { return false }
                let (end, o2) = start.addingReportingOverflow(Int64(duration))
                guard !o2 else { return false }
                let value = Double(bitPattern: try r.readUInt64BE())
                previous = start
                if !body(code, start, end, value) { return true }
            }
        } catch {
            return false
        }
        return true
    }
}

extension HealthSampleSeries: ReplicatedRecord {}

extension HealthSampleSeries {
    /// Every live health sample in `replica`: the `sample` records and the samples of every
    /// `series` record, ordered by id (UTF-8 bytes, as `ReplicaState.all` orders them). The
    /// two never share an id: a saved workout's samples are written only as series.
    public static func allSamples(in replica: ReplicaState) -> [HealthSample] {
        var out = replica.all(HealthSample.self)
        let series = replica.all(HealthSampleSeries.self)
        guard !series.isEmpty else { return out }
        out.reserveCapacity(out.count + series.reduce(0) { $0 + $1.samples.count })
        for s in series { out += s.samples }
        out.sort { CanonicalEncoding.utf8Less($0.id, $1.id) }
        return out
    }

    /// True when the readings hold a step sample. The watch's series hold heart rate and
    /// active energy only, but the kind byte allows steps and a series may come from another
    /// writer. Reads up to the first step reading.
    public static func holdsSteps(_ fields: PlistValue?) -> Bool {
        guard let bytes = fields?.dataValue else { return false }
        let steps = WorkoutSampleFile.code(of: .steps)
        var found = false
        _ = walkReadings(bytes) { code, _, _, _ in
            found = code == steps
            return !found
        }
        return found
    }
}
