import Shared
import Testing

@testable import PhoneNode

/// The stored live workout's bytes, written straight from its fields, are the canonical
/// encoding of its `plistValue` with every combination of the optional fields.
@Suite struct LiveWorkoutBytesTests {
    @Test func bytesMatchTheGeneralEncoderWithAndWithoutOptionals() throws {
        let full: PlistValue = [
            "type": .string(LiveWorkout.metricsType), "state": .string("running"), "activity": .string("cycling"),
            "location": .string("outdoor"), "workoutID": .string("wörk-1"), "startMs": .int(-5), "elapsedMs": .int(1 << 40),
            "heartRateBpm": .double(.nan), "hrCount": .int(3_600), "energyKcal": .double(-0.0), "atMs": .int(1_780_000_000_000),
        ]
        let optional = ["location", "workoutID", "startMs", "elapsedMs", "heartRateBpm", "hrCount", "energyKcal", "atMs"]
        for mask in 0..<(1 << optional.count) {
            var d = try #require(full.dictionaryValue)
            for (i, k) in optional.enumerated() where mask & (1 << i) != 0 { d[k] = nil }
            let live = try #require(LiveWorkout(fields: .dictionary(d), receivedMs: 42 + Int64(mask)))
            #expect(live.canonicalBytes == CanonicalEncoding.encode(live.plistValue), "mask \(mask)")
        }
    }
}
