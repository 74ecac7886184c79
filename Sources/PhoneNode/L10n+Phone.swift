import PeerLinkCore
import FitnessDomain

/// Texts of the phone node's screens and replies that the shared catalogue does not have.
/// The seeds give no wording for them; the Japanese follows the seeds' style.
extension L10n {
    /// A step goal outside the allowed range is refused (settings, 歩数目標の変更).
    public static func phoneStepGoalOutOfRange(_ range: ClosedRange<Int>) -> LocalizedText { stepGoalOutOfRange(range) }

    /// The reply to accepting the run prompt: the watch is asked to start the workout.
    public static let phoneStartingWorkoutOnWatch = LocalizedText(
        ja: "Apple Watchでランニングのワークアウトを開始します", en: "Starting a running workout on Apple Watch")

    /// The dashboard's line while the first-launch authorization is unanswered.
    public static let phoneAuthorizationNeeded = LocalizedText(
        ja: "ヘルスケアデータへのアクセスを許可してください", en: "Allow access to your Health data")

    /// Heading of the pending notifications.
    public static let phoneNotificationsPending = LocalizedText(ja: "予定されている通知", en: "Pending notifications")
    /// Heading of the delivered notifications.
    public static let phoneNotificationsDelivered = LocalizedText(ja: "配信済みの通知", en: "Delivered notifications")

    /// The live workout mirrored from the watch.
    public static let phoneLiveWorkout = LocalizedText(ja: "ワークアウト中", en: "Workout in progress")

    /// Heading of the widgets screen.
    public static let phoneWidgets = LocalizedText(ja: "ウィジェット", en: "Widgets")
    /// The widgets' reloads today against the budget: "今日の更新 3/72回".
    public static func phoneWidgetReloads(used: Int, limit: Int) -> LocalizedText {
        LocalizedText(ja: "今日の更新 \(used)/\(limit)回", en: "Reloads today: \(used)/\(limit)")
    }
    /// A widget that has no timeline yet.
    public static let phoneWidgetNotLoaded = LocalizedText(ja: "未読み込み", en: "Not loaded")

    /// Heading of the goals screen.
    public static let phoneGoals = LocalizedText(ja: "目標", en: "Goals")
    /// Heading of the workouts list.
    public static let phoneWorkouts = LocalizedText(ja: "ワークアウト", en: "Workouts")
}
