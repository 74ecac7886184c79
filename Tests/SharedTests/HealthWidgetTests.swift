import Testing
@testable import PeerLinkCore
@testable import FitnessDomain
@testable import CountdownDomain

/// Widget entries, the 15-minute policy and the daily reload budget at its edge.
@Suite struct HealthWidgetTests {
    let tokyo = HealthFixture.tokyo
    var morning: EpochMs { HealthFixture.local(tokyo, 2026, 5, 1, 8) }

    // MARK: - Budget

    @Test func seventySecondReloadIsGrantedAndTheSeventyThirdDenied() {
        var budget = FitnessWidgetReloadBudget(calendar: tokyo)
        for i in 1...71 {
            #expect(budget.requestReload(now: morning + Int64(i) * 1000, appInForeground: false) == .granted)
        }
        #expect(budget.remaining(nowMs: morning) == 1)
        #expect(budget.requestReload(now: morning + 100_000, appInForeground: false) == .granted)  // 72nd
        #expect(budget.requestReload(now: morning + 101_000, appInForeground: false) == .denied)  // 73rd
        #expect(budget.usedToday == 72 && budget.remaining(nowMs: morning) == 0)
    }

    @Test func foregroundReloadsAreFreeAndUncounted() {
        var budget = FitnessWidgetReloadBudget(calendar: tokyo, dailyLimit: 2)
        #expect(budget.requestReload(now: morning, appInForeground: false) == .granted)
        for _ in 0..<10 { #expect(budget.requestReload(now: morning + 1, appInForeground: true) == .granted) }
        #expect(budget.usedToday == 1)
        #expect(budget.requestReload(now: morning + 2, appInForeground: false) == .granted)
        #expect(budget.requestReload(now: morning + 3, appInForeground: false) == .denied)
        #expect(budget.requestReload(now: morning + 4, appInForeground: true) == .granted)
    }

    @Test func budgetResetsAtLocalMidnight() {
        var budget = FitnessWidgetReloadBudget(calendar: tokyo)
        for _ in 0..<72 { _ = budget.requestReload(now: morning, appInForeground: false) }
        let midnight = HealthFixture.local(tokyo, 2026, 5, 2, 0)
        #expect(budget.requestReload(now: midnight - 1, appInForeground: false) == .denied)
        #expect(budget.requestReload(now: midnight, appInForeground: false) == .granted)
        #expect(budget.usedToday == 1 && budget.day == CivilDate(year: 2026, month: 5, day: 2))
        // Midnight is local: in UTC it is 15:00 the day before.
        #expect(midnight == HealthFixture.utcMs(2026, 5, 1, 15))
    }

    // MARK: - Entries and timelines

    @Test func timelineReloadsAfterFifteenMinutesAndOpensTheDashboard() {
        let snapshot = FitnessWidgetSnapshot(todaySteps: 8432, stepGoal: 10_000, todayCaloriesKcal: 342.5, latestHeartRate: 72)
        let small = FitnessWidgets.makeSmallTimeline(snapshot: snapshot, nowMs: morning)
        #expect(small.policy == .after(morning + 15 * 60_000))
        #expect(small.entries.count == 1)
        let entry = small.entries[0]
        #expect(entry.ringFraction == 0.8432 && entry.widgetURL == "fitness://dashboard")
        #expect(entry.text(.ja) == "今日の歩数 8,432歩 (84%)")
        #expect(entry.text(.en) == "Today's steps 8,432 steps (84%)")
        #expect(entry.jsonValue()["steps"] == .int(8432))
        let medium = FitnessWidgets.makeMediumTimeline(snapshot: snapshot, nowMs: morning).entries[0]
        #expect(medium.text(.ja) == "歩数 8,432歩 | 消費カロリー 342.5 kcal | 心拍数 72 bpm")
        #expect(medium.jsonValue()["heartRateBpm"] == .double(72))
    }

    @Test func aTimelineTurnsAtTheLocalMidnightToADayWithoutValues() {
        let evening = HealthFixture.local(tokyo, 2026, 5, 1, 23, 52)
        let midnight = HealthFixture.local(tokyo, 2026, 5, 2, 0)
        let snapshot = FitnessWidgetSnapshot.make(
            samples: [HealthSample(id: "s", kind: .steps, source: .phone, startMs: evening - 3_600_000, endMs: evening, value: 5_000)],
            settings: .defaults, authorization: .allGranted, nowMs: evening, calendar: tokyo)
        let small = FitnessWidgets.makeSmallTimeline(snapshot: snapshot, nowMs: evening)
        #expect(small.entries.map(\.dateMs) == [evening, midnight])
        #expect(small.entries.map(\.steps) == [5_000, nil], "the new day shows —, not the ended day's total")
        #expect(small.policy == .after(evening + 15 * 60_000))
        let medium = FitnessWidgets.makeMediumTimeline(snapshot: snapshot, nowMs: evening)
        #expect(medium.entries.last?.caloriesKcal == nil && medium.entries.last?.stepGoal == 10_000)
        // A snapshot that is already not today's (no values) needs no second entry.
        #expect(FitnessWidgets.timelineSnapshots(FitnessWidgets.placeholderSnapshot(), nowMs: evening).count == 1)
    }

    @Test func missingDataShowsPlaceholdersAndTheRingCapsAtFull() {
        let empty = FitnessSmallWidgetEntry(dateMs: morning, snapshot: FitnessWidgets.placeholderSnapshot())
        #expect(empty.text(.ja) == "今日の歩数 —")
        #expect(empty.ringFraction == nil && empty.jsonValue()["steps"] == nil)
        let medium = FitnessMediumWidgetEntry(dateMs: morning, snapshot: FitnessWidgets.placeholderSnapshot())
        #expect(medium.text(.en) == "Steps — | Active calories — | Heart rate —")
        let over = FitnessWidgetSnapshot(todaySteps: 15_000, stepGoal: 10_000, todayCaloriesKcal: nil, latestHeartRate: nil)
        #expect(FitnessSmallWidgetEntry(dateMs: morning, snapshot: over).ringFraction == 1)
        #expect(over.stepProgress == 1.5)
    }

    @Test func snapshotUsesTheAppGroupKeysAndDedupedData() {
        let samples = [
            HealthFixture.minutes(.steps, .watch, 0, 10, 1000, base: morning),
            HealthFixture.minutes(.steps, .phone, 5, 15, 600, base: morning),
            HealthFixture.heartRate(.watch, morning + 60_000, 64),
        ]
        var auth = HealthAuthorization.allGranted
        auth.set(.denied, for: .activeEnergy)
        let snapshot = FitnessWidgetSnapshot.make(
            samples: samples, settings: .defaults, authorization: auth, nowMs: morning + 3_600_000, calendar: tokyo)
        #expect(snapshot.todaySteps == 1300 && snapshot.todayCaloriesKcal == nil && snapshot.latestHeartRate == 64)
        let plist = snapshot.plistValue
        #expect(plist["todaySteps"] == .int(1300) && plist["stepGoal"] == .int(10_000) && plist["todayCalories"] == nil)
        #expect(FitnessWidgetSnapshot(plistValue: plist) == snapshot)
        #expect(FitnessWidgetSnapshot(plistValue: [:])?.stepGoal == 10_000)
    }
}
