import PeerLinkCore

/// Which span the history tab shows.
public enum FitnessHistoryRange: String, Sendable, Hashable, CaseIterable {
    /// The last 7 local days, today included.
    case weekly
    /// The last 30 local days, today included.
    case monthly

    /// Daily buckets shown.
    public var dayCount: Int {
        switch self {
        case .weekly: 7
        case .monthly: 30
        }
    }

    /// The segmented control's title (週間 / 月間).
    public var title: LocalizedText {
        switch self {
        case .weekly: L10n.fitnessHistoryWeekly
        case .monthly: L10n.fitnessHistoryMonthly
        }
    }
}

/// One day of the history: the chart's bar and a row of the detail list.
public struct FitnessHistoryDay: Sendable, Hashable {
    public var day: CivilDate
    /// De-duplicated steps; nil without data.
    public var steps: Int?
    /// De-duplicated active energy, kcal; nil without data.
    public var caloriesKcal: Double?

    /// A day from its values.
    public init(day: CivilDate, steps: Int?, caloriesKcal: Double?) {
        self.day = day
        self.steps = steps
        self.caloriesKcal = caloriesKcal
    }

    /// As JSON-ready values; missing values are absent.
    public var plistValue: PlistValue {
        var d: [String: PlistValue] = ["day": .string(day.description)]
        if let steps { d["steps"] = .int(Int64(steps)) }
        if let caloriesKcal { d["caloriesKcal"] = .double(caloriesKcal) }
        return .dictionary(d)
    }
}

/// The history tab (タブ2) as data: the step trend (週間 = last 7 daily buckets, 月間 = last 30)
/// and the per-day detail list (date, steps, kcal).
///
/// Days are local days of the device's calendar, oldest first in `days` (chart order);
/// `detailRows` lists them newest first. Days without data are nil, shown as "—".
public struct FitnessHistory: Sendable, Hashable {
    public var range: FitnessHistoryRange
    /// Oldest first, `range.dayCount` of them, ending today.
    public var days: [FitnessHistoryDay]
    public var stepGoal: Int

    /// A history from its days (oldest first).
    public init(range: FitnessHistoryRange, days: [FitnessHistoryDay], stepGoal: Int) {
        self.range = range
        self.days = days
        self.stepGoal = stepGoal
    }

    /// Builds the history at `nowMs`.
    public static func make(
        samples: [HealthSample], range: FitnessHistoryRange, settings: AppSettings,
        authorization: HealthAuthorization, nowMs: EpochMs, calendar: LocalCalendar,
        statistics: HealthStatistics = HealthStatistics()
    ) -> FitnessHistory {
        let readable = authorization.readable(samples)
        let today = calendar.civilDate(nowMs)
        let first = today.adding(days: -(range.dayCount - 1))
        let steps = statistics.dailyBuckets(of: .steps, in: readable, from: first, through: today, calendar: calendar)
        let kcal = statistics.dailyBuckets(of: .activeEnergy, in: readable, from: first, through: today, calendar: calendar)
        let days = steps.indices.map {
            FitnessHistoryDay(day: steps[$0].firstDay, steps: steps[$0].value.map(FitnessFormat.roundedCount), caloriesKcal: kcal[$0].value)
        }
        return FitnessHistory(range: range, days: days, stepGoal: settings.stepGoal)
    }

    // MARK: - Derived

    /// The detail list, newest first.
    public var detailRows: [FitnessHistoryDay] { days.reversed() }

    /// The mean steps over the days that have step data; nil when none has.
    public var averageSteps: Int? {
        let values = days.compactMap(\.steps)
        guard !values.isEmpty else { return nil }
        return FitnessFormat.roundedCount(Double(values.reduce(0, +)) / Double(values.count))
    }

    /// The days that met the step goal.
    public var daysMeetingGoal: Int { days.filter { $0.steps.map { $0 >= stepGoal } ?? false }.count }

    // MARK: - Output

    /// As JSON-ready values.
    public func jsonValue() -> PlistValue {
        var d: [String: PlistValue] = [
            "range": .string(range.rawValue), "stepGoal": .int(Int64(stepGoal)),
            "days": .array(days.map(\.plistValue)), "daysMeetingGoal": .int(Int64(daysMeetingGoal)),
        ]
        if let averageSteps { d["averageSteps"] = .int(Int64(averageSteps)) }
        return .dictionary(d)
    }

    /// A heading, the average, then one line per day (newest first): "2026-03-29  8,432歩  342.5 kcal".
    public func text(_ language: AppLanguage) -> String {
        var lines = [
            "\(L10n.fitnessTabHistory(language)) — \(range.title(language)) \(L10n.fitnessStepTrend(language))",
            L10n.fitnessAverage(FitnessFormat.steps(averageSteps))(language),
            L10n.fitnessDailyDetails(language),
        ]
        for row in detailRows {
            lines.append("\(row.day)  \(FitnessFormat.steps(row.steps)(language))  \(FitnessFormat.kcal(row.caloriesKcal))")
        }
        return lines.joined(separator: "\n")
    }
}
