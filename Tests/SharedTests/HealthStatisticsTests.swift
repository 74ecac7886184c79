import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// The source-merge rule of cumulative statistics, checked against hand-computed sums.
@Suite struct HealthStatisticsTests {
    let stats = HealthStatistics()
    let m = HealthFixture.minuteMs

    func sum(_ samples: [HealthSample], _ from: Int64, _ to: Int64, _ s: HealthStatistics? = nil) -> Double? {
        (s ?? stats).cumulativeSum(of: .steps, in: samples, fromMs: from * m, toMs: to * m)
    }

    // MARK: - De-duplication

    @Test func phoneOverlappingWatchCountsOnlyItsUncoveredHalf() {
        // Watch 0–10 min 1,000 steps; phone 5–15 min 600 steps → 1,000 + 600 × 5/10 = 1,300.
        let samples = [
            HealthFixture.minutes(.steps, .watch, 0, 10, 1000),
            HealthFixture.minutes(.steps, .phone, 5, 15, 600),
        ]
        let result = stats.cumulativeStatistic(of: .steps, in: samples, fromMs: 0, toMs: 60 * m)
        #expect(result?.sum == 1300)
        #expect(result?.sumBySource[.watch] == 1000)
        #expect(result?.sumBySource[.phone] == 300)
        #expect(result?.sampleCount == 2)
    }

    @Test func identicalOverlapCountsTheWatchOnly() {
        let samples = [
            HealthFixture.minutes(.steps, .phone, 0, 10, 950),
            HealthFixture.minutes(.steps, .watch, 0, 10, 1000),
        ]
        #expect(sum(samples, 0, 60) == 1000)
    }

    @Test func phoneFillsTheGapBetweenWatchSamples() {
        // Watch covers 0–10 and 20–30; the phone's 0–30 sample (1,200) counts only 10–20: 400.
        let samples = [
            HealthFixture.minutes(.steps, .watch, 0, 10, 1000),
            HealthFixture.minutes(.steps, .watch, 20, 30, 500),
            HealthFixture.minutes(.steps, .phone, 0, 30, 1200),
        ]
        #expect(sum(samples, 0, 60) == 1900)
    }

    @Test func phoneAloneCountsInFull() {
        #expect(sum([HealthFixture.minutes(.steps, .phone, 5, 15, 600)], 0, 60) == 600)
    }

    @Test func priorityOrderIsAParameter() {
        // Phone first: 600 + watch's uncovered 0–5 of 0–10 (500) = 1,100.
        let samples = [
            HealthFixture.minutes(.steps, .watch, 0, 10, 1000),
            HealthFixture.minutes(.steps, .phone, 5, 15, 600),
        ]
        #expect(sum(samples, 0, 60, HealthStatistics(sourcePriority: [.phone, .watch])) == 1100)
        #expect(HealthStatistics(sourcePriority: [.phone]).effectivePriority == [.phone, .watch])
    }

    @Test func sameSourceOverlapIsSummedAsIs() {
        let samples = [
            HealthFixture.minutes(.steps, .watch, 0, 10, 100),
            HealthFixture.minutes(.steps, .watch, 5, 15, 100),
        ]
        #expect(sum(samples, 0, 60) == 200)
    }

    @Test func sampleHalfOutsideTheIntervalCountsHalf() {
        #expect(sum([HealthFixture.minutes(.steps, .watch, 0, 10, 1000)], 5, 20) == 500)
    }

    @Test func coverageOutsideTheIntervalDoesNotHideThePhone() {
        // The watch covers 0–10, but the query is 10–20: the phone's 5–15 sample counts 5/10 there.
        let samples = [
            HealthFixture.minutes(.steps, .watch, 0, 10, 1000),
            HealthFixture.minutes(.steps, .phone, 5, 15, 600),
        ]
        #expect(sum(samples, 10, 20) == 300)
    }

    @Test func instantaneousSampleUnderWatchCoverageIsNotCounted() {
        let samples = [
            HealthFixture.minutes(.steps, .watch, 0, 10, 1000),
            HealthFixture.minutes(.steps, .phone, 5, 5, 40),
            HealthFixture.minutes(.steps, .phone, 12, 12, 7),
        ]
        #expect(sum(samples, 0, 60) == 1007)
    }

    @Test func noSamplesIsNilAndAZeroSampleIsZero() {
        #expect(sum([], 0, 60) == nil)
        #expect(sum([HealthFixture.minutes(.steps, .phone, 100, 110, 50)], 0, 60) == nil)
        #expect(sum([HealthFixture.minutes(.steps, .phone, 0, 10, 0)], 0, 60) == 0)
        #expect(stats.cumulativeSum(of: .heartRate, in: [HealthFixture.heartRate(.watch, 0, 70)], fromMs: 0, toMs: 60 * m) == nil)
        #expect(sum([HealthFixture.minutes(.steps, .phone, 0, 10, 10)], 30, 30) == nil)
    }

    @Test func otherKindsAreIgnored() {
        let samples = [
            HealthFixture.minutes(.activeEnergy, .watch, 0, 10, 50),
            HealthFixture.minutes(.steps, .phone, 0, 10, 600),
        ]
        #expect(sum(samples, 0, 60) == 600)
        #expect(stats.cumulativeSum(of: .activeEnergy, in: samples, fromMs: 0, toMs: 60 * m) == 50)
    }

    // MARK: - Properties (seeded)

    @Test func sumIsAdditiveOverSplitIntervalsAndBoundedByRawSums() {
        let seed: UInt64 = 0x5EED_0001
        var rng = SplitMix64(seed: seed)
        for round in 0..<200 {
            var samples: [HealthSample] = []
            for i in 0..<Int.random(in: 1...12, using: &rng) {
                let start = Int64.random(in: 0...100, using: &rng)
                let length = Int64.random(in: 1...30, using: &rng)
                let role: DeviceRole = Bool.random(using: &rng) ? .watch : .phone
                samples.append(HealthSample(
                    id: "s\(i)", kind: .steps, source: role, startMs: start * m, endMs: (start + length) * m,
                    value: Double(Int.random(in: 0...1000, using: &rng))))
            }
            let cut = Int64.random(in: 1...129, using: &rng)
            let whole = sum(samples, 0, 130) ?? 0
            let parts = (sum(samples, 0, cut) ?? 0) + (sum(samples, cut, 130) ?? 0)
            let raw = samples.reduce(0) { $0 + $1.value }
            let watchOnly = samples.filter { $0.source == .watch }.reduce(0) { $0 + $1.value }
            #expect(abs(whole - parts) < 1e-6, "seed \(seed) round \(round): \(whole) vs \(parts)")
            #expect(whole <= raw + 1e-6, "seed \(seed) round \(round)")
            #expect(whole >= watchOnly - 1e-6, "seed \(seed) round \(round)")
        }
    }

    // MARK: - Range sets

    @Test func rangeSetMergesOverlapsAndSubtracts() {
        let set = EpochRangeSet([
            EpochRange(startMs: 10, endMs: 20), EpochRange(startMs: 0, endMs: 5),
            EpochRange(startMs: 15, endMs: 30), EpochRange(startMs: 30, endMs: 35), EpochRange(startMs: 40, endMs: 40),
        ])
        #expect(set.ranges == [EpochRange(startMs: 0, endMs: 5), EpochRange(startMs: 10, endMs: 35)])
        #expect(set.totalMs == 30)
        #expect(set.coveredMs(of: EpochRange(startMs: 3, endMs: 12)) == 4)
        #expect(set.contains(34) && !set.contains(35) && !set.contains(7))
        let cut = set.subtracting(EpochRangeSet([EpochRange(startMs: 2, endMs: 12), EpochRange(startMs: 20, endMs: 25)]))
        #expect(cut.ranges == [
            EpochRange(startMs: 0, endMs: 2), EpochRange(startMs: 12, endMs: 20), EpochRange(startMs: 25, endMs: 35),
        ])
    }
}
