import PeerLinkCore

/// Texts of the drawn screens that the text screens do not have (captions of charts). The
/// card titles and labels reuse the seed's wording from `L10n+Fitness.swift` and
/// `L10n+Watch.swift`; these few are ours.
extension L10n {
    /// The heart-rate chart's caption.
    public static let screenPast24Hours = LocalizedText(ja: "過去24時間", en: "Past 24 hours")
    /// The latest heart-rate reading's label.
    public static let screenLatest = LocalizedText(ja: "最新", en: "Latest")
    /// "目標 10,000歩" / "Goal 10,000 steps" (the value already formatted).
    public static func screenGoal(_ value: String) -> LocalizedText {
        LocalizedText(ja: "目標 \(value)", en: "Goal \(value)")
    }
    /// The screen a node shows before its widget has a timeline or a goal list.
    public static let screenNoNotifications = LocalizedText(ja: "通知はありません", en: "No notifications")
}
