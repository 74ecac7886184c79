import PeerLinkCore

/// The data the app shares with its widgets through the App Group
/// (`UserDefaults(suiteName: "group.com.yourapp.fitness")` in the seed).
///
/// Missing values stay nil (the seed's `?? 0` would show a zero that is not data); the widget
/// shows "—" for them.
public struct FitnessWidgetSnapshot: Sendable, Hashable {
    /// The App Group suite of the seed.
    public static let appGroupSuiteName = "group.com.yourapp.fitness"
    /// The App Group keys of the seed.
    public static let stepsKey = "todaySteps"
    /// The step goal's key.
    public static let stepGoalKey = "stepGoal"
    /// Today's active energy's key (kcal).
    public static let caloriesKey = "todayCalories"
    /// The latest heart rate's key (bpm).
    public static let heartRateKey = "latestHeartRate"
    /// When the app wrote the snapshot (ours; not in the seed).
    public static let savedAtKey = "savedAt"
    /// The start of the local day the today values cover (ours; not in the seed).
    public static let dayStartKey = "dayStart"
    /// The end (next local midnight) of the local day the today values cover (ours).
    public static let dayEndKey = "dayEnd"

    public var todaySteps: Int?
    public var stepGoal: Int
    public var todayCaloriesKcal: Double?
    /// Beats per minute.
    public var latestHeartRate: Double?
    public var savedAtMs: EpochMs?
    /// The bounds `[start, end)` of the local day `todaySteps` and `todayCaloriesKcal` were
    /// summed over, in the zone of the save; nil in a snapshot written before they were kept.
    public var dayStartMs: EpochMs?
    public var dayEndMs: EpochMs?

    /// A snapshot from its values.
    public init(
        todaySteps: Int?, stepGoal: Int, todayCaloriesKcal: Double?, latestHeartRate: Double?, savedAtMs: EpochMs? = nil,
        dayStartMs: EpochMs? = nil, dayEndMs: EpochMs? = nil
    ) {
        self.todaySteps = todaySteps
        self.stepGoal = stepGoal
        self.todayCaloriesKcal = todayCaloriesKcal
        self.latestHeartRate = latestHeartRate
        self.savedAtMs = savedAtMs
        self.dayStartMs = dayStartMs
        self.dayEndMs = dayEndMs
    }

    /// The snapshot the app writes at `nowMs`: today's de-duplicated steps and calories, the
    /// latest heart rate, the synced step goal; unreadable types are nil.
    public static func make(
        samples: [HealthSample], settings: AppSettings, authorization: HealthAuthorization,
        nowMs: EpochMs, calendar: LocalCalendar, statistics: HealthStatistics = HealthStatistics()
    ) -> FitnessWidgetSnapshot {
        let readable = authorization.readable(samples)
        let today = calendar.civilDate(nowMs)
        let day = HealthStatistics.localDaysRange(from: today, through: today, calendar: calendar)
        let (startMs, endMs) = (day.startMs, day.endMs)
        let steps = statistics.cumulativeSum(of: .steps, in: readable, fromMs: startMs, toMs: endMs)
        let kcal = statistics.cumulativeSum(of: .activeEnergy, in: readable, fromMs: startMs, toMs: endMs)
        return FitnessWidgetSnapshot(
            todaySteps: steps.map(FitnessFormat.roundedCount), stepGoal: settings.stepGoal, todayCaloriesKcal: kcal,
            latestHeartRate: statistics.latestHeartRate(in: readable, atOrBeforeMs: nowMs)?.bpm, savedAtMs: nowMs,
            dayStartMs: startMs, dayEndMs: endMs)
    }

    /// True when the today values are today's at `nowMs` in `calendar`: they were summed over
    /// the local day that is today in `calendar` (the same bounds), so a time-zone change makes
    /// a snapshot of the old zone's day stale even when its date is today's. A snapshot without
    /// its day's bounds is today's when it was saved on today's date (or says nothing).
    public func isForToday(nowMs: EpochMs, calendar: LocalCalendar) -> Bool {
        if let dayStartMs, let dayEndMs {
            let today = calendar.civilDate(nowMs)
            let day = HealthStatistics.localDaysRange(from: today, through: today, calendar: calendar)
            return dayStartMs == day.startMs && dayEndMs == day.endMs
        }
        guard let savedAtMs else { return true }
        return calendar.civilDate(savedAtMs) == calendar.civilDate(nowMs)
    }

    /// The step progress (steps ÷ goal, not capped); nil without steps or with a goal ≤ 0.
    public var stepProgress: Double? {
        guard let todaySteps, stepGoal > 0 else { return nil }
        return Double(todaySteps) / Double(stepGoal)
    }

    // MARK: - App Group form

    /// The App Group dictionary: the seed's keys; nil values are absent.
    public var plistValue: PlistValue {
        var d: [String: PlistValue] = [Self.stepGoalKey: .int(Int64(stepGoal))]
        if let todaySteps { d[Self.stepsKey] = .int(Int64(todaySteps)) }
        if let todayCaloriesKcal { d[Self.caloriesKey] = .double(todayCaloriesKcal) }
        if let latestHeartRate { d[Self.heartRateKey] = .double(latestHeartRate) }
        if let savedAtMs { d[Self.savedAtKey] = .int(savedAtMs) }
        if let dayStartMs { d[Self.dayStartKey] = .int(dayStartMs) }
        if let dayEndMs { d[Self.dayEndKey] = .int(dayEndMs) }
        return .dictionary(d)
    }

    /// Reads the App Group dictionary. A missing goal is the default (10,000, as the seed's
    /// `?? 10000`); a missing value stays nil; nil when `plistValue` is not a dictionary.
    public init?(plistValue p: PlistValue) {
        guard p.dictionaryValue != nil else { return nil }
        self.init(
            todaySteps: p[Self.stepsKey]?.intValue.map { Int($0) },
            stepGoal: p[Self.stepGoalKey]?.intValue.map { Int($0) } ?? AppSettings.defaults.stepGoal,
            todayCaloriesKcal: p[Self.caloriesKey]?.doubleValue, latestHeartRate: p[Self.heartRateKey]?.doubleValue,
            savedAtMs: p[Self.savedAtKey]?.intValue, dayStartMs: p[Self.dayStartKey]?.intValue, dayEndMs: p[Self.dayEndKey]?.intValue)
    }
}

// MARK: - Entries

/// The widget sizes the fitness app offers.
public enum FitnessWidgetFamily: String, Sendable, Hashable, CaseIterable {
    /// 2×2: today's steps and the step ring.
    case systemSmall
    /// 4×2: steps, calories and heart rate side by side.
    case systemMedium
}

/// The small widget: today's steps and the ring against the goal.
public struct FitnessSmallWidgetEntry: Sendable, Hashable {
    public var dateMs: EpochMs
    public var steps: Int?
    public var stepGoal: Int
    /// The ring's fill, 0…1 (steps ÷ goal, capped at a full ring); nil without steps.
    public var ringFraction: Double?
    /// `fitness://dashboard`.
    public var widgetURL: String

    /// The entry for `snapshot` at `dateMs`.
    public init(dateMs: EpochMs, snapshot: FitnessWidgetSnapshot) {
        self.dateMs = dateMs
        self.steps = snapshot.todaySteps
        self.stepGoal = snapshot.stepGoal
        self.ringFraction = snapshot.stepProgress.map { min(max($0, 0), 1) }
        self.widgetURL = FitnessWidgets.deepLink
    }

    /// The entry as JSON-ready values; missing values are absent.
    public func jsonValue() -> PlistValue {
        var d: [String: PlistValue] = [
            "family": .string(FitnessWidgetFamily.systemSmall.rawValue), "date": .int(dateMs),
            "stepGoal": .int(Int64(stepGoal)), "url": .string(widgetURL),
        ]
        if let steps { d["steps"] = .int(Int64(steps)) }
        if let ringFraction { d["ringFraction"] = .double(ringFraction) }
        return .dictionary(d)
    }

    /// "今日の歩数 8,432歩 (84%)" / "Today's steps 8,432 steps (84%)", with "—" when missing.
    public func text(_ language: AppLanguage) -> String {
        let ring = ringFraction == nil ? "" : " (\(FitnessFormat.percent(ringFraction)))"
        return "\(L10n.fitnessTodaySteps(language)) \(FitnessFormat.steps(steps)(language))\(ring)"
    }
}

/// The medium widget: steps, calories and heart rate side by side.
public struct FitnessMediumWidgetEntry: Sendable, Hashable {
    public var dateMs: EpochMs
    public var steps: Int?
    public var stepGoal: Int
    public var caloriesKcal: Double?
    public var heartRateBpm: Double?
    /// `fitness://dashboard`.
    public var widgetURL: String

    /// The entry for `snapshot` at `dateMs`.
    public init(dateMs: EpochMs, snapshot: FitnessWidgetSnapshot) {
        self.dateMs = dateMs
        self.steps = snapshot.todaySteps
        self.stepGoal = snapshot.stepGoal
        self.caloriesKcal = snapshot.todayCaloriesKcal
        self.heartRateBpm = snapshot.latestHeartRate
        self.widgetURL = FitnessWidgets.deepLink
    }

    /// The entry as JSON-ready values; missing values are absent.
    public func jsonValue() -> PlistValue {
        var d: [String: PlistValue] = [
            "family": .string(FitnessWidgetFamily.systemMedium.rawValue), "date": .int(dateMs),
            "stepGoal": .int(Int64(stepGoal)), "url": .string(widgetURL),
        ]
        if let steps { d["steps"] = .int(Int64(steps)) }
        if let caloriesKcal { d["caloriesKcal"] = .double(caloriesKcal) }
        if let heartRateBpm { d["heartRateBpm"] = .double(heartRateBpm) }
        return .dictionary(d)
    }

    /// The three columns, separated by " | ", each "title value"; "—" when missing.
    public func text(_ language: AppLanguage) -> String {
        [
            "\(L10n.fitnessSteps(language)) \(FitnessFormat.steps(steps)(language))",
            "\(L10n.fitnessActiveCalories(language)) \(FitnessFormat.kcal(caloriesKcal))",
            "\(L10n.fitnessHeartRate(language)) \(FitnessFormat.bpm(heartRateBpm))",
        ].joined(separator: " | ")
    }
}

/// The timeline provider's pure part (`getTimeline` in the seed).
public enum FitnessWidgets {
    /// The seed's refresh: a new timeline 15 minutes after the last.
    public static let refreshIntervalMs: Int64 = 15 * 60 * 1000
    /// The deep link every widget opens: the app's dashboard tab.
    public static let deepLink = "fitness://dashboard"
    /// The fitness theme's accent colour (green).
    public static let accentColorHex = "#30D158"

    /// The policy for a timeline made at `nowMs`: `.after(now + 15 min)`.
    public static func reloadPolicy(nowMs: EpochMs) -> FitnessWidgetReloadPolicy { .after(nowMs + refreshIntervalMs) }

    /// What a timeline made at `nowMs` shows, entry by entry: the App Group as it is now, and,
    /// when the local day its today values were summed over ends after now (`dayEndMs`), an
    /// entry at that midnight without them — the new day has none yet, and yesterday's steps
    /// must not stand as today's until the next reload (up to 15 minutes after midnight), as the
    /// countdown widget's timeline turns at midnight too.
    public static func timelineSnapshots(_ snapshot: FitnessWidgetSnapshot, nowMs: EpochMs) -> [(dateMs: EpochMs, snapshot: FitnessWidgetSnapshot)] {
        var entries = [(dateMs: nowMs, snapshot: snapshot)]
        if let end = snapshot.dayEndMs, end > nowMs, snapshot.todaySteps != nil || snapshot.todayCaloriesKcal != nil {
            var newDay = snapshot
            newDay.todaySteps = nil
            newDay.todayCaloriesKcal = nil
            entries.append((end, newDay))
        }
        return entries
    }

    /// The small widget's timeline: an entry now (and one at midnight, `timelineSnapshots`),
    /// reload after 15 minutes.
    public static func makeSmallTimeline(snapshot: FitnessWidgetSnapshot, nowMs: EpochMs) -> FitnessWidgetTimeline<FitnessSmallWidgetEntry> {
        FitnessWidgetTimeline(entries: timelineSnapshots(snapshot, nowMs: nowMs).map { FitnessSmallWidgetEntry(dateMs: $0.dateMs, snapshot: $0.snapshot) },
                              policy: reloadPolicy(nowMs: nowMs))
    }

    /// The medium widget's timeline: an entry now (and one at midnight), reload after 15 minutes.
    public static func makeMediumTimeline(snapshot: FitnessWidgetSnapshot, nowMs: EpochMs) -> FitnessWidgetTimeline<FitnessMediumWidgetEntry> {
        FitnessWidgetTimeline(entries: timelineSnapshots(snapshot, nowMs: nowMs).map { FitnessMediumWidgetEntry(dateMs: $0.dateMs, snapshot: $0.snapshot) },
                              policy: reloadPolicy(nowMs: nowMs))
    }

    /// The gallery placeholder: every value missing, so every value shows "—".
    public static func placeholderSnapshot(stepGoal: Int = AppSettings.defaults.stepGoal) -> FitnessWidgetSnapshot {
        FitnessWidgetSnapshot(todaySteps: nil, stepGoal: stepGoal, todayCaloriesKcal: nil, latestHeartRate: nil)
    }
}
