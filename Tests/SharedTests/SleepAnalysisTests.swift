import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// Last night's window, the union of sources, stage attribution and the score.
@Suite struct SleepAnalysisTests {
    let tokyo = HealthFixture.tokyo
    let d10 = CivilDate(year: 2026, month: 3, day: 10)
    let d11 = CivilDate(year: 2026, month: 3, day: 11)

    /// A night across midnight in Tokyo. Phone: in bed 22:30–07:00, asleep (unspecified)
    /// 22:50–01:00, and an evening nap 17:30–18:30 half inside the window. Watch: staged sleep
    /// 23:10–06:50 with an awake spell 02:30–02:45. Plus a nap the next afternoon (outside).
    var night: [HealthSample] {
        [
            HealthFixture.sleep(.inBed, .phone, tokyo, d10, 22, 30, d11, 7, 0),
            HealthFixture.sleep(.asleepUnspecified, .phone, tokyo, d10, 22, 50, d11, 1, 0),
            HealthFixture.sleep(.asleepUnspecified, .phone, tokyo, d10, 17, 30, d10, 18, 30),
            HealthFixture.sleep(.asleepCore, .watch, tokyo, d10, 23, 10, d11, 0, 40),
            HealthFixture.sleep(.asleepDeep, .watch, tokyo, d11, 0, 40, d11, 1, 40),
            HealthFixture.sleep(.asleepREM, .watch, tokyo, d11, 1, 40, d11, 2, 30),
            HealthFixture.sleep(.awake, .watch, tokyo, d11, 2, 30, d11, 2, 45),
            HealthFixture.sleep(.asleepCore, .watch, tokyo, d11, 2, 45, d11, 5, 0),
            HealthFixture.sleep(.asleepREM, .watch, tokyo, d11, 5, 0, d11, 6, 0),
            HealthFixture.sleep(.asleepCore, .watch, tokyo, d11, 6, 0, d11, 6, 50),
            HealthFixture.sleep(.asleepCore, .watch, tokyo, d11, 13, 0, d11, 14, 0),
        ]
    }

    @Test func windowRunsFromSixPMToNoonLocal() {
        let w = SleepAnalysis.nightWindow(endingOn: d11, calendar: tokyo)
        #expect(w.startMs == HealthFixture.utcMs(2026, 3, 10, 9))  // 18:00 JST
        #expect(w.endMs == HealthFixture.utcMs(2026, 3, 11, 3))  // 12:00 JST
        let berlinSpring = SleepAnalysis.nightWindow(endingOn: CivilDate(year: 2026, month: 3, day: 29), calendar: HealthFixture.berlin)
        #expect(berlinSpring.durationMs == 17 * HealthFixture.hourMs)
    }

    @Test func overlappingSourcesAreMergedNotSummed() throws {
        let s = try #require(SleepAnalysis().summary(of: night, endingOn: d11, calendar: tokyo))
        // Hand-computed: unspecified 18:00–18:30 (30) + 22:50–23:10 (20) = 50; core 90+135+50 = 275;
        // deep 60; REM 50+60 = 110; awake 15 (no source asleep then); in bed 510.
        #expect(s.unspecifiedMinutes == 50)
        #expect(s.coreMinutes == 275)
        #expect(s.deepMinutes == 60)
        #expect(s.remMinutes == 110)
        #expect(s.awakeMinutes == 15)
        #expect(s.inBedMinutes == 510)
        // Union: 18:00–18:30, 22:50–02:30, 02:45–06:50 = 30 + 220 + 245 = 495 (a raw sum says 605).
        #expect(s.asleepMinutes == 495)
        #expect(s.asleepHours == 8.25)
        #expect(s.firstAsleepMs == HealthFixture.utcMs(2026, 3, 10, 9))
        #expect(s.lastAsleepEndMs == HealthFixture.utcMs(2026, 3, 10, 21, 50))
    }

    @Test func phoneOverlappingWatchStagesKeepsTheWatchStage() throws {
        // The phone says asleep where the watch says deep: deep wins, and counts once.
        let samples = [
            HealthFixture.sleep(.asleepUnspecified, .phone, tokyo, d11, 0, 0, d11, 2, 0),
            HealthFixture.sleep(.asleepDeep, .watch, tokyo, d11, 1, 0, d11, 2, 0),
        ]
        let s = try #require(SleepAnalysis().summary(of: samples, endingOn: d11, calendar: tokyo))
        #expect(s.deepMinutes == 60 && s.unspecifiedMinutes == 60 && s.asleepMinutes == 120)
        let phoneFirst = SleepAnalysis(statistics: HealthStatistics(sourcePriority: [.phone, .watch]))
        let p = try #require(phoneFirst.summary(of: samples, endingOn: d11, calendar: tokyo))
        #expect(p.deepMinutes == 0 && p.unspecifiedMinutes == 120)
    }

    @Test func scoreFollowsTheDocumentedFormula() throws {
        let s = try #require(SleepAnalysis().summary(of: night, endingOn: d11, calendar: tokyo))
        // 60 × min(495/480, 1) = 60; 25 × min((60+110)/495 / 0.35, 1) = 24.53; 15 × (1 − 15/60) = 11.25.
        #expect(s.score == 96)
        #expect(s.evaluation == .good)
        #expect(s.evaluation?.label(.ja) == "良好")
    }

    @Test func nightWithoutStagesIsScoredOnDurationAndAwake() throws {
        // Berlin, the night the clocks go forward: 23:00 CET to 07:00 CEST is 7 hours.
        let berlin = HealthFixture.berlin
        let samples = [
            HealthFixture.sleep(.asleepUnspecified, .phone, berlin, CivilDate(year: 2026, month: 3, day: 28), 23, 0,
                          CivilDate(year: 2026, month: 3, day: 29), 7, 0),
        ]
        let s = try #require(SleepAnalysis().summary(of: samples, endingOn: CivilDate(year: 2026, month: 3, day: 29), calendar: berlin))
        #expect(s.asleepMinutes == 420)
        #expect(!s.hasStageDetail)
        // (60 × 420/480 + 15) × 100/75 = (52.5 + 15) × 4/3 = 90.
        #expect(s.score == 90)
    }

    @Test func noSleepDataIsNilAndInBedAloneHasNoScore() throws {
        #expect(SleepAnalysis().summary(of: [], endingOn: d11, calendar: tokyo) == nil)
        let outside = [HealthFixture.sleep(.asleepCore, .watch, tokyo, d11, 13, 0, d11, 14, 0)]
        #expect(SleepAnalysis().summary(of: outside, endingOn: d11, calendar: tokyo) == nil)
        let inBed = [HealthFixture.sleep(.inBed, .phone, tokyo, d10, 23, 0, d11, 7, 0)]
        let s = try #require(SleepAnalysis().summary(of: inBed, endingOn: d11, calendar: tokyo))
        #expect(s.inBedMinutes == 480 && s.asleepMinutes == 0)
        #expect(s.score == nil && s.evaluation == nil)
    }

    @Test func lastNightIsTheNightEndingThisMorning() throws {
        let evening = HealthFixture.local(tokyo, 2026, 3, 11, 20)
        let s = try #require(SleepAnalysis().lastNight(in: night, nowMs: evening, calendar: tokyo))
        #expect(s.night == d11)
    }

    @Test func evaluationBandsAndScoreEdges() {
        #expect(SleepEvaluation(score: 100) == .good)
        #expect(SleepEvaluation(score: 80) == .good)
        #expect(SleepEvaluation(score: 79) == .fair)
        #expect(SleepEvaluation(score: 60) == .fair)
        #expect(SleepEvaluation(score: 59) == .poor)
        #expect(SleepEvaluation.poor.label(.en) == "Poor" && SleepEvaluation.fair.label(.ja) == "普通")
        // 4 h, no stages, no awake: (30 + 15) × 4/3 = 60.
        #expect(SleepScore.score(asleepMinutes: 240, deepMinutes: 0, remMinutes: 0, hasStageDetail: false, awakeMinutes: 0) == 60)
        // Lots of awake time costs at most the awake points.
        #expect(SleepScore.score(asleepMinutes: 600, deepMinutes: 300, remMinutes: 0, hasStageDetail: true, awakeMinutes: 500) == 85)
        #expect(SleepScore.score(asleepMinutes: 0, deepMinutes: 0, remMinutes: 0, hasStageDetail: false, awakeMinutes: 0) == nil)
    }
}
