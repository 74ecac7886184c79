import PeerLinkCore
import CountdownDomain
import Testing

/// Helpers shared by the countdown tests: fixed instants, zones and goals.
enum CountdownFixture {
    /// Milliseconds in an hour and a day, for building UTC instants by hand.
    static let hourMs: EpochMs = 3_600_000
    static let dayMs: EpochMs = 86_400_000

    /// The instant `y-m-d h:min` UTC, computed without Foundation so it checks `LocalCalendar`.
    static func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> EpochMs {
        EpochMs(CivilDate(year: y, month: m, day: d).daysSinceEpoch) * dayMs + EpochMs(h) * hourMs
            + EpochMs(min) * 60_000
    }

    /// A day, briefly.
    static func day(_ y: Int, _ m: Int, _ d: Int) -> CivilDate { CivilDate(year: y, month: m, day: d) }

    /// The calendar of a zone that must exist in the system's tz database.
    static func zone(_ identifier: String) throws -> LocalCalendar {
        try #require(LocalCalendar(identifier: identifier), "unknown time zone \(identifier)")
    }

    /// A date goal.
    static func dateGoal(_ id: String, _ title: String, _ target: CivilDate, priority: Int = 0, createdMs: EpochMs = 0)
        -> CountdownGoal
    {
        CountdownGoal(id: id, title: title, targetDate: target, isAgeGoal: false, createdMs: createdMs, priority: priority)
    }

    /// An age goal.
    static func ageGoal(_ id: String, _ title: String, age: Int, priority: Int = 0, createdMs: EpochMs = 0)
        -> CountdownGoal
    {
        CountdownGoal(id: id, title: title, targetAge: age, isAgeGoal: true, createdMs: createdMs, priority: priority)
    }
}

