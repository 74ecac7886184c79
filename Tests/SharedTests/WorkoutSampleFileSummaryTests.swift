import Testing
import PeerLinkCore
@testable import FitnessDomain

/// `WorkoutSampleFile.summary` (the phone's read of a received file: its workout id and sample
/// count) must never disagree with `decode`: whenever it answers, `decode` succeeds with the
/// same id and count; on a file as `encode()` writes it, it answers.
@Suite struct WorkoutSampleFileSummaryTests {
    static let record = WorkoutRecord(id: "w9", activity: .cycling, location: .outdoor, state: .ended, startMs: 1_000, endMs: 9_000,
                                      totalEnergyKcal: 0.1 + 0.2, elapsedMs: 8_000, heartRateAverage: 101.5, heartRateSampleCount: 2)

    static func file(_ record: WorkoutRecord, count: Int) -> WorkoutSampleFile {
        let kinds: [HealthSampleKind] = [.heartRate, .activeEnergy, .steps]
        let samples = (0..<count).map { i in
            let start = record.startMs + Int64(i * 1_000) - (i % 7 == 3 ? 5_000 : 0)
            return HealthSample(id: WorkoutSampleFile.sampleID(workoutID: record.id, index: i), kind: kinds[i % 3], source: .watch,
                                startMs: start, endMs: start + Int64(i % 5) * 250, value: 60 + Double(i) / 3)
        }
        return WorkoutSampleFile(record: record, samples: samples)
    }

    /// The property: an answer from `summary` is `decode`'s id and count.
    static func agrees(_ bytes: [UInt8], _ note: Comment) {
        guard let s = WorkoutSampleFile.summary(bytes) else { return }
        guard case .success(let decoded) = WorkoutSampleFile.decode(bytes) else {
            Issue.record("summary answered for a file decode refuses: \(note)")
            return
        }
        #expect(s == .init(workoutID: decoded.record.id, sampleCount: decoded.samples.count), note)
    }

    @Test func answersForEveryFileTheWatchWrites() {
        var running = Self.record
        running.state = .running
        running.endMs = nil
        for (record, count) in [(Self.record, 0), (Self.record, 1), (Self.record, 3), (running, 200), (Self.record, 3_600)] {
            let bytes = Self.file(record, count: count).encode()
            guard case .success(let decoded) = WorkoutSampleFile.decode(bytes) else {
                Issue.record("the encoded file decodes")
                continue
            }
            #expect(WorkoutSampleFile.summary(bytes) == .init(workoutID: decoded.record.id, sampleCount: decoded.samples.count))
        }
    }

    @Test func neverDisagreesWithDecodeOnTruncatedOrAlteredFiles() {
        let bytes = Self.file(Self.record, count: 40).encode()
        for n in 0..<bytes.count { Self.agrees(Array(bytes.prefix(n)), "truncated to \(n)") }
        Self.agrees(bytes + [0], "a trailing byte")
        for i in bytes.indices {
            for v: UInt8 in [0, 1, 2, 3, 7, 8, 9, 0x7F, 0x80, 0xFF, bytes[i] &+ 1, bytes[i] &- 1] where v != bytes[i] {
                var altered = bytes
                altered[i] = v
                Self.agrees(altered, "byte \(i) set to \(v)")
            }
        }
        // Files decode refuses (or reads) for reasons of their own: each is summarized as nil.
        guard case .dictionary(let good)? = try? CanonicalEncoding.decode(Self.file(Self.record, count: 3).encode()) else {
            Issue.record("the encoded file is a dictionary")
            return
        }
        let replacements: [(String, PlistValue)] = [
            ("kinds", .data([0, 1, 3])), ("kinds", .data([0, 1])), ("v", 2), ("type", "other"), ("starts", [1, 2, .double(3)]),
            ("values", [1, 2, 3]), ("record", ["start": 1]), ("workoutID", 7), ("durations", [.int(Int64.max), 0, 0]), ("extra", 1),
        ]
        for (key, replacement) in replacements {
            var d = good
            d[key] = replacement
            let bytes = CanonicalEncoding.encode(.dictionary(d))
            Self.agrees(bytes, "\(key) replaced")
            #expect(WorkoutSampleFile.summary(bytes) == nil, "\(key) replaced")
        }
    }
}
