import PeerLinkCore

// Texts of the Apple Watch companion (seed 001, "Apple Watch コンパニオンアプリ").
//
// Every member is prefixed `watch` so that phone-side features can declare their own
// `steps`, `heartRate`… without colliding. Japanese words that appear in the seed
// (ランニング, ウォーキング, サイクリング, 開始, 一時停止, 停止, 心拍数, 消費カロリー, 経過時間,
// 今日のアクティビティ, 歩数) are copied from it exactly; the others are ours.

extension L10n {
    // MARK: - Screens

    /// Title of the workout recording screen (seed: ワークアウト記録画面).
    public static let watchWorkoutTitle = LocalizedText(ja: "ワークアウト記録", en: "Workout")
    /// Title of today's activity screen (seed: 今日のアクティビティ画面).
    public static let watchTodayActivityTitle = LocalizedText(ja: "今日のアクティビティ", en: "Today's activity")
    /// Title of the circular step gauge complication.
    public static let watchComplicationTitle = LocalizedText(ja: "歩数ゲージ", en: "Steps gauge")

    // MARK: - Activity types and locations

    /// The running activity (seed: ランニング).
    public static let watchActivityRunning = LocalizedText(ja: "ランニング", en: "Running")
    /// The walking activity (seed: ウォーキング).
    public static let watchActivityWalking = LocalizedText(ja: "ウォーキング", en: "Walking")
    /// The cycling activity (seed: サイクリング).
    public static let watchActivityCycling = LocalizedText(ja: "サイクリング", en: "Cycling")
    /// An indoor workout.
    public static let watchLocationIndoor = LocalizedText(ja: "屋内", en: "Indoor")
    /// An outdoor workout.
    public static let watchLocationOutdoor = LocalizedText(ja: "屋外", en: "Outdoor")

    // MARK: - Buttons

    /// The start button (seed: 開始).
    public static let watchButtonStart = LocalizedText(ja: "開始", en: "Start")
    /// The pause button (seed: 一時停止).
    public static let watchButtonPause = LocalizedText(ja: "一時停止", en: "Pause")
    /// The resume button.
    public static let watchButtonResume = LocalizedText(ja: "再開", en: "Resume")
    /// The stop button (seed: 停止).
    public static let watchButtonStop = LocalizedText(ja: "停止", en: "Stop")
    /// The end button of a stopped workout (saves it).
    public static let watchButtonEnd = LocalizedText(ja: "終了", en: "End")

    // MARK: - Metric labels

    /// Heart rate label (seed: 心拍数).
    public static let watchHeartRate = LocalizedText(ja: "心拍数", en: "Heart rate")
    /// Active calories label (seed: 消費カロリー).
    public static let watchCalories = LocalizedText(ja: "消費カロリー", en: "Calories")
    /// Elapsed time label (seed: 経過時間).
    public static let watchElapsedTime = LocalizedText(ja: "経過時間", en: "Elapsed time")
    /// Steps label (seed: 歩数).
    public static let watchSteps = LocalizedText(ja: "歩数", en: "Steps")
    /// Goal label, as in "goal 10,000".
    public static let watchGoal = LocalizedText(ja: "目標", en: "Goal")
    /// Shown where a value is not known yet (no heart-rate sample, no data).
    public static let watchNoValue = LocalizedText(ja: "--", en: "--")

    // MARK: - Session states

    /// HKWorkoutSessionState.notStarted.
    public static let watchStateNotStarted = LocalizedText(ja: "未開始", en: "Not started")
    /// HKWorkoutSessionState.prepared.
    public static let watchStatePrepared = LocalizedText(ja: "準備完了", en: "Prepared")
    /// HKWorkoutSessionState.running.
    public static let watchStateRunning = LocalizedText(ja: "記録中", en: "Running")
    /// HKWorkoutSessionState.paused.
    public static let watchStatePaused = LocalizedText(ja: "一時停止中", en: "Paused")
    /// HKWorkoutSessionState.stopped.
    public static let watchStateStopped = LocalizedText(ja: "停止済み", en: "Stopped")
    /// HKWorkoutSessionState.ended.
    public static let watchStateEnded = LocalizedText(ja: "終了", en: "Ended")
}
