import PeerLinkCore

/// The Monday-morning notification's contents: last week's total steps, average heart rate
/// and workout count.
///
/// ## Rules
/// - **When.** `WeeklyCalendarTrigger.weeklySummary`: Monday 09:00 in the device's current
///   time zone, repeating. After a flight the next fire is Monday 09:00 in the new zone.
/// - **Which week.** The complete local Monday–Sunday week before the week that contains the
///   fire instant (for a fire on Monday 2026-03-30 09:00: 2026-03-23 00:00 to 2026-03-30 00:00
///   local, 167 hours since the clocks went forward). Computed in the fire's time zone.
/// - **Steps** are de-duplicated across sources (`HealthStatistics`), rounded to a whole step;
///   nil when there is no step data. **Heart rate** is the mean of the week's readings; nil
///   when none. **Workouts** are those that started in the week and actually began (state
///   running, paused, stopped or ended — not notStarted or prepared).
/// - A repeating iOS notification has fixed contents, so the phone re-adds it (same id) with
///   fresh contents whenever it refreshes; `make(…forFireAtMs:)` gives the contents the next
///   fire should carry.
public struct WeeklySummary: Sendable, Hashable {
    /// The notification id (one pending weekly summary at a time; re-adding replaces it).
    public static let notificationID = "fitness.weeklySummary"

    /// The Monday that starts the summarized week.
    public var weekStart: CivilDate
    /// `[weekStart 00:00, weekStart + 7 days 00:00)` local.
    public var range: EpochRange
    public var totalSteps: Int?
    /// Beats per minute.
    public var averageHeartRate: Double?
    public var workoutCount: Int

    /// A summary from its values.
    public init(weekStart: CivilDate, range: EpochRange, totalSteps: Int?, averageHeartRate: Double?, workoutCount: Int) {
        self.weekStart = weekStart
        self.range = range
        self.totalSteps = totalSteps
        self.averageHeartRate = averageHeartRate
        self.workoutCount = workoutCount
    }

    /// The Sunday that ends the summarized week.
    public var weekEnd: CivilDate { weekStart.adding(days: HealthStatistics.daysPerWeek - 1) }

    // MARK: - Building

    /// The complete Monday–Sunday week before the week that contains `ms`, in `calendar`.
    public static func previousWeek(before ms: EpochMs, calendar: LocalCalendar) -> (weekStart: CivilDate, range: EpochRange) {
        let thisMonday = HealthStatistics.weekAnchor(containing: calendar.civilDate(ms))
        let start = thisMonday.adding(days: -HealthStatistics.daysPerWeek)
        return (start, HealthStatistics.localDaysRange(from: start, through: thisMonday.adding(days: -1), calendar: calendar))
    }

    /// The summary of the week before the one containing `fireMs` (normally a Monday 09:00).
    public static func make(
        samples: [HealthSample], workouts: [WorkoutRecord], forFireAtMs fireMs: EpochMs,
        calendar: LocalCalendar, statistics: HealthStatistics = HealthStatistics()
    ) -> WeeklySummary {
        let (start, range) = previousWeek(before: fireMs, calendar: calendar)
        let steps = statistics.cumulativeSum(of: .steps, in: samples, fromMs: range.startMs, toMs: range.endMs)
        let heartRate = statistics.averageHeartRate(in: samples, fromMs: range.startMs, toMs: range.endMs)
        let count = workouts.filter { range.contains($0.startMs) && hasBegun($0.state) }.count
        return WeeklySummary(
            weekStart: start, range: range, totalSteps: steps.map(FitnessFormat.roundedCount),
            averageHeartRate: heartRate, workoutCount: count)
    }

    /// The next fire instant of the weekly summary after `nowMs` in the current zone.
    public static func nextFireMs(after nowMs: EpochMs, calendar: LocalCalendar) -> EpochMs {
        WeeklyCalendarTrigger.weeklySummary.nextFireMs(after: nowMs, calendar: calendar)
    }

    /// True for the workout states that mean the workout actually started.
    static func hasBegun(_ state: WorkoutSessionState) -> Bool {
        switch state {
        case .running, .paused, .stopped, .ended: true
        case .notStarted, .prepared: false
        }
    }

    // MARK: - Texts

    /// The notification title (先週の運動サマリー).
    public func title(_ language: AppLanguage) -> String { L10n.fitnessWeeklySummaryTitle(language) }

    /// The notification body, with "—" for missing steps or heart rate.
    public func body(_ language: AppLanguage) -> String {
        L10n.fitnessWeeklySummaryBody(
            groupedSteps: totalSteps.map(FitnessFormat.grouped), heartRate: averageHeartRate.map { FitnessFormat.bpm($0) },
            workouts: workoutCount)(language)
    }

    /// The pending notification for the next fire after `nowMs`, carrying these contents.
    public func makeNotification(nowMs: EpochMs, calendar: LocalCalendar, language: AppLanguage) -> PendingNotification {
        let trigger = NotificationTrigger.calendar(.weeklySummary)
        return PendingNotification(
            id: Self.notificationID, kind: .weeklySummary, title: title(language), body: body(language),
            trigger: trigger, fireMs: trigger.nextFireMs(after: nowMs, calendar: calendar))
    }

    /// As a property list; missing values are left out.
    public var plistValue: PlistValue {
        var d: [String: PlistValue] = [
            "weekStart": .string(weekStart.description), "weekEnd": .string(weekEnd.description),
            "start": .int(range.startMs), "end": .int(range.endMs), "workoutCount": .int(Int64(workoutCount)),
        ]
        if let totalSteps { d["totalSteps"] = .int(Int64(totalSteps)) }
        if let averageHeartRate { d["averageHeartRate"] = .double(averageHeartRate) }
        return .dictionary(d)
    }
}
