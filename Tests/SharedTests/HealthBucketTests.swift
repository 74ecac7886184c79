import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// Daily buckets from local midnight and weekly buckets from Monday, across DST; heart rate.
@Suite struct HealthBucketTests {
    let stats = HealthStatistics()
    let berlin = HealthFixture.berlin

    @Test func dstDaysAreTwentyThreeAndTwentyFiveHoursLong() {
        let spring = stats.dailyBuckets(
            of: .steps, in: [], from: CivilDate(year: 2026, month: 3, day: 28), through: CivilDate(year: 2026, month: 3, day: 30),
            calendar: berlin)
        #expect(spring.map { ($0.endMs - $0.startMs) / HealthFixture.hourMs } == [24, 23, 24])
        #expect(spring[1].startMs == HealthFixture.utcMs(2026, 3, 28, 23))
        #expect(spring.allSatisfy { $0.value == nil })
        let autumn = stats.dailyBuckets(
            of: .steps, in: [], from: CivilDate(year: 2026, month: 10, day: 25), through: CivilDate(year: 2026, month: 10, day: 25),
            calendar: berlin)
        #expect((autumn[0].endMs - autumn[0].startMs) / HealthFixture.hourMs == 25)
    }

    @Test func weeklyBucketsStartOnMondayAndSpanTheDSTWeek() {
        let weeks = stats.weeklyBuckets(
            of: .steps, in: [], from: CivilDate(year: 2026, month: 3, day: 25), through: CivilDate(year: 2026, month: 4, day: 1),
            calendar: berlin)
        #expect(weeks.map(\.firstDay) == [CivilDate(year: 2026, month: 3, day: 23), CivilDate(year: 2026, month: 3, day: 30)])
        #expect(weeks.map { ($0.endMs - $0.startMs) / HealthFixture.hourMs } == [167, 168])
        #expect(HealthStatistics.weekAnchor(containing: CivilDate(year: 2026, month: 3, day: 29)) == CivilDate(year: 2026, month: 3, day: 23))
        #expect(HealthStatistics.weekAnchor(containing: CivilDate(year: 2026, month: 3, day: 23)) == CivilDate(year: 2026, month: 3, day: 23))
    }

    @Test func samplesLandInTheLocalDayAcrossTheSpringChange() {
        // 23:30 CEST on Sunday 03-29 is 21:30 UTC: it belongs to the 23-hour Sunday.
        let samples = [
            HealthFixture.sample(.steps, .phone, HealthFixture.utcMs(2026, 3, 29, 21, 30), HealthFixture.utcMs(2026, 3, 29, 21, 40), 100),
            HealthFixture.sample(.steps, .phone, HealthFixture.utcMs(2026, 3, 29, 22, 30), HealthFixture.utcMs(2026, 3, 29, 22, 40), 7),
            // Spans local midnight 03-28/29 (23:00 UTC): half on each day.
            HealthFixture.sample(.steps, .watch, HealthFixture.utcMs(2026, 3, 28, 22, 50), HealthFixture.utcMs(2026, 3, 28, 23, 10), 40),
        ]
        let days = stats.dailyBuckets(
            of: .steps, in: samples, from: CivilDate(year: 2026, month: 3, day: 28), through: CivilDate(year: 2026, month: 3, day: 30),
            calendar: berlin)
        #expect(days.map(\.value) == [20, 120, 7])
        let week = stats.weeklyBuckets(
            of: .steps, in: samples, from: CivilDate(year: 2026, month: 3, day: 23), through: CivilDate(year: 2026, month: 3, day: 29),
            calendar: berlin)
        #expect(week.map(\.value) == [140])
    }

    // MARK: - Heart rate

    @Test func latestHeartRatePrefersTheNewestThenTheWatch() {
        let t = HealthFixture.utcMs(2026, 5, 1, 12)
        let samples = [
            HealthFixture.heartRate(.phone, t - 60_000, 70),
            HealthFixture.heartRate(.phone, t, 80),
            HealthFixture.heartRate(.watch, t, 82),
            HealthFixture.heartRate(.watch, t + 60_000, 99),  // in the future of `now`
        ]
        let latest = stats.latestHeartRate(in: samples, atOrBeforeMs: t)
        #expect(latest == HeartRateReading(atMs: t, bpm: 82, source: .watch))
        #expect(stats.latestHeartRate(in: [], atOrBeforeMs: t) == nil)
    }

    @Test func seriesCoversThePast24HoursInclusive() {
        let now = HealthFixture.utcMs(2026, 5, 2, 12)
        let day = HealthStatistics.heartRateSeriesWindowMs
        let samples = [
            HealthFixture.heartRate(.watch, now - day - 1, 50),
            HealthFixture.heartRate(.watch, now - day, 60),
            HealthFixture.heartRate(.phone, now - 1000, 70),
            HealthFixture.heartRate(.watch, now, 80),
            HealthFixture.heartRate(.watch, now + 1, 90),
            HealthFixture.sample(.steps, .watch, now - 5000, now - 4000, 10),
        ]
        #expect(stats.heartRateSeries(in: samples, endingAtMs: now).map(\.bpm) == [60, 70, 80])
        #expect(stats.averageHeartRate(in: samples, fromMs: now - day, toMs: now + 1) == 70)
        #expect(stats.averageHeartRate(in: samples, fromMs: 0, toMs: 1) == nil)
    }
}
