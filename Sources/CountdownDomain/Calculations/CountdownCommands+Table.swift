import PeerLinkCore

/// The goal commands as rows of an app's command table (PhoneApp+Commands.swift,
/// WatchApp+Commands.swift): both apps run them through this controller, so both list the same
/// words with the same help.
extension CountdownCommands {
    /// One row per goal command, each run by `run` (the app's goal handler, which calls `run(_:_:)`).
    public static func tableRows<App>(_ run: @escaping @Sendable (inout App, NodeCommand, inout NodeContext) -> CommandReply) -> [Command<App>] {
        [
            Command("goal add", "TITLE (--date YYYY-MM-DD | --age N)", ja: "新規目標追加（目標日か目標年齢）", en: "adds a goal (a target date or age)",
                    detail: "a goal at the bottom of the list; id `goal-<n>`", run: run),
            Command("goal edit", "REF [--title T] [--date D | --age N]", ja: "既存目標編集", en: "edits a goal",
                    detail: "writes only the changed fields; a changed target goes with its kind; the target is checked only when given",
                    run: run),
            Command("goal delete", "REF [--confirm]", ja: "目標を削除（確認のあとで）", en: "deletes a goal (after a confirmation)",
                    detail: "asks 「「TITLE」を削除しますか？」 first, answered by `goal confirm` / `goal cancel`; `--confirm` deletes at once",
                    run: run),
            Command("goal confirm", ja: "削除を確定", en: "confirms the deletion asked for", run: run),
            Command("goal cancel", ja: "削除をやめる", en: "cancels the deletion asked for", run: run),
            Command("goal move", "REF POSITION", ja: "目標の優先順位を変える", en: "moves a goal in the list",
                    detail: "POSITION 1-based (`top`, `bottom`)", run: run),
            Command("goal list", ja: "目標一覧表示", en: "the goals in list order", run: run),
            Command("goals", ja: "目標一覧表示（goal list と同じ）", en: "the goals (as `goal list`)", run: run),
            Command("goal show", "REF", ja: "目標を1つ表示", en: "one goal", run: run),
            Command("profile", "[birth-date YYYY-MM-DD]", ja: "生年月日（年齢目標に使います）", en: "the birth date (for age goals)",
                    detail: "the profile, or sets the birth date; a future birth date is refused", run: run),
        ]
    }

    /// What `help` says below the goal rows.
    public static let tableNotes = LocalizedText(ja: "REF: 目標のID、#N（一覧のN番目）または top", en: "REF: a goal id, #N (the N-th goal in list order) or top")
}
