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
        let idBytes = workoutID.utf8.count
        return String(unsafeUninitializedCapacity: idBytes + 1 + width) { out in
            _ = PointerText.put(workoutID, at: out.baseAddress!)
            out[idBytes] = UInt8(ascii: ".")
            var v = index
            var i = idBytes + width
            while i > idBytes {
                out[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                i -= 1
            }
            return idBytes + 1 + width
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

    /// What a receiver that keeps only the workout's id and sample count learns from a file.
    public struct Summary: Sendable, Hashable {
        public var workoutID: String
        public var sampleCount: Int

        public init(workoutID: String, sampleCount: Int) {
            self.workoutID = workoutID
            self.sampleCount = sampleCount
        }
    }

    /// The keys of a file as `encode()` writes them, in the canonical (UTF-8 byte) order.
    static let keysInOrder = ["durations", "kinds", "record", "starts", "type", "v", "values", "workoutID"]

    /// `decode(bytes)`'s record id and sample count, read without building the samples (or
    /// the file's value): nil when the file is not exactly as `encode()` writes it — it may
    /// still decode, or not, and only `decode` says which, and why.
    ///
    /// Whenever this is not nil, `decode(bytes)` succeeds with `record.id == workoutID` and
    /// `samples.count == sampleCount` (tested on valid, altered and truncated files): it
    /// reads every byte with the same reader and checks everything `decode` does (canonical
    /// form to the last byte, type, version, the record, column types and lengths, kinds,
    /// overflowing durations).
    public static func summary(_ bytes: [UInt8]) -> Summary? {
        var r = ByteReader(bytes)
        do {
            guard try r.readByte() == 0x09, try r.readVarint() == UInt64(keysInOrder.count) else { return nil }
            func key(_ k: Int) throws(ByteReaderError) -> Bool { try r.readString() == keysInOrder[k] }
            // durations
            guard try key(0), let durations = try readIntArray(&r) else { return nil }
            // kinds
            guard try key(1), try r.readByte() == 0x07 else { return nil }
            let kinds = try r.readLengthPrefixed()
            for k in kinds where kind(of: k) == nil { return nil }
            // record (decoded as `decode` does: it is a few fields)
            guard try key(2), case .dictionary(let fields) = try CanonicalEncoding.decode(from: &r, depth: 1) else { return nil }
            // starts: each sample's start and end must not overflow, as `decode` checks.
            guard try key(3), try r.readByte() == 0x08 else { return nil }
            let n = try r.readVarint()
            guard n <= UInt64(r.remaining), Int(n) == durations.count, durations.count == kinds.count else { return nil }
            var starts: [Int64] = []
            starts.reserveCapacity(Int(n))
            for _ in 0..<n {
                guard try r.readByte() == 0x02 else { return nil }
                starts.append(try r.readSignedVarint())
            }
            // type, v
            guard try key(4), try r.readByte() == 0x01, try r.readString() == type else { return nil }
            guard try key(5), try r.readByte() == 0x02, try r.readSignedVarint() == formatVersion else { return nil }
            // values
            guard try key(6), try r.readByte() == 0x08 else { return nil }
            let m = try r.readVarint()
            guard m == n else { return nil }
            for _ in 0..<m {
                guard try r.readByte() == 0x03 else { return nil }
                _ = try r.readUInt64BE()
            }
            // workoutID
            guard try key(7), try r.readByte() == 0x01 else { return nil }
            let id = try r.readString()
            guard r.isAtEnd, let record = WorkoutRecord(id: id, fields: fields) else { return nil }
            var previous = record.startMs
            for i in starts.indices {
                let start = previous &+ starts[i]
                previous = start
                guard !start.addingReportingOverflow(durations[i]).overflow else { return nil }
            }
            return Summary(workoutID: record.id, sampleCount: starts.count)
        } catch {
            return nil
        }
    }

    /// An array of ints (tag, count, then each `.int`); nil when anything else is there.
    private static func readIntArray(_ r: inout ByteReader) throws(ByteReaderError) -> [Int64]? {
        guard try r.readByte() == 0x08 else { return nil }
        let n = try r.readVarint()
        guard n <= UInt64(r.remaining) else { return nil }
        var out: [Int64] = []
        out.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard try r.readByte() == 0x02 else { return nil }
            out.append(try r.readSignedVarint())
        }
        return out
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
