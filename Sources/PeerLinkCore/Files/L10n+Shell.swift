
/// Texts of the process shell's own commands (`quit`, `clock`, `tz`, `log`, `disconnect`,
/// `help`) and of the lines it says at the prompt about the peer, in the node's language.
extension L10n {
    public static let shellBye = LocalizedText(ja: "終了します", en: "bye")
    public static func shellUnclosedQuote(_ line: String) -> LocalizedText {
        LocalizedText(ja: "引用符が閉じていません: \(line)", en: "unclosed quote in: \(line)")
    }
    public static let shellTimeZoneUsage = LocalizedText(ja: "使い方: tz ZONE（例: tz America/Los_Angeles）", en: "usage: tz ZONE (e.g. tz America/Los_Angeles)")
    public static func shellTimeZone(_ zone: String) -> LocalizedText {
        LocalizedText(ja: "タイムゾーンを \(zone) にしました", en: "time zone \(zone)")
    }
    public static func showSVGUsage(_ screens: [String]) -> LocalizedText {
        let list = screens.joined(separator: ", ")
        return LocalizedText(ja: "使い方: show SCREEN --svg（SCREEN: \(list)）", en: "usage: show SCREEN --svg (SCREEN: \(list))")
    }
    public static let shellDisconnected = LocalizedText(ja: "接続を切りました", en: "disconnected")
    public static let shellClockUsage = LocalizedText(
        ja: "使い方: clock set MS [idle-link] | clock advance MS [idle-link] | clock offset MS",
        en: "usage: clock set MS [idle-link] | clock advance MS [idle-link] | clock offset MS")
    public static let shellClockIsWall = LocalizedText(
        ja: "この時計は実時間です。動かすには --virtual-clock で起動してください",
        en: "the clock is the wall clock; start with --virtual-clock to move it")
    public static let shellClockCannotGoBack = LocalizedText(
        ja: "単調時計は戻せません（壁時計のずれは clock offset で）",
        en: "the monotonic clock cannot go back (use `clock offset` for wall-clock faults)")
    public static func shellLog(_ path: String, _ level: String) -> LocalizedText {
        LocalizedText(ja: "ログ: \(path)（標準エラー出力: \(level) 以上）", en: "log: \(path) (to standard error: \(level) and above)")
    }
    public static let shellLogUsage = LocalizedText(ja: "使い方: log level debug|info|warning|error|off", en: "usage: log level debug|info|warning|error|off")

    // MARK: - What the person at the prompt is told about the peer

    public static func shellListening(_ address: String) -> LocalizedText {
        LocalizedText(ja: "\(address) で待ち受けています。Apple Watch の接続を待っています…", en: "listening on \(address); waiting for the watch…")
    }
    public static func shellWaitingForPhone(_ address: String) -> LocalizedText {
        LocalizedText(ja: "iPhone（\(address)）を待っています。接続できるまで試し続けます…", en: "waiting for the phone at \(address); trying until it answers…")
    }
    public static func shellConnected(_ peer: DeviceRole) -> LocalizedText {
        peer == .phone ? LocalizedText(ja: "iPhone と接続しました", en: "connected to the phone")
            : LocalizedText(ja: "Apple Watch と接続しました", en: "connected to the watch")
    }
    public static func shellLost(_ peer: DeviceRole) -> LocalizedText {
        peer == .phone ? LocalizedText(ja: "iPhone との接続が切れました。再接続を待っています…", en: "lost the phone; waiting to reconnect…")
            : LocalizedText(ja: "Apple Watch との接続が切れました。再接続を待っています…", en: "lost the watch; waiting to reconnect…")
    }
}
