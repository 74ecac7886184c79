import PeerLinkCore

/// The countdown-goals app's texts. The Japanese of the seed's acceptance criteria is copied
/// exactly ("目標日が過去です", "今日が目標日です", "目標年齢は現在の年齢より大きく設定してください",
/// "目標達成！", "目標を設定してください"); the English is ours.
extension L10n {
    // MARK: - Countdown status (seed wording)

    /// A date goal whose day has gone by (seed 1.2).
    public static let countdownTargetDatePassed = LocalizedText(
        ja: "目標日が過去です", en: "The target date is in the past")
    /// A date goal whose day is today (seed 1.3).
    public static let countdownTargetDateIsToday = LocalizedText(
        ja: "今日が目標日です", en: "Today is the target date")
    /// An age goal at or below the current age (seed 2.3).
    public static let countdownTargetAgeNotAboveCurrentAge = LocalizedText(
        ja: "目標年齢は現在の年齢より大きく設定してください",
        en: "Set a target age greater than your current age")
    /// The count reached 0 for an age goal (seed 3.3).
    public static let countdownAchieved = LocalizedText(ja: "目標達成！", en: "Goal achieved!")
    /// The widget with no goal (seed 6.2).
    public static let countdownNoGoal = LocalizedText(
        ja: "目標を設定してください", en: "Set a goal")
    /// An age goal while no birth date is stored.
    public static let countdownBirthDateMissing = LocalizedText(
        ja: "年齢目標には生年月日の設定が必要です",
        en: "Enter your birth date to count down to an age")
    /// A stored goal that lacks its target (a date goal with no date, an age goal with no age).
    public static let countdownTargetMissing = LocalizedText(
        ja: "目標が設定されていません", en: "This goal has no target")

    /// The days-left label: "あと12日" / "12 days left", "1 day left".
    public static func countdownDaysLeft(_ days: Int) -> LocalizedText {
        LocalizedText(ja: "あと\(days)日", en: days == 1 ? "1 day left" : "\(days) days left")
    }

    // MARK: - Validation

    /// A title that is empty or only white space.
    public static let countdownTitleEmpty = LocalizedText(
        ja: "タイトルを入力してください", en: "Enter a title")
    /// A title over the length limit.
    public static func countdownTitleTooLong(maxCharacters: Int) -> LocalizedText {
        LocalizedText(
            ja: "タイトルは\(maxCharacters)文字以内で入力してください",
            en: "Use at most \(maxCharacters) characters for the title")
    }
    /// A date goal saved without a date.
    public static let countdownTargetDateMissing = LocalizedText(
        ja: "目標日を選択してください", en: "Choose a target date")
    /// An age goal saved without an age.
    public static let countdownTargetAgeMissing = LocalizedText(
        ja: "目標年齢を入力してください", en: "Enter a target age")
    /// A target age outside the allowed range.
    public static func countdownTargetAgeOutOfRange(_ range: ClosedRange<Int>) -> LocalizedText {
        LocalizedText(
            ja: "目標年齢は\(range.lowerBound)〜\(range.upperBound)歳で設定してください",
            en: "Set a target age from \(range.lowerBound) to \(range.upperBound)")
    }
    /// A birth date after today.
    public static let countdownBirthDateInFuture = LocalizedText(
        ja: "生年月日に未来の日付は設定できません", en: "Your birth date cannot be in the future")
    /// A birth date too long ago to be real.
    public static func countdownBirthDateTooEarly(earliestYear: Int) -> LocalizedText {
        LocalizedText(
            ja: "生年月日は\(earliestYear)年以降の日付を設定してください",
            en: "Enter a birth date in \(earliestYear) or later")
    }

    /// Creation refused because the list is full.
    public static func countdownTooManyGoals(_ maxGoals: Int) -> LocalizedText {
        LocalizedText(ja: "目標は\(maxGoals)件まで設定できます", en: "You can set up to \(maxGoals) goals")
    }

    // MARK: - Deletion

    /// The confirmation dialog's question (seed 4.2).
    public static func countdownDeleteConfirmation(title: String) -> LocalizedText {
        LocalizedText(ja: "「\(title)」を削除しますか？", en: "Delete “\(title)”?")
    }
    /// The dialog's destructive button.
    public static let countdownDeleteButton = LocalizedText(ja: "削除", en: "Delete")
    /// The dialog's cancel button.
    public static let countdownCancelButton = LocalizedText(ja: "キャンセル", en: "Cancel")

    // MARK: - Watch complication (short texts)

    /// Days left in a complication: "12日" / "12d".
    public static func countdownShortDays(_ days: Int) -> LocalizedText {
        LocalizedText(ja: "\(days)日", en: "\(days)d")
    }
    /// A date goal on its day, short.
    public static let countdownShortToday = LocalizedText(ja: "今日", en: "Today")
    /// An achieved goal, short.
    public static let countdownShortAchieved = LocalizedText(ja: "達成", en: "Done")
    /// A goal that cannot count (past, invalid or missing data), short.
    public static let countdownShortUnavailable = LocalizedText(ja: "--", en: "--")
    /// The complication with no goal, short.
    public static let countdownShortNoGoal = LocalizedText(ja: "目標なし", en: "No goal")
}
