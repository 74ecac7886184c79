import PeerLinkCore

/// The fitness tracker's texts. Japanese from the seed is copied exactly: the tab and card
/// names (ダッシュボード, 履歴, 設定, 今日の歩数, 消費カロリー, 心拍数, 睡眠スコア), the settings
/// rows (歩数目標の変更, 通知の ON/OFF, HealthKit 連携状態の確認, データをエクスポート) and the
/// run-detection prompt (ワークアウトを開始しますか？). The English, and Japanese the seed does not
/// give, are ours.
extension L10n {
    // MARK: - Tabs and cards (seed wording)

    /// "ダッシュボード" / "Dashboard".
    public static let fitnessTabDashboard = LocalizedText(ja: "ダッシュボード", en: "Dashboard")
    /// "履歴" / "History".
    public static let fitnessTabHistory = LocalizedText(ja: "履歴", en: "History")
    /// "設定" / "Settings".
    public static let fitnessTabSettings = LocalizedText(ja: "設定", en: "Settings")
    /// "今日の歩数" / "Today's steps".
    public static let fitnessTodaySteps = LocalizedText(ja: "今日の歩数", en: "Today's steps")
    /// "消費カロリー" / "Active calories".
    public static let fitnessActiveCalories = LocalizedText(ja: "消費カロリー", en: "Active calories")
    /// "心拍数" / "Heart rate".
    public static let fitnessHeartRate = LocalizedText(ja: "心拍数", en: "Heart rate")
    /// "睡眠スコア" / "Sleep score".
    public static let fitnessSleepScore = LocalizedText(ja: "睡眠スコア", en: "Sleep score")
    /// Steps as a data type (history columns, authorization rows).
    public static let fitnessSteps = LocalizedText(ja: "歩数", en: "Steps")
    /// Sleep as a data type (authorization rows, CSV description).
    public static let fitnessSleep = LocalizedText(ja: "睡眠", en: "Sleep")

    // MARK: - Placeholders

    /// Shown instead of a value when there is no data or reading is not allowed; never "0".
    public static let fitnessPlaceholder = LocalizedText(ja: "—", en: "—")

    // MARK: - Sleep evaluation (bands: 80+ good, 60–79 fair, under 60 poor)

    /// "良好" / "Good".
    public static let fitnessSleepGood = LocalizedText(ja: "良好", en: "Good")
    /// "普通" / "Fair".
    public static let fitnessSleepFair = LocalizedText(ja: "普通", en: "Fair")
    /// "不足" / "Poor".
    public static let fitnessSleepPoor = LocalizedText(ja: "不足", en: "Poor")
    /// "よく眠れています" / "You slept well".
    public static let fitnessSleepGoodMessage = LocalizedText(ja: "よく眠れています", en: "You slept well")
    /// "まずまずの睡眠です" / "Your sleep was fair".
    public static let fitnessSleepFairMessage = LocalizedText(ja: "まずまずの睡眠です", en: "Your sleep was fair")
    /// "睡眠が不足しています" / "You need more sleep".
    public static let fitnessSleepPoorMessage = LocalizedText(ja: "睡眠が不足しています", en: "You need more sleep")
    /// Sleep stage names for the bars.
    public static func fitnessSleepStage(_ stage: SleepStage) -> LocalizedText {
        switch stage {
        case .inBed: LocalizedText(ja: "ベッド", en: "In bed")
        case .asleepUnspecified: LocalizedText(ja: "睡眠", en: "Asleep")
        case .awake: LocalizedText(ja: "覚醒", en: "Awake")
        case .asleepCore: LocalizedText(ja: "コア", en: "Core")
        case .asleepDeep: LocalizedText(ja: "深い睡眠", en: "Deep")
        case .asleepREM: LocalizedText(ja: "レム睡眠", en: "REM")
        }
    }

    // MARK: - History (seed: 週間/月間の歩数推移グラフ, 日別の詳細データリスト)

    /// "週間" / "Weekly".
    public static let fitnessHistoryWeekly = LocalizedText(ja: "週間", en: "Weekly")
    /// "月間" / "Monthly".
    public static let fitnessHistoryMonthly = LocalizedText(ja: "月間", en: "Monthly")
    /// "歩数推移" / "Step trend".
    public static let fitnessStepTrend = LocalizedText(ja: "歩数推移", en: "Step trend")
    /// "日別の詳細データ" / "Daily details".
    public static let fitnessDailyDetails = LocalizedText(ja: "日別の詳細データ", en: "Daily details")

    // MARK: - Settings (seed wording)

    /// "歩数目標の変更" / "Change step goal".
    public static let fitnessChangeStepGoal = LocalizedText(ja: "歩数目標の変更", en: "Change step goal")
    /// "通知の ON/OFF" / "Notifications on/off".
    public static let fitnessNotificationsToggle = LocalizedText(ja: "通知の ON/OFF", en: "Notifications on/off")
    /// "HealthKit 連携状態の確認" / "HealthKit connection status".
    public static let fitnessHealthKitStatus = LocalizedText(ja: "HealthKit 連携状態の確認", en: "HealthKit connection status")
    /// "データをエクスポート" / "Export data".
    public static let fitnessExportData = LocalizedText(ja: "データをエクスポート", en: "Export data")
    /// "週間サマリー通知" / "Weekly summary notification".
    public static let fitnessWeeklySummaryToggle = LocalizedText(ja: "週間サマリー通知", en: "Weekly summary notification")
    /// "ランニング自動検出" / "Automatic run detection".
    public static let fitnessRunDetectionToggle = LocalizedText(ja: "ランニング自動検出", en: "Automatic run detection")

    // MARK: - Authorization

    /// "未設定" / "Not set up".
    public static let fitnessAuthNotDetermined = LocalizedText(ja: "未設定", en: "Not set up")
    /// "連携済み" / "Connected".
    public static let fitnessAuthGranted = LocalizedText(ja: "連携済み", en: "Connected")
    /// "許可されていません" / "Not allowed".
    public static let fitnessAuthDenied = LocalizedText(ja: "許可されていません", en: "Not allowed")

    // MARK: - Notifications

    /// The run-detection prompt (seed wording, exact).
    public static let fitnessRunDetectedTitle = LocalizedText(ja: "ワークアウトを開始しますか？", en: "Start a workout?")
    /// The run-detection prompt's body: the workout counts from the run's start.
    public static let fitnessRunDetectedBody = LocalizedText(
        ja: "ランニングを検出しました。記録は走り始めた時刻から始まります。",
        en: "It looks like you're running. The workout will count from when you started.")
    /// "先週の運動サマリー" / "Last week's activity summary".
    public static let fitnessWeeklySummaryTitle = LocalizedText(ja: "先週の運動サマリー", en: "Last week's activity summary")

    /// The weekly summary body. `groupedSteps` is "52,340" or nil, `heartRate` "72 bpm" or nil;
    /// nil values show "—".
    public static func fitnessWeeklySummaryBody(groupedSteps: String?, heartRate: String?, workouts: Int) -> LocalizedText {
        let dash = fitnessPlaceholder.ja
        return LocalizedText(
            ja: "合計歩数 \(groupedSteps.map { "\($0)歩" } ?? dash)、平均心拍数 \(heartRate ?? dash)、ワークアウト回数 \(workouts)回",
            en: "Steps: \(groupedSteps ?? dash) · Average heart rate: \(heartRate ?? dash) · Workouts: \(workouts)")
    }

    /// A step goal outside the allowed range is refused (settings, 歩数目標の変更), on either device.
    public static func stepGoalOutOfRange(_ range: ClosedRange<Int>) -> LocalizedText {
        let low = FitnessFormat.grouped(range.lowerBound), high = FitnessFormat.grouped(range.upperBound)
        return LocalizedText(
            ja: "歩数目標は\(low)〜\(high)歩の範囲で設定してください",
            en: "Set a step goal from \(low) to \(high) steps")
    }

    // MARK: - Values with units

    /// "8,432歩" / "8,432 steps" (the number already grouped).
    public static func fitnessStepsValue(_ grouped: String, count: Int) -> LocalizedText {
        LocalizedText(ja: "\(grouped)歩", en: count == 1 ? "\(grouped) step" : "\(grouped) steps")
    }
    /// "82点" / "82 points".
    public static func fitnessScoreValue(_ score: Int) -> LocalizedText {
        LocalizedText(ja: "\(score)点", en: score == 1 ? "1 point" : "\(score) points")
    }
    /// "7時間30分" / "7 h 30 min".
    public static func fitnessHoursMinutes(_ totalMinutes: Int) -> LocalizedText {
        let h = totalMinutes / 60, m = totalMinutes % 60
        return LocalizedText(ja: "\(h)時間\(m)分", en: "\(h) h \(m) min")
    }
    /// "240分" / "240 min".
    public static func fitnessMinutesValue(_ minutes: Int) -> LocalizedText {
        LocalizedText(ja: "\(minutes)分", en: "\(minutes) min")
    }
    /// "過去24時間 35件" / "Past 24 h: 35 readings".
    public static func fitnessPast24HoursReadings(_ count: Int) -> LocalizedText {
        LocalizedText(ja: "過去24時間 \(count)件", en: count == 1 ? "Past 24 h: 1 reading" : "Past 24 h: \(count) readings")
    }
    /// "平均 8,432歩" / "Average 8,432 steps" (the value already formatted).
    public static func fitnessAverage(_ value: LocalizedText) -> LocalizedText {
        LocalizedText(ja: "平均 \(value.ja)", en: "Average \(value.en)")
    }
}
