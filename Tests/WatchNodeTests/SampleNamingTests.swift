import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// The fast paths of naming and formatting a sample equal the plain rules.
@Suite struct SampleNamingTests {
    /// The reference rule of `WorkoutSampleFile.sampleID`: `<workoutID>.` and the index padded
    /// with zeros to four digits.
    func referenceSampleID(_ workoutID: String, _ index: Int) -> String {
        let digits = String(index)
        return "\(workoutID).\(String(repeating: "0", count: max(0, 4 - digits.count)))\(digits)"
    }

    @Test func sampleIDsAreTheReferenceRule() {
        let indices = [0, 1, 9, 10, 99, 100, 999, 1_000, 3_599, 9_999, 10_000, 123_456, .max, -1, -10, -1_000, -12_345, .min]
        for id in ["workout-1780264800000", "", "wörk-ü", "w", String(repeating: "x", count: 40)] {
            for i in indices { #expect(WorkoutSampleFile.sampleID(workoutID: id, index: i) == referenceSampleID(id, i), "\(id) \(i)") }
        }
        for i in 0..<12_000 where WorkoutSampleFile.sampleID(workoutID: "w42", index: i) != referenceSampleID("w42", i) {
            Issue.record("index \(i)")
        }
    }

    /// `WatchFormat.grouped` as it was written before its fast path.
    func referenceGrouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return n < 0 ? "-" + out : out
    }

    @Test func groupedNumbers() {
        for n in [0, 1, -1, 999, -999, 1_000, -1_000, 12_345, -1_234_567, .max, .min] + Array(-1_500...1_500) {
            #expect(WatchFormat.grouped(n) == referenceGrouped(n), "\(n)")
        }
        #expect(WatchFormat.grouped(-999) == "-999" && WatchFormat.grouped(1_000) == "1,000" && WatchFormat.grouped(142) == "142")
    }
}
