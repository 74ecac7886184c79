import PeerLinkCore
import CountdownDomain
import Testing

/// Day arithmetic: month ends, leap years, DST days and time zones.
@Suite struct CountdownCalendarTests {
    typealias F = CountdownFixture

    // MARK: - Month ends and years

    @Test func daysLeftCrossMonthAndYearEnds() {
        let cases: [(CivilDate, CivilDate, Int)] = [
            (F.day(2026, 1, 31), F.day(2026, 2, 1), 1),
            (F.day(2026, 2, 28), F.day(2026, 3, 1), 1),
            (F.day(2024, 2, 28), F.day(2024, 3, 1), 2),
            (F.day(2026, 4, 30), F.day(2026, 5, 31), 31),
            (F.day(2025, 12, 31), F.day(2026, 1, 1), 1),
            (F.day(2026, 1, 1), F.day(2027, 1, 1), 365),
            (F.day(2024, 1, 1), F.day(2025, 1, 1), 366),
            (F.day(2026, 3, 1), F.day(2026, 2, 28), -1),
        ]
        for (from, to, expected) in cases {
            #expect(CountdownCalendar.daysLeft(from: from, to: to) == expected, "\(from) → \(to)")
        }
    }

    // MARK: - Leap years

    @Test func leapDayBirthdayIsFebruary28InCommonYears() {
        let born = F.day(2000, 2, 29)
        #expect(CountdownCalendar.birthday(of: born, in: 2023) == F.day(2023, 2, 28))
        #expect(CountdownCalendar.birthday(of: born, in: 2024) == F.day(2024, 2, 29))
        #expect(CountdownCalendar.birthday(of: born, in: 2100) == F.day(2100, 2, 28))
        #expect(CountdownCalendar.birthday(of: born, in: 2400) == F.day(2400, 2, 29))
        #expect(CountdownCalendar.birthday(of: F.day(1990, 3, 1), in: 2023) == F.day(2023, 3, 1))
    }

    @Test func leapDayChildTurnsOlderOnFebruary28InCommonYears() {
        let born = F.day(2000, 2, 29)
        #expect(CountdownCalendar.age(of: born, on: F.day(2023, 2, 27)) == 22)
        #expect(CountdownCalendar.age(of: born, on: F.day(2023, 2, 28)) == 23)
        #expect(CountdownCalendar.age(of: born, on: F.day(2024, 2, 28)) == 23)
        #expect(CountdownCalendar.age(of: born, on: F.day(2024, 2, 29)) == 24)
        #expect(CountdownCalendar.age(of: F.day(1990, 12, 31), on: F.day(2025, 12, 30)) == 34)
        #expect(CountdownCalendar.age(of: F.day(1990, 12, 31), on: F.day(2025, 12, 31)) == 35)
        #expect(CountdownCalendar.age(of: born, on: born) == 0)
    }

    @Test func ageGoalOfLeapDayChildCountsToTheRightBirthday() {
        let born = F.day(2000, 2, 29)
        let turning23 = CountdownStatus(goal: F.ageGoal("g", "23", age: 23), birthDate: born, today: F.day(2023, 2, 1))
        #expect(turning23 == .counting(daysLeft: 27))  // to 2023-02-28
        let turning24 = CountdownStatus(goal: F.ageGoal("g", "24", age: 24), birthDate: born, today: F.day(2024, 2, 1))
        #expect(turning24 == .counting(daysLeft: 28))  // to 2024-02-29
        #expect(CountdownStatus(goal: F.ageGoal("g", "23", age: 23), birthDate: born, today: F.day(2023, 2, 28)) == .achieved)
        #expect(CountdownStatus(goal: F.ageGoal("g", "24", age: 24), birthDate: born, today: F.day(2024, 2, 28)) == .counting(daysLeft: 1))
    }

    // MARK: - DST days

    /// For each DST day: its first and last millisecond are the same local day, and a goal
    /// two days later is exactly 2 days away from both (a duration-based count would say 1 on
    /// the 23-hour days' late evening, or 3 hours too early on the 25-hour days).
    @Test(arguments: [
        ("America/New_York", 2026, 3, 8, F.utc(2026, 3, 8, 5), F.utc(2026, 3, 9, 4)),  // 23 h
        ("America/New_York", 2026, 11, 1, F.utc(2026, 11, 1, 4), F.utc(2026, 11, 2, 5)),  // 25 h
        ("Europe/Berlin", 2026, 3, 29, F.utc(2026, 3, 28, 23), F.utc(2026, 3, 29, 22)),  // 23 h
        ("Europe/Berlin", 2026, 10, 25, F.utc(2026, 10, 24, 22), F.utc(2026, 10, 25, 23)),  // 25 h
    ])
    func daysLeftOnDSTDaysAreWholeDays(zone: String, y: Int, m: Int, d: Int, startMs: EpochMs, endMs: EpochMs) throws {
        let calendar = try F.zone(zone)
        let day = F.day(y, m, d)
        let goal = F.dateGoal("g", "two days", day.adding(days: 2))
        for nowMs in [startMs, startMs + F.hourMs * 3 / 2, endMs - F.hourMs / 2, endMs - 1] {
            #expect(CountdownCalendar.today(nowMs: nowMs, calendar: calendar) == day, "\(zone) \(nowMs)")
            let list = CountdownDisplayList.recompute(goals: [goal], profile: nil, nowMs: nowMs, calendar: calendar)
            #expect(list.items.first?.daysLeft == 2, "\(zone) at \(nowMs)")
        }
        #expect(CountdownCalendar.today(nowMs: startMs - 1, calendar: calendar) == day.adding(days: -1))
        let next = CountdownDisplayList.recompute(goals: [goal], profile: nil, nowMs: endMs, calendar: calendar)
        #expect(next.items.first?.daysLeft == 1)
        #expect(CountdownCalendar.nextLocalMidnight(after: startMs, calendar: calendar) == endMs)
        #expect(CountdownCalendar.nextLocalMidnight(after: endMs - 1, calendar: calendar) == endMs)
    }

    @Test func dstDaysHave23Or25Hours() throws {
        let newYork = try F.zone("America/New_York")
        let march8 = CountdownCalendar.nextLocalMidnight(after: F.utc(2026, 3, 8, 6), calendar: newYork)
        #expect(march8 - newYork.startOfDay(F.day(2026, 3, 8)) == 23 * F.hourMs)
        let november1 = CountdownCalendar.nextLocalMidnight(after: F.utc(2026, 11, 1, 12), calendar: newYork)
        #expect(november1 - newYork.startOfDay(F.day(2026, 11, 1)) == 25 * F.hourMs)
    }

    @Test func nextMidnightIsTheFirstInstantOfADayWhoseMidnightIsSkipped() throws {
        // Chile moves from 24:00 -04 to 01:00 -03: 2026-09-06 begins at 01:00 local (04:00Z).
        let santiago = try F.zone("America/Santiago")
        #expect(CountdownCalendar.nextLocalMidnight(after: F.utc(2026, 9, 5, 16), calendar: santiago) == F.utc(2026, 9, 6, 4))
        #expect(CountdownCalendar.today(nowMs: F.utc(2026, 9, 6, 4), calendar: santiago) == F.day(2026, 9, 6))
    }

    // MARK: - Time zones

    @Test func sameInstantIsADifferentDayInTokyoAndLosAngeles() throws {
        let nowMs = F.utc(2026, 5, 10, 20)  // Tokyo 05-11 05:00, Los Angeles 05-10 13:00.
        let tokyo = try F.zone("Asia/Tokyo")
        let losAngeles = try F.zone("America/Los_Angeles")
        #expect(CountdownCalendar.today(nowMs: nowMs, calendar: tokyo) == F.day(2026, 5, 11))
        #expect(CountdownCalendar.today(nowMs: nowMs, calendar: losAngeles) == F.day(2026, 5, 10))
        let goals = [F.dateGoal("trip", "Trip", F.day(2026, 5, 20))]
        let inTokyo = CountdownDisplayList.recompute(goals: goals, profile: nil, nowMs: nowMs, calendar: tokyo)
        let inLosAngeles = CountdownDisplayList.recompute(goals: goals, profile: nil, nowMs: nowMs, calendar: losAngeles)
        #expect(inTokyo.items.first?.daysLeft == 9)
        #expect(inLosAngeles.items.first?.daysLeft == 10)
        #expect(inTokyo.refreshAtMs == F.utc(2026, 5, 11, 15))
        #expect(inLosAngeles.refreshAtMs == F.utc(2026, 5, 11, 7))
    }

    @Test func targetDayIsTodayInOneZoneAndTomorrowInAnother() throws {
        let nowMs = F.utc(2026, 5, 10, 20)
        let goals = [F.dateGoal("d", "Day", F.day(2026, 5, 11))]
        let tokyo = CountdownDisplayList.recompute(goals: goals, profile: nil, nowMs: nowMs, calendar: try F.zone("Asia/Tokyo"))
        let la = CountdownDisplayList.recompute(goals: goals, profile: nil, nowMs: nowMs, calendar: try F.zone("America/Los_Angeles"))
        #expect(tokyo.items.first?.status == .targetDateIsToday)
        #expect(la.items.first?.status == .counting(daysLeft: 1))
    }
}
