import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// A saved workout's samples kept as series records of up to 60: each series gives back
/// exactly the samples it was made of, bad fields are refused, and readers see samples.
@Suite("Health sample series")
struct HealthSampleSeriesTests {
    let t = ReplicaFixture.start

    /// `n` samples of a workout, as the builder accepts them: heart rate every second, and
    /// every tenth an active-energy sample over the ten seconds before it.
    func workoutSamples(_ id: String, _ n: Int, seed: UInt64) -> [HealthSample] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { i in
            let at = t + Int64(i) * 1_000 + Int64(rng.next() % 7)
            let index = WorkoutSampleFile.sampleID(workoutID: id, index: i)
            if i % 10 == 9 {
                return HealthSample(id: index, kind: .activeEnergy, source: .watch, startMs: at - 10_000, endMs: at,
                                    value: Double(rng.next() % 10_000) / 100)
            }
            return HealthSample(id: index, kind: .heartRate, source: .watch, startMs: at, endMs: at, value: Double(60 + rng.next() % 140))
        }
    }

    @Test(arguments: [1, 59, 60, 61, 150, 3_600])
    func everySeriesGivesBackItsSamples(count: Int) {
        let seed = UInt64(count) &* 7_919
        let samples = workoutSamples("workout-\(t)", count, seed: seed)
        let series = HealthSampleSeries.series(workoutID: "workout-\(t)", samples: samples)
        #expect(series.count == (count + 59) / 60, "seed \(seed)")
        #expect(series.allSatisfy { $0.samples.count <= HealthSampleSeries.maxSamples })
        var back: [HealthSample] = []
        for s in series {
            #expect(s.id == s.samples[0].id, "a series is named for its first sample")
            #expect(HealthSampleSeries.span(of: { s.fields[$0] })! == (s.samples.map(\.startMs).min()!, s.samples.map(\.endMs).max()!))
            let decoded = HealthSampleSeries(id: s.id, fields: s.fields)
            #expect(decoded == s, "seed \(seed): series \(s.id) does not decode to itself")
            back += decoded?.samples ?? []
        }
        #expect(back == samples, "seed \(seed)")
    }

    @Test func badFieldsAreRefused() {
        let samples = workoutSamples("w", 3, seed: 1)
        let good = HealthSampleSeries.series(workoutID: "w", samples: samples)[0]
        let f = good.fields
        #expect(HealthSampleSeries(id: good.id, fields: f) != nil)
        #expect(HealthSampleSeries(id: "w.0001", fields: f) == nil, "an id that is not its first sample's")
        var g = f
        g["first"] = .int(-1)
        #expect(HealthSampleSeries(id: good.id, fields: g) == nil)
        g = f
        g["source"] = .string("tablet")
        #expect(HealthSampleSeries(id: good.id, fields: g) == nil)
        g = f
        g["start"] = .int(f["start"]!.intValue! + 1)
        #expect(HealthSampleSeries(id: good.id, fields: g) == nil, "a start that is not its samples' earliest")
        g = f
        g["end"] = nil
        #expect(HealthSampleSeries(id: good.id, fields: g) == nil, "no end")
        g = f
        g["readings"] = .data([])
        #expect(HealthSampleSeries(id: good.id, fields: g) == nil, "a series holds at least one sample")
        let readings = f["readings"]!.dataValue!
        g["readings"] = .data(Array(readings.dropLast()))
        #expect(HealthSampleSeries(id: good.id, fields: g) == nil, "truncated readings")
        g["readings"] = .data([9] + readings.dropFirst())
        #expect(HealthSampleSeries(id: good.id, fields: g) == nil, "an unknown kind")
        // A duration whose end would be before its start (the varint of 2^64 − 1).
        g["readings"] = .data([0, 0] + [UInt8](repeating: 0xFF, count: 9) + [0x01] + [UInt8](repeating: 0, count: 8))
        #expect(HealthSampleSeries(id: good.id, fields: g) == nil, "a negative duration")
        let many = HealthSampleSeries(workoutID: "w", first: 0, source: .watch, samples: workoutSamples("w", 61, seed: 2))
        #expect(HealthSampleSeries(id: "w.0000", fields: many.fields) == nil, "more than 60 samples")
    }

    @Test func stepsAreFoundInTheKindBytes() {
        var samples = workoutSamples("w", 12, seed: 3)
        #expect(!HealthSampleSeries.holdsSteps(HealthSampleSeries.series(workoutID: "w", samples: samples)[0].fields["readings"]))
        samples[11].kind = .steps
        #expect(HealthSampleSeries.holdsSteps(HealthSampleSeries.series(workoutID: "w", samples: samples)[0].fields["readings"]))
        #expect(!HealthSampleSeries.holdsSteps(.data([0, 1])), "truncated readings hold nothing")
    }

    @Test func readersSeeSeriesAndSamplesTogetherOrderedByID() {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        let workout = workoutSamples("workout-b", 130, seed: 4)
        for s in HealthSampleSeries.series(workoutID: "workout-b", samples: workout) { watch.state.put(s, wallMs: t) }
        let own = [
            HealthSample(id: "phone.steps.1", kind: .steps, source: .phone, startMs: t, endMs: t + 60_000, value: 300),
            HealthSample(id: "workout-a.x", kind: .heartRate, source: .phone, startMs: t, endMs: t, value: 90),
        ]
        for s in own { phone.state.put(s, wallMs: t) }
        syncUntilQuiet(&phone, &watch, nowMs: t + 1)
        for side in [phone.state, watch.state] {
            #expect(side.count(in: HealthSampleSeries.collection) == 3)
            let all = HealthSampleSeries.allSamples(in: side)
            #expect(all.count == 132)
            #expect(all == (own + workout).sorted { CanonicalEncoding.utf8Less($0.id, $1.id) })
        }
        #expect(phone.state.digest() == watch.state.digest())
    }
}
