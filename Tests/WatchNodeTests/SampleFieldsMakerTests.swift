import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// The fields of a finished workout's samples, made from the previous sample's, equal their own.
@Suite struct SampleFieldsMakerTests {
    @Test func fieldsMadeFromThePreviousSampleEqualEachSamplesOwn() {
        var maker = SampleFieldsMaker()
        var made: [([String: PlistValue], HealthSample)] = []
        for i in 0..<200 {
            let kind: HealthSampleKind = i % 9 == 0 ? .activeEnergy : (i % 31 == 0 ? .steps : .heartRate)
            let source: DeviceRole = i % 47 == 0 ? .phone : .watch
            let s = HealthSample(
                id: "w.\(i)", kind: kind, source: source, startMs: 1_000 * EpochMs(i) - 500, endMs: 1_000 * EpochMs(i) + EpochMs(i % 3),
                value: i == 5 ? .nan : Double(i) * 0.75)
            let f = maker.fields(of: s)
            #expect(f.count == s.fields.count)
            #expect(PlistValue.dictionary(f) == .dictionary(s.fields) || i == 5, "sample \(i)")
            made.append((f, s))
        }
        // Fields handed out earlier are not changed by later ones.
        for (f, s) in made where !s.value.isNaN { #expect(f == s.fields) }
    }
}
