import PeerLinkCore

/// The replies of the countdown commands (`CountdownCommands`). The seed gives no wording for
/// them; the Japanese follows the seed's style ("目標「…」を…しました").
extension L10n {
    /// A goal was added.
    public static func countdownCommandAdded(_ title: String) -> LocalizedText {
        LocalizedText(ja: "目標「\(title)」を追加しました", en: "Added the goal “\(title)”")
    }

    /// A goal was edited.
    public static func countdownCommandUpdated(_ title: String) -> LocalizedText {
        LocalizedText(ja: "目標「\(title)」を更新しました", en: "Updated the goal “\(title)”")
    }

    /// A goal was deleted after confirmation.
    public static func countdownCommandDeleted(_ title: String) -> LocalizedText {
        LocalizedText(ja: "目標「\(title)」を削除しました", en: "Deleted the goal “\(title)”")
    }

    /// A goal was moved to a 1-based list position.
    public static func countdownCommandMoved(_ title: String, position: Int) -> LocalizedText {
        LocalizedText(ja: "目標「\(title)」を\(position)番目に移動しました", en: "Moved “\(title)” to position \(position)")
    }

    /// The confirmation dialog was cancelled.
    public static let countdownCommandDeletionCancelled = LocalizedText(ja: "削除をキャンセルしました", en: "Deletion cancelled")

    /// `goal confirm` / `goal cancel` with no dialog open.
    public static let countdownCommandNothingToConfirm = LocalizedText(
        ja: "確認待ちの削除はありません", en: "No deletion is waiting for confirmation")

    /// An edit or move that changes nothing.
    public static let countdownCommandNoChange = LocalizedText(ja: "変更はありません", en: "Nothing changed")

    /// A goal reference that names no goal.
    public static func countdownCommandGoalNotFound(_ ref: String) -> LocalizedText {
        LocalizedText(ja: "目標が見つかりません: \(ref)", en: "No such goal: \(ref)")
    }

    /// A date that is not YYYY-MM-DD or not a real day.
    public static let countdownCommandBadDate = LocalizedText(
        ja: "日付はYYYY-MM-DDの形式で入力してください", en: "Enter the date as YYYY-MM-DD")

    /// The birth date was stored.
    public static let countdownCommandBirthDateSaved = LocalizedText(ja: "生年月日を保存しました", en: "Birth date saved")

    /// The profile's label.
    public static let countdownCommandBirthDateLabel = LocalizedText(ja: "生年月日", en: "Birth date")

    /// A value not entered yet.
    public static let countdownCommandNotSet = LocalizedText(ja: "未設定", en: "Not set")

    /// An age: "26歳" / "age 26".
    public static func countdownCommandAge(_ age: Int) -> LocalizedText {
        LocalizedText(ja: "\(age)歳", en: "age \(age)")
    }
}
