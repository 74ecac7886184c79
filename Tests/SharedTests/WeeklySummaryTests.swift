import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// Monday 09:00 in the current zone, the summarized week, across DST and a flight.
@Suite struct WeeklySummaryTests {
    let berlin = HealthFixture.berlin
    let h = HealthFixture.hourMs

    // MARK: - Fire time

    @Test func firesNextMondayAtNineAcrossTheSpringChange() {
        // Wednesday 2026-03-25 12:00 CET → Monday 2026-03-30 09:00 CEST = 07:00 UTC.
        let now = HealthFixture.local(berlin, 2026, 3, 25, 12)
        #expect(WeeklySummary.nextFireMs(after: now, calendar: berlin) == HealthFixture.utcMs(2026, 3, 30, 7))
        // The week's earlier fire, Monday 2026-03-23 09:00 CET = 08:00 UTC: 167 hours apart.
        let monday = HealthFixture.local(berlin, 2026, 3, 23, 8)
        #expect(WeeklySummary.nextFireMs(after: monday, calendar: berlin) == HealthFixture.utcMs(2026, 3, 23, 8))
    }

    @Test func firesNextMondayAtNineAcrossTheAutumnChange() {
        // Berlin leaves summer time on Sunday 2026-10-25. From Saturday 10-24 12:00 CEST the next
        // fire is Monday 10-26 09:00 CET = 08:00 UTC; the one after, 11-02 09:00 CET = 08:00 UTC.
        let now = HealthFixture.local(berlin, 2026, 10, 24, 12)
        let fire = WeeklySummary.nextFireMs(after: now, calendar: berlin)
        #expect(fire == HealthFixture.utcMs(2026, 10, 26, 8))
        #expect(WeeklySummary.nextFireMs(after: fire, calendar: berlin) == HealthFixture.utcMs(2026, 11, 2, 8))
    }

    @Test func exactlyAtNineFiresNextWeek() {
        let fire = HealthFixture.utcMs(2026, 3, 30, 7)
        #expect(WeeklySummary.nextFireMs(after: fire, calendar: berlin) == HealthFixture.utcMs(2026, 4, 6, 7))
        #expect(WeeklySummary.nextFireMs(after: fire - 1, calendar: berlin) == fire)
        #expect(WeeklyCalendarTrigger.weeklySummary.isoWeekday == 1)
    }

    // MARK: - Summarized week

    @Test func springWeekIs167HoursAndCountsItsOwnSamplesOnly() {
        let fire = HealthFixture.utcMs(2026, 3, 30, 7)
        let samples = [
            // Sunday 03-22 23:30 CET: the week before.
            HealthFixture.sample(.steps, .phone, HealthFixture.utcMs(2026, 3, 22, 22, 30), HealthFixture.utcMs(2026, 3, 22, 22, 40), 1),
            // Monday 03-23 00:30 CET: in.
            HealthFixture.sample(.steps, .phone, HealthFixture.utcMs(2026, 3, 22, 23, 30), HealthFixture.utcMs(2026, 3, 22, 23, 40), 10),
            // Wednesday: watch and phone overlap entirely → watch only.
            HealthFixture.sample(.steps, .watch, HealthFixture.utcMs(2026, 3, 25, 10), HealthFixture.utcMs(2026, 3, 25, 11), 5000),
            HealthFixture.sample(.steps, .phone, HealthFixture.utcMs(2026, 3, 25, 10), HealthFixture.utcMs(2026, 3, 25, 11), 4800),
            // Sunday 03-29 23:30 CEST = 21:30 UTC: in.
            HealthFixture.sample(.steps, .phone, HealthFixture.utcMs(2026, 3, 29, 21, 30), HealthFixture.utcMs(2026, 3, 29, 21, 40), 100),
            // Monday 03-30 00:30 CEST = 03-29 22:30 UTC: next week.
            HealthFixture.sample(.steps, .phone, HealthFixture.utcMs(2026, 3, 29, 22, 30), HealthFixture.utcMs(2026, 3, 29, 22, 40), 1000),
            HealthFixture.heartRate(.watch, HealthFixture.utcMs(2026, 3, 24, 8), 60),
            HealthFixture.heartRate(.watch, HealthFixture.utcMs(2026, 3, 28, 8), 90),
            HealthFixture.heartRate(.watch, HealthFixture.utcMs(2026, 3, 30, 6), 200),
        ]
        let workouts = [
            WorkoutRecord(id: "w1", activity: .running, location: .outdoor, state: .ended, startMs: HealthFixture.utcMs(2026, 3, 24, 6)),
            WorkoutRecord(id: "w2", activity: .walking, location: .outdoor, state: .ended, startMs: HealthFixture.utcMs(2026, 3, 29, 21)),
            WorkoutRecord(id: "w3", activity: .cycling, location: .indoor, state: .prepared, startMs: HealthFixture.utcMs(2026, 3, 26, 6)),
            WorkoutRecord(id: "w4", activity: .running, location: .outdoor, state: .ended, startMs: HealthFixture.utcMs(2026, 3, 29, 22, 30)),
        ]
        let s = WeeklySummary.make(samples: samples, workouts: workouts, forFireAtMs: fire, calendar: berlin)
        #expect(s.weekStart == CivilDate(year: 2026, month: 3, day: 23) && s.weekEnd == CivilDate(year: 2026, month: 3, day: 29))
        #expect(s.range == EpochRange(startMs: HealthFixture.utcMs(2026, 3, 22, 23), endMs: HealthFixture.utcMs(2026, 3, 29, 22)))
        #expect(s.range.durationMs == 167 * h)
        #expect(s.totalSteps == 5110)
        #expect(s.averageHeartRate == 75)
        #expect(s.workoutCount == 2)
        #expect(s.body(.ja) == "合計歩数 5,110歩、平均心拍数 75 bpm、ワークアウト回数 2回")
        #expect(s.body(.en) == "Steps: 5,110 · Average heart rate: 75 bpm · Workouts: 2")
        #expect(s.title(.ja) == "先週の運動サマリー")
    }

    @Test func autumnWeeksAre169And168Hours() {
        let first = WeeklySummary.make(samples: [], workouts: [], forFireAtMs: HealthFixture.utcMs(2026, 10, 26, 8), calendar: berlin)
        #expect(first.weekStart == CivilDate(year: 2026, month: 10, day: 19))
        #expect(first.range == EpochRange(startMs: HealthFixture.utcMs(2026, 10, 18, 22), endMs: HealthFixture.utcMs(2026, 10, 25, 23)))
        #expect(first.range.durationMs == 169 * h)
        let second = WeeklySummary.make(samples: [], workouts: [], forFireAtMs: HealthFixture.utcMs(2026, 11, 2, 8), calendar: berlin)
        #expect(second.weekStart == CivilDate(year: 2026, month: 10, day: 26))
        #expect(second.range.durationMs == 168 * h)
    }

    @Test func emptyWeekShowsPlaceholdersNotZeros() {
        let s = WeeklySummary.make(samples: [], workouts: [], forFireAtMs: HealthFixture.utcMs(2026, 3, 30, 7), calendar: berlin)
        #expect(s.totalSteps == nil && s.averageHeartRate == nil && s.workoutCount == 0)
        #expect(s.body(.ja) == "合計歩数 —、平均心拍数 —、ワークアウト回数 0回")
        #expect(s.body(.en) == "Steps: — · Average heart rate: — · Workouts: 0")
        #expect(s.plistValue["totalSteps"] == nil)
    }

    // MARK: - Travel

    @Test func flightFromTokyoToLosAngelesMovesTheFireToMondayNineLA() {
        let tokyo = HealthFixture.tokyo, la = HealthFixture.losAngeles
        // Scheduled on Wednesday 2026-06-10 10:00 JST (01:00 UTC): Monday 06-15 09:00 JST = 00:00 UTC.
        let scheduledAt = HealthFixture.utcMs(2026, 6, 10, 1)
        var list = PendingNotificationList()
        let empty = WeeklySummary.make(samples: [], workouts: [], forFireAtMs: scheduledAt, calendar: tokyo)
        list.add(empty.makeNotification(nowMs: scheduledAt, calendar: tokyo, language: .ja))
        #expect(list.item(id: WeeklySummary.notificationID)?.fireMs == HealthFixture.utcMs(2026, 6, 15, 0))

        // Lands in Los Angeles on Wednesday 06-10 10:00 PDT (17:00 UTC): the trigger re-evaluates.
        let landed = HealthFixture.utcMs(2026, 6, 10, 17)
        list.onTimeZoneChange(nowMs: landed, calendar: la)
        let fire = HealthFixture.utcMs(2026, 6, 15, 16)  // Monday 09:00 PDT
        #expect(list.item(id: WeeklySummary.notificationID)?.fireMs == fire)
        #expect(la.timeOfDay(fire).hour == 9 && la.civilDate(fire).isoWeekday == 1)

        // Nothing fires at Tokyo's Monday 09:00 any more; at LA's it does, and repeats a week on.
        #expect(list.onDeliverDue(nowMs: HealthFixture.utcMs(2026, 6, 15, 0), calendar: la).isEmpty)
        let delivered = list.onDeliverDue(nowMs: fire, calendar: la)
        #expect(delivered.map(\.id) == [WeeklySummary.notificationID])
        #expect(list.item(id: WeeklySummary.notificationID)?.fireMs == fire + 7 * 24 * h)

        // The week it summarizes is LA's Monday–Sunday: 06-08 00:00 PDT to 06-15 00:00 PDT.
        let s = WeeklySummary.make(samples: [], workouts: [], forFireAtMs: fire, calendar: la)
        #expect(s.range == EpochRange(startMs: HealthFixture.utcMs(2026, 6, 8, 7), endMs: HealthFixture.utcMs(2026, 6, 15, 7)))
    }

    @Test func scheduleFollowsTheSettings() {
        var settings = AppSettings.defaults
        #expect(NotificationPolicy.shouldScheduleWeeklySummary(settings: settings))
        settings.weeklySummaryEnabled = false
        #expect(!NotificationPolicy.shouldScheduleWeeklySummary(settings: settings))
        settings = .defaults
        settings.notificationsEnabled = false
        #expect(!NotificationPolicy.shouldScheduleWeeklySummary(settings: settings))
    }
}
