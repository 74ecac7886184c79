import PeerLinkCore

/// One bar of the sleep chart.
public struct SleepStageBar: Sendable, Hashable {
    public var stage: SleepStage
    public var minutes: Double

    /// A bar of `minutes` for `stage`.
    public init(stage: SleepStage, minutes: Double) {
        self.stage = stage
        self.minutes = minutes
    }
}

/// The dashboard tab (タブ1) as data: today's steps and ring, the calorie ring, heart rate
/// (latest and the past 24 h), and last night's sleep bars with the score and evaluation.
///
/// Every value is nil (drawn as "—") when its type is not readable or has no data; a zero is
/// only ever shown when it was measured.
public struct FitnessDashboard: Sendable, Hashable {
    /// Today, in the device's time zone.
    public var day: CivilDate
    public var steps: Int?
    public var stepGoal: Int
    /// steps ÷ goal, not capped (rings overlap past 100 %); nil without steps.
    public var stepProgress: Double?
    public var caloriesKcal: Double?
    public var calorieGoalKcal: Int
    /// kcal ÷ goal, not capped; nil without calories.
    public var calorieProgress: Double?
    public var latestHeartRate: HeartRateReading?
    /// The past 24 hours, oldest first; empty when unreadable or without readings.
    public var heartRateSeries: [HeartRateReading]
    public var sleep: SleepSummary?
    public var authorization: HealthAuthorization

    /// A dashboard from its values; the progress values are derived from the goals.
    public init(
        day: CivilDate, steps: Int?, stepGoal: Int, caloriesKcal: Double?, calorieGoalKcal: Int,
        latestHeartRate: HeartRateReading?, heartRateSeries: [HeartRateReading], sleep: SleepSummary?,
        authorization: HealthAuthorization
    ) {
        self.day = day
        self.steps = steps
        self.stepGoal = stepGoal
        self.stepProgress = steps.flatMap { Self.progress(Double($0), goal: stepGoal) }
        self.caloriesKcal = caloriesKcal
        self.calorieGoalKcal = calorieGoalKcal
        self.calorieProgress = caloriesKcal.flatMap { Self.progress($0, goal: calorieGoalKcal) }
        self.latestHeartRate = latestHeartRate
        self.heartRateSeries = heartRateSeries
        self.sleep = sleep
        self.authorization = authorization
    }

    /// Builds the dashboard at `nowMs` from the samples the phone holds.
    public static func make(
        samples: [HealthSample], settings: AppSettings, authorization: HealthAuthorization,
        nowMs: EpochMs, calendar: LocalCalendar, statistics: HealthStatistics = HealthStatistics()
    ) -> FitnessDashboard {
        let readable = authorization.readable(samples)
        let today = calendar.civilDate(nowMs)
        return FitnessDashboard(
            day: today,
            steps: statistics.dailySum(of: .steps, in: readable, on: today, calendar: calendar).map(FitnessFormat.roundedCount),
            stepGoal: settings.stepGoal,
            caloriesKcal: statistics.dailySum(of: .activeEnergy, in: readable, on: today, calendar: calendar),
            calorieGoalKcal: settings.activeEnergyGoalKcal,
            latestHeartRate: statistics.latestHeartRate(in: readable, atOrBeforeMs: nowMs),
            heartRateSeries: statistics.heartRateSeries(in: readable, endingAtMs: nowMs),
            sleep: SleepAnalysis(statistics: statistics).lastNight(in: readable, nowMs: nowMs, calendar: calendar),
            authorization: authorization)
    }

    /// value ÷ goal; nil for a goal ≤ 0.
    static func progress(_ value: Double, goal: Int) -> Double? {
        goal > 0 ? value / Double(goal) : nil
    }

    // MARK: - Derived

    /// The sleep chart's bars (in `SleepSummary.barStages` order); empty without sleep data.
    public var sleepBars: [SleepStageBar] {
        guard let sleep else { return [] }
        return SleepSummary.barStages.map { SleepStageBar(stage: $0, minutes: sleep.minutes($0)) }
    }

    /// The step ring's fill, 0…1.
    public var stepRingFraction: Double? { stepProgress.map { min(max($0, 0), 1) } }
    /// The calorie ring's fill, 0…1.
    public var calorieRingFraction: Double? { calorieProgress.map { min(max($0, 0), 1) } }

    // MARK: - Output

    /// The dashboard as JSON-ready values; missing values are absent.
    public func jsonValue() -> PlistValue {
        var d: [String: PlistValue] = [
            "day": .string(day.description), "stepGoal": .int(Int64(stepGoal)),
            "calorieGoalKcal": .int(Int64(calorieGoalKcal)),
            "heartRateSeries": .array(heartRateSeries.map(\.plistValue)),
            "sleepBars": .array(sleepBars.map { ["stage": .string($0.stage.name), "minutes": .double($0.minutes)] }),
            "authorization": authorization.plistValue,
        ]
        if let steps { d["steps"] = .int(Int64(steps)) }
        if let stepProgress { d["stepProgress"] = .double(stepProgress) }
        if let caloriesKcal { d["caloriesKcal"] = .double(caloriesKcal) }
        if let calorieProgress { d["calorieProgress"] = .double(calorieProgress) }
        if let latestHeartRate { d["latestHeartRate"] = latestHeartRate.plistValue }
        if let sleep { d["sleep"] = sleep.plistValue }
        return .dictionary(d)
    }

    /// The dashboard as lines of text, "—" for every missing value.
    public func text(_ language: AppLanguage) -> String {
        var lines: [String] = [L10n.fitnessTabDashboard(language) + " " + day.description]
        lines.append("\(L10n.fitnessTodaySteps(language)): \(FitnessFormat.steps(steps)(language))" + Self.percentSuffix(stepProgress))
        lines.append("\(L10n.fitnessActiveCalories(language)): \(FitnessFormat.kcal(caloriesKcal))" + Self.percentSuffix(calorieProgress))
        let series = heartRateSeries.isEmpty ? "" : " (\(L10n.fitnessPast24HoursReadings(heartRateSeries.count)(language)))"
        lines.append("\(L10n.fitnessHeartRate(language)): \(FitnessFormat.bpm(latestHeartRate?.bpm))" + series)
        lines.append(sleepLine(language))
        return lines.joined(separator: "\n")
    }

    /// "睡眠スコア: 82点 良好 — よく眠れています" and the bars, or the placeholder.
    private func sleepLine(_ language: AppLanguage) -> String {
        let title = L10n.fitnessSleepScore(language)
        guard let sleep else { return "\(title): \(L10n.fitnessPlaceholder(language))" }
        var line = "\(title): "
        if let score = sleep.score, let evaluation = sleep.evaluation {
            line += "\(L10n.fitnessScoreValue(score)(language)) \(evaluation.label(language)) — \(evaluation.message(language))"
        } else {
            line += L10n.fitnessPlaceholder(language)
        }
        let bars = sleepBars.map {
            "\(L10n.fitnessSleepStage($0.stage)(language)) \(L10n.fitnessMinutesValue(FitnessFormat.roundedCount($0.minutes))(language))"
        }
        return line + "\n  " + bars.joined(separator: ", ")
    }

    private static func percentSuffix(_ progress: Double?) -> String {
        progress == nil ? "" : " (\(FitnessFormat.percent(progress)))"
    }
}
