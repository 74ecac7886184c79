import PeerLinkCore

/// The file the watch sends with `transferFile` when a workout ends: the saved workout and
/// every sample at full resolution, so a 3-hour ride does not have to squeeze through 64 KB
/// messages. The same records also reach the phone through the replicated state; the file
/// is the bulk path and the phone may use whichever arrives first (ids are the same).
/// The watch writes it (`WatchNode`), the phone reads it (`PhoneNode`): it lives in `Shared`.
///
/// Format: the canonical encoding (`CanonicalEncoding`) of one property-list dictionary,
/// version 1. Chosen over CSV because it is exact (doubles keep every bit), self-describing,
/// and both roles already decode it.
///
/// | key | value |
/// |-----|-------|
/// | `type` | `"workout.samples"` |
/// | `v` | int 1 |
/// | `workoutID` | string |
/// | `record` | dictionary: `WorkoutRecord.fields` |
/// | `kinds` | data, one byte per sample: 0 heart rate, 1 active energy, 2 steps |
/// | `starts` | array of int: each start minus the previous one (the first: minus the record's `start`) |
/// | `durations` | array of int: end minus start, ms |
/// | `values` | array of double (bpm, kcal, count) |
///
/// Sample ids are not stored: the `i`th sample's id is `sampleID(workoutID:index: i)`
/// (`<workoutID>.0007`, as the watch's live builder names them), and its source is the watch.
public struct WorkoutSampleFile: Sendable, Hashable {
    /// The `type` value (also in the transfer's metadata).
    public static let type = "workout.samples"
    /// The layout version.
    public static let formatVersion: Int64 = 1

    public var record: WorkoutRecord
    public var samples: [HealthSample]

    /// A file of `record` and its `samples` (ids `<workoutID>.<index>`, source watch).
    public init(record: WorkoutRecord, samples: [HealthSample]) {
        self.record = record
        self.samples = samples
    }

    /// The file name suggested to the receiver: `<workoutID>.samples.plist`.
    public var fileName: String { "\(record.id).samples.plist" }

    /// The id of a workout's `index`th sample: `<workoutID>.0007` (at least four digits).
    /// (Written straight into the string's bytes: the watch names every sample it collects.)
    public static func sampleID(workoutID: String, index: Int) -> String {
        guard index >= 0 else {
            let digits = String(index)
            return "\(workoutID).\(String(repeating: "0", count: max(0, 4 - digits.count)))\(digits)"
        }
        var digitCount = 1
        var rest = index
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        let width = max(4, digitCount)
        var id = workoutID
        return id.withUTF8 { w in
            String(unsafeUninitializedCapacity: w.count + 1 + width) { out in
                if let src = w.baseAddress, w.count > 0 { out.baseAddress!.initialize(from: src, count: w.count) }
                out[w.count] = UInt8(ascii: ".")
                var v = index
                var i = w.count + width
                while i > w.count {
                    out[i] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                    i -= 1
                }
                return w.count + 1 + width
            }
        }
    }

    // MARK: - Encoding

    /// The file's bytes.
    public func encode() -> [UInt8] {
        var previous = record.startMs
        var starts: [PlistValue] = []
        starts.reserveCapacity(samples.count)
        for s in samples {
            starts.append(.int(s.startMs &- previous))
            previous = s.startMs
        }
        let value: PlistValue = [
            "type": .string(Self.type), "v": .int(Self.formatVersion), "workoutID": .string(record.id),
            "record": .dictionary(record.fields), "kinds": .data(samples.map { Self.code(of: $0.kind) }),
            "starts": .array(starts), "durations": .array(samples.map { .int($0.endMs - $0.startMs) }),
            "values": .array(samples.map { .double($0.value) }),
        ]
        return CanonicalEncoding.encode(value)
    }

    /// The transfer's metadata for `bytes` (this file's encoding): type, workoutID,
    /// sampleCount, byteCount and the SHA-256 of the bytes in hex.
    public func metadata(for bytes: [UInt8]) -> PlistValue {
        [
            "type": .string(Self.type), "workoutID": .string(record.id), "sampleCount": .int(Int64(samples.count)),
            "byteCount": .int(Int64(bytes.count)), "sha256": .string(hexString(SHA256.hash(bytes))),
        ]
    }

    // MARK: - Decoding

    /// Decodes a file written by `encode()`; refuses another type or version, a missing key,
    /// columns of different lengths or an unknown sample kind.
    public static func decode(_ bytes: [UInt8]) -> Result<WorkoutSampleFile, WorkoutSampleFileError> {
        let value: PlistValue
        do { value = try CanonicalEncoding.decode(bytes) } catch { return .failure(.init("undecodable bytes: \(error)")) }
        guard value["type"]?.stringValue == type else { return .failure(.init("not a \(type) file")) }
        guard value["v"]?.intValue == formatVersion else { return .failure(.init("unsupported version")) }
        guard let id = value["workoutID"]?.stringValue, let fields = value["record"]?.dictionaryValue,
              let record = WorkoutRecord(id: id, fields: fields), let kinds = value["kinds"]?.dataValue,
              let starts = value["starts"]?.int64ArrayValue, let durations = value["durations"]?.int64ArrayValue,
              let values = value["values"]?.doubleArrayValue
        else { return .failure(.init("missing or mistyped key")) }
        guard kinds.count == starts.count, kinds.count == durations.count, kinds.count == values.count else {
            return .failure(.init("sample columns differ in length"))
        }
        var samples: [HealthSample] = []
        samples.reserveCapacity(kinds.count)
        var previous = record.startMs
        for i in kinds.indices {
            guard let kind = kind(of: kinds[i]) else { return .failure(.init("unknown sample kind \(kinds[i])")) }
            let start = previous &+ starts[i]
            previous = start
            let (end, overflow) = start.addingReportingOverflow(durations[i])
            guard !overflow else { return .failure(.init("sample \(i) duration overflows")) }
            samples.append(HealthSample(
                id: sampleID(workoutID: id, index: i), kind: kind, source: .watch,
                startMs: start, endMs: end, value: values[i]))
        }
        return .success(WorkoutSampleFile(record: record, samples: samples))
    }

    // MARK: - Kind codes

    static func code(of kind: HealthSampleKind) -> UInt8 {
        switch kind {
        case .heartRate: 0
        case .activeEnergy: 1
        case .steps: 2
        case .sleep: 255  // never in a workout; refused by `decode`
        }
    }

    static func kind(of code: UInt8) -> HealthSampleKind? {
        switch code {
        case 0: .heartRate
        case 1: .activeEnergy
        case 2: .steps
        default: nil
        }
    }
}

/// Why a workout sample file could not be decoded.
public struct WorkoutSampleFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    /// An error with a reason for people.
    public init(_ reason: String) { self.reason = reason }

    /// For people and logs.
    public var description: String { "workout sample file: \(reason)" }
}
