import PeerLinkCore

/// Which feature a notification belongs to.
public enum FitnessNotificationKind: String, Sendable, Hashable, CaseIterable, Codable {
    case weeklySummary
    case runDetected
}

// MARK: - Triggers

/// A repeating calendar trigger like `UNCalendarNotificationTrigger(dateMatching: {weekday,
/// hour, minute}, repeats: true)`: it fires at that wall time in the device's *current* time
/// zone, so its next instant is recomputed whenever the zone changes (travel) and follows DST.
public struct WeeklyCalendarTrigger: Sendable, Hashable, Codable {
    /// Foundation's weekday numbering: 1 Sunday, 2 Monday … 7 Saturday.
    public var weekday: Int
    public var hour: Int
    public var minute: Int
    public var repeats: Bool

    /// The weekly summary's trigger: Monday (weekday 2) at 09:00, repeating.
    public static let weeklySummary = WeeklyCalendarTrigger(weekday: 2, hour: 9, minute: 0, repeats: true)

    /// A trigger at `hour:minute` on Foundation weekday `weekday` (2 = Monday).
    public init(weekday: Int, hour: Int, minute: Int, repeats: Bool) {
        self.weekday = weekday
        self.hour = hour
        self.minute = minute
        self.repeats = repeats
    }

    /// The ISO weekday (1 Monday … 7 Sunday) of `weekday`.
    public var isoWeekday: Int { (weekday + 5) % 7 + 1 }

    /// The first instant strictly after `nowMs` whose local weekday and wall time in
    /// `calendar` match. A wall time skipped by a DST jump resolves to the first valid instant
    /// after it (as `LocalCalendar.instant` does).
    public func nextFireMs(after nowMs: EpochMs, calendar: LocalCalendar) -> EpochMs {
        let today = calendar.civilDate(nowMs)
        let offset = (isoWeekday - today.isoWeekday + 7) % 7
        var day = today.adding(days: offset)
        var fire = calendar.instant(day, hour: hour, minute: minute)
        if fire <= nowMs {
            day = day.adding(days: 7)
            fire = calendar.instant(day, hour: hour, minute: minute)
        }
        return fire
    }

    /// As a property list: `{"weekday": 2, "hour": 9, "minute": 0, "repeats": true}`.
    public var plistValue: PlistValue {
        ["weekday": .int(Int64(weekday)), "hour": .int(Int64(hour)), "minute": .int(Int64(minute)), "repeats": .bool(repeats)]
    }
}

/// When a notification fires: once at an instant, or on a calendar trigger.
public enum NotificationTrigger: Sendable, Hashable {
    /// Once, at this instant (e.g. the run-detection prompt, delivered at once).
    case at(EpochMs)
    /// At a wall time in the current time zone (the weekly summary).
    case calendar(WeeklyCalendarTrigger)

    /// The next fire instant strictly after `nowMs` for a calendar trigger; the instant itself
    /// for `.at`.
    public func nextFireMs(after nowMs: EpochMs, calendar: LocalCalendar) -> EpochMs {
        switch self {
        case .at(let ms): ms
        case .calendar(let trigger): trigger.nextFireMs(after: nowMs, calendar: calendar)
        }
    }

    /// True for a calendar trigger that repeats.
    public var repeats: Bool {
        if case .calendar(let t) = self { return t.repeats }
        return false
    }

    /// As a property list: `{"at": ms}` or `{"calendar": {...}}`.
    public var plistValue: PlistValue {
        switch self {
        case .at(let ms): ["at": .int(ms)]
        case .calendar(let t): ["calendar": t.plistValue]
        }
    }
}

// MARK: - Settings

/// Pure "should schedule" answers from the settings toggles.
public enum NotificationPolicy {
    /// True when `settings` lets notifications of `kind` be scheduled: the master switch and
    /// the feature's own switch must both be on.
    public static func allows(_ kind: FitnessNotificationKind, settings: AppSettings) -> Bool {
        guard settings.notificationsEnabled else { return false }
        switch kind {
        case .weeklySummary: return settings.weeklySummaryEnabled
        case .runDetected: return settings.runDetectionEnabled
        }
    }

    /// True when the weekly summary should be (kept) scheduled.
    public static func shouldScheduleWeeklySummary(settings: AppSettings) -> Bool {
        allows(.weeklySummary, settings: settings)
    }

    /// True when a detected run should prompt: allowed by settings and no workout running.
    public static func shouldNotifyRunStart(settings: AppSettings, workoutActive: Bool) -> Bool {
        allows(.runDetected, settings: settings) && !workoutActive
    }
}
