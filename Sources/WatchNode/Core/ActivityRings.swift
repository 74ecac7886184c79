import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// One ring: a value against a goal.
public struct ActivityRing: Sendable, Hashable {
    /// Today's value (never negative).
    public var value: Double
    /// The goal (from `AppSettings`).
    public var goal: Double

    /// A ring; a negative or non-finite value counts as 0.
    public init(value: Double, goal: Double) {
        self.value = value.isFinite ? max(0, value) : 0
        self.goal = goal
    }

    /// `value / goal`; may exceed 1 (the ring laps itself, as Apple's rings do). 0 when the
    /// goal is not positive.
    public var fraction: Double { goal > 0 ? value / goal : 0 }

    /// True once the goal is reached.
    public var isClosed: Bool { goal > 0 && value >= goal }
}

/// Today's activity screen (seed: 今日のアクティビティ画面): steps and active calories as
/// rings against the goals the phone set (same `AppSettings`, seed: iPhone アプリと同じ目標値).
///
/// The totals come in already merged across sources (HealthKit's statistics do that on the
/// phone; see APPLE-SEMANTICS): this value only compares them with the goals.
public struct ActivityRings: Sendable, Hashable {
    /// The local day the totals are for.
    public var day: CivilDate
    /// Steps against `AppSettings.stepGoal`.
    public var steps: ActivityRing
    /// Active energy (kcal) against `AppSettings.activeEnergyGoalKcal`.
    public var energy: ActivityRing

    /// The rings for `day` from today's totals and the current settings.
    public init(day: CivilDate, stepsToday: Int, energyTodayKcal: Double, settings: AppSettings) {
        self.day = day
        steps = ActivityRing(value: Double(stepsToday), goal: Double(settings.stepGoal))
        energy = ActivityRing(value: energyTodayKcal, goal: Double(settings.activeEnergyGoalKcal))
    }

    /// The same totals against new goals (a settings change synced from the phone).
    public func applying(_ settings: AppSettings) -> ActivityRings {
        ActivityRings(day: day, stepsToday: Int(steps.value), energyTodayKcal: energy.value, settings: settings)
    }

    // MARK: - Rendering

    /// The screen as text, e.g.
    /// ```
    /// 今日のアクティビティ 2025-06-02
    /// 歩数: 8,432 / 10,000 (84%)
    /// 消費カロリー: 342.5 / 500 kcal (68%)
    /// ```
    public func text(_ language: AppLanguage) -> String {
        [
            "\(L10n.watchTodayActivityTitle(language)) \(day)",
            "\(L10n.watchSteps(language)): \(WatchFormat.grouped(Int(steps.value))) / "
                + "\(WatchFormat.grouped(Int(steps.goal))) (\(WatchFormat.percent(steps.fraction)))",
            "\(L10n.watchCalories(language)): \(WatchFormat.oneDecimal(energy.value)) / "
                + "\(WatchFormat.grouped(Int(energy.goal))) kcal (\(WatchFormat.percent(energy.fraction)))",
        ].joined(separator: "\n")
    }

    /// The screen as JSON: for each ring its value, goal, fraction and whether it is closed
    /// (steps as integers, energy as doubles).
    public func jsonValue() -> PlistValue {
        func ring(_ r: ActivityRing, counts: Bool) -> PlistValue {
            [
                "value": counts ? .int(Int64(r.value)) : .double(r.value), "goal": counts ? .int(Int64(r.goal)) : .double(r.goal),
                "fraction": .double(r.fraction), "closed": .bool(r.isClosed),
            ]
        }
        return [
            "screen": "todayActivity", "day": .string(day.description), "steps": ring(steps, counts: true),
            "energyKcal": ring(energy, counts: false),
        ]
    }
}
