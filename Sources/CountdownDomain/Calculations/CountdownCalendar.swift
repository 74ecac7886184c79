import PeerLinkCore

/// Day arithmetic for countdowns: days between local days, birthdays and ages.
///
/// Everything works on `CivilDate`s, never on durations: "today" is the local day of an
/// instant (`LocalCalendar.civilDate`), and days left is the difference of two day numbers.
/// So a 23-hour or 25-hour DST day still counts as exactly one day, and the answer does not
/// depend on the time of day.
public enum CountdownCalendar {
    // MARK: - Days

    /// The local day that contains `nowMs` in `calendar`: the day countdowns count from.
    public static func today(nowMs: EpochMs, calendar: LocalCalendar) -> CivilDate {
        calendar.civilDate(nowMs)
    }

    /// Whole days from `today` to `target`: 0 on the day itself, negative once it has passed.
    public static func daysLeft(from today: CivilDate, to target: CivilDate) -> Int {
        today.days(to: target)
    }

    /// The instant of the next local midnight after `nowMs`: when today's counts go stale.
    ///
    /// It is the start of tomorrow's local day in `calendar`, so it is right on DST days (23 or
    /// 25 hours after the previous midnight) and in zones where a DST jump skips midnight
    /// itself (then the day starts at the first instant that exists, e.g. 01:00).
    public static func nextLocalMidnight(after nowMs: EpochMs, calendar: LocalCalendar) -> EpochMs {
        calendar.startOfDay(calendar.civilDate(nowMs).adding(days: 1))
    }

    // MARK: - Birthdays and ages

    /// The day in `year` on which someone born on `birthDate` has their birthday.
    ///
    /// Someone born on 29 February has their birthday on 28 February in a common year (the
    /// rule Japanese law uses for coming of age, and the day most apps show): born 2000-02-29,
    /// the birthday is 2023-02-28 in 2023 and 2024-02-29 in 2024. They turn a year older on
    /// that day.
    public static func birthday(of birthDate: CivilDate, in year: Int) -> CivilDate {
        let day = min(birthDate.day, CivilDate.daysIn(year: year, month: birthDate.month))
        return CivilDate(year: year, month: birthDate.month, day: day)
    }

    /// Completed years on `day` for someone born on `birthDate` (0 before the first birthday;
    /// negative only if `day` is before `birthDate`).
    public static func age(of birthDate: CivilDate, on day: CivilDate) -> Int {
        let years = day.year - birthDate.year
        return day < birthday(of: birthDate, in: day.year) ? years - 1 : years
    }

    /// The day someone born on `birthDate` turns `age` (the birthday in `birth year + age`).
    public static func dayOfTurning(_ age: Int, birthDate: CivilDate) -> CivilDate {
        birthday(of: birthDate, in: birthDate.year + age)
    }
}
