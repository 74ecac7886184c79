import Testing
@testable import PeerLinkCore
@testable import FitnessDomain
@testable import CountdownDomain

/// Dashboard and history as data: placeholders for denied or empty types, never 0.
@Suite struct HealthViewModelTests {
    let tokyo = HealthFixture.tokyo
    /// Wednesday 2026-04-01 12:00 JST.
    var now: EpochMs { HealthFixture.local(tokyo, 2026, 4, 1, 12) }

    var samples: [HealthSample] {
        let nine = HealthFixture.local(tokyo, 2026, 4, 1, 9)
        return [
            HealthFixture.minutes(.steps, .watch, 0, 10, 1000, base: nine),
            HealthFixture.minutes(.steps, .phone, 5, 15, 600, base: nine),
            HealthFixture.minutes(.activeEnergy, .watch, 0, 60, 250, base: nine),
            HealthFixture.heartRate(.watch, nine, 70),
            HealthFixture.heartRate(.watch, nine + 3_600_000, 76),
            HealthFixture.sleep(.asleepCore, .watch, tokyo, CivilDate(year: 2026, month: 3, day: 31), 23, 0,
                          CivilDate(year: 2026, month: 4, day: 1), 7, 0),
            // Yesterday and six days ago, for the history.
            HealthFixture.minutes(.steps, .phone, 0, 60, 4000, base: HealthFixture.local(tokyo, 2026, 3, 31, 9)),
            HealthFixture.minutes(.steps, .phone, 0, 60, 12000, base: HealthFixture.local(tokyo, 2026, 3, 26, 9)),
            HealthFixture.minutes(.steps, .phone, 0, 60, 500, base: HealthFixture.local(tokyo, 2026, 3, 3, 9)),
        ]
    }

    @Test func dashboardShowsDedupedTodayAndLastNight() {
        let d = FitnessDashboard.make(samples: samples, settings: .defaults, authorization: .allGranted, nowMs: now, calendar: tokyo)
        #expect(d.steps == 1300 && d.stepProgress == 0.13)
        #expect(d.caloriesKcal == 250 && d.calorieProgress == 0.5)
        #expect(d.latestHeartRate?.bpm == 76 && d.heartRateSeries.map(\.bpm) == [70, 76])
        #expect(d.sleep?.coreMinutes == 480 && d.sleep?.score != nil)
        #expect(d.sleepBars.first(where: { $0.stage == .asleepCore })?.minutes == 480)
        let text = d.text(.ja)
        #expect(text.contains("今日の歩数: 1,300歩 (13%)"))
        #expect(text.contains("消費カロリー: 250.0 kcal (50%)"))
        #expect(text.contains("心拍数: 76 bpm (過去24時間 2件)"))
        #expect(text.contains("睡眠スコア: "))
        #expect(d.jsonValue()["steps"] == .int(1300))
    }

    @Test func deniedAndEmptyTypesArePlaceholdersNeverZero() {
        var auth = HealthAuthorization.allGranted
        auth.set(.denied, for: .steps)
        auth.set(.notDetermined, for: .heartRate)
        let d = FitnessDashboard.make(samples: samples, settings: .defaults, authorization: auth, nowMs: now, calendar: tokyo)
        #expect(d.steps == nil && d.stepProgress == nil && d.latestHeartRate == nil && d.heartRateSeries.isEmpty)
        let empty = FitnessDashboard.make(samples: [], settings: .defaults, authorization: .allGranted, nowMs: now, calendar: tokyo)
        #expect(empty.sleep == nil && empty.sleepBars.isEmpty && empty.caloriesKcal == nil)
        let text = empty.text(.en)
        #expect(text.contains("Today's steps: —") && text.contains("Active calories: —"))
        #expect(text.contains("Heart rate: —\n") && text.contains("Sleep score: —"))
        #expect(!text.contains(": 0"))
        #expect(empty.jsonValue()["steps"] == nil && empty.jsonValue()["sleep"] == nil)
        #expect(auth.text(.ja).contains("歩数: 許可されていません"))
        #expect(HealthAuthorization.initial.needsAuthorizationRequest && !HealthAuthorization.allGranted.needsAuthorizationRequest)
        #expect(HealthAuthorization(plistValue: auth.plistValue) == auth)
    }

    @Test func historyHasSevenAndThirtyDailyBuckets() {
        let weekly = FitnessHistory.make(
            samples: samples, range: .weekly, settings: .defaults, authorization: .allGranted, nowMs: now, calendar: tokyo)
        #expect(weekly.days.count == 7)
        #expect(weekly.days.first?.day == CivilDate(year: 2026, month: 3, day: 26) && weekly.days.last?.day == CivilDate(year: 2026, month: 4, day: 1))
        #expect(weekly.days.map(\.steps) == [12000, nil, nil, nil, nil, 4000, 1300])
        #expect(weekly.averageSteps == 5767 && weekly.daysMeetingGoal == 1)
        #expect(weekly.detailRows.first?.day == CivilDate(year: 2026, month: 4, day: 1))
        let lines = weekly.text(.ja).split(separator: "\n")
        #expect(lines[0] == "履歴 — 週間 歩数推移")
        #expect(lines[3] == "2026-04-01  1,300歩  250.0 kcal")
        #expect(lines[4] == "2026-03-31  4,000歩  —")
        #expect(lines[5] == "2026-03-30  —  —")
        let monthly = FitnessHistory.make(
            samples: samples, range: .monthly, settings: .defaults, authorization: .allGranted, nowMs: now, calendar: tokyo)
        #expect(monthly.days.count == 30 && monthly.days.first?.day == CivilDate(year: 2026, month: 3, day: 3))
        #expect(monthly.days.first?.steps == 500)
        #expect(monthly.jsonValue()["days"]?.arrayValue?.count == 30)
    }
}
