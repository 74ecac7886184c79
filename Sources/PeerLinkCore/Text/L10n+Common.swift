/// Texts every part of both apps uses: usage lines, durations, "none", and why a replicated
/// write was refused.
extension L10n {
    /// A usage line: "使い方: …" / "usage: …" (the command's syntax stays as typed).
    public static func usage(_ syntax: String) -> LocalizedText {
        LocalizedText(ja: "使い方: \(syntax)", en: "usage: \(syntax)")
    }

    /// A command the app does not know.
    public static func unknownCommand(_ line: String) -> LocalizedText {
        LocalizedText(ja: "不明なコマンドです: \(line)（show help で一覧を表示します）", en: "unknown command '\(line)' (see `show help`)")
    }

    /// "なし" / "none".
    public static let noneText = LocalizedText(ja: "なし", en: "none")

    /// A duration as a person reads it: "1時間2分" / "1 h 2 min", "2分5秒" / "2 min 5 s",
    /// "45秒" / "45 s" (whole seconds, rounded down).
    public static func duration(_ ms: Int64) -> LocalizedText {
        let s = max(0, ms) / 1000
        let h = s / 3600, m = s % 3600 / 60, sec = s % 60
        if h > 0 { return LocalizedText(ja: "\(h)時間\(m)分", en: "\(h) h \(m) min") }
        if m > 0 { return LocalizedText(ja: "\(m)分\(sec)秒", en: "\(m) min \(sec) s") }
        return LocalizedText(ja: "\(sec)秒", en: "\(sec) s")
    }

    /// Why a write to the replicated state was refused.
    public static func writeRefused(_ refusal: ReplicaState.WriteRefusal) -> LocalizedText {
        switch refusal {
        case .recordDeleted(let key):
            LocalizedText(ja: "保存できません: \(key.id) は削除されています", en: "not stored: \(key.id) was deleted")
        case .immutableRecord(let key):
            LocalizedText(ja: "保存できません: \(key.id) は変更できません", en: "not stored: \(key.id) cannot change")
        case .notDeletable(let key):
            LocalizedText(ja: "削除できません: \(key.id)", en: "not deleted: \(key.id) cannot be deleted")
        }
    }
}
