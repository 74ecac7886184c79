
/// Texts of the engine's own commands (`message send`, `userinfo send`, `outbox`, `link`…) and
/// of the lines it shows at the prompt later. The seeds give no wording for them; the Japanese
/// follows the seeds' style. Apple's names (WCErrorDomain codes, `u7`, `f2`) stay as they are.
extension L10n {
    // MARK: - General

    /// A command line with no words.
    public static let nodeEmptyCommand = LocalizedText(ja: "コマンドが空です", en: "empty command")
    /// `query PATH` with nothing there.
    public static func nodeNoValue(_ path: String) -> LocalizedText {
        LocalizedText(ja: "値がありません: \(path)", en: "no value at \(path)")
    }
    /// A JSON argument that does not parse.
    public static func nodeBadJSON(_ reason: String) -> LocalizedText {
        LocalizedText(ja: "JSONとして読めません: \(reason)", en: "not valid JSON: \(reason)")
    }
    /// A payload that is not a dictionary.
    public static let nodeNotADictionary = LocalizedText(
        ja: "辞書（{\"key\": 値}）を指定してください", en: "give a dictionary ({\"key\": value})")
    /// A payload using the replica's reserved key.
    public static func nodeReservedKey(_ key: String) -> LocalizedText {
        LocalizedText(ja: "キー \(key) はノードの同期用に予約されています", en: "the key \(key) is reserved for the node's sync")
    }
    /// A malformed duration option.
    public static func nodeBadDuration(_ word: String) -> LocalizedText {
        LocalizedText(ja: "時間が読めません: \(word)（例: 5s、250ms、1m）", en: "not a duration: \(word) (e.g. 5s, 250ms, 1m)")
    }
    /// A byte count: "1,234 B".
    public static func nodeBytes(_ n: Int64) -> LocalizedText {
        let g = NumberText.grouped(Int(n))
        return LocalizedText(ja: "\(g) B", en: "\(g) B")
    }
    /// The other device: "iPhone" / "Apple Watch".
    public static func nodePeerName(_ peer: DeviceRole) -> LocalizedText {
        peer == .phone ? LocalizedText(ja: "iPhone", en: "the iPhone") : LocalizedText(ja: "Apple Watch", en: "the Apple Watch")
    }

    // MARK: - WatchConnectivity errors

    /// "7007 notReachable（相手のアプリに届きません）" / "7007 notReachable (the other app is not reachable)".
    public static func nodeWCError(_ code: WCErrorCode) -> LocalizedText {
        let d = nodeWCErrorMeaning(code)
        return LocalizedText(ja: "\(code.rawValue) \(code.name)（\(d.ja)）", en: "\(code.rawValue) \(code.name) (\(d.en))")
    }

    /// What a WatchConnectivity error code means.
    public static func nodeWCErrorMeaning(_ code: WCErrorCode) -> LocalizedText {
        switch code {
        case .genericError: LocalizedText(ja: "不明なエラー", en: "unknown error")
        case .sessionNotSupported: LocalizedText(ja: "セッションに対応していません", en: "sessions are not supported")
        case .sessionMissingDelegate: LocalizedText(ja: "デリゲートがありません", en: "no delegate")
        case .sessionNotActivated: LocalizedText(ja: "セッションが有効になっていません", en: "the session is not activated")
        case .deviceNotPaired: LocalizedText(ja: "ペアリングされていません", en: "no paired device")
        case .watchAppNotInstalled: LocalizedText(ja: "ウォッチアプリがインストールされていません", en: "the watch app is not installed")
        case .notReachable: LocalizedText(ja: "相手のアプリに届きません", en: "the other app is not reachable")
        case .invalidParameter: LocalizedText(ja: "パラメータが正しくありません", en: "invalid parameter")
        case .payloadTooLarge: LocalizedText(ja: "データが大きすぎます", en: "the payload is too large")
        case .payloadUnsupportedTypes: LocalizedText(ja: "送れない型の値が含まれています", en: "the payload holds a type that cannot be sent")
        case .messageReplyFailed: LocalizedText(ja: "返信に失敗しました", en: "the reply failed")
        case .messageReplyTimedOut: LocalizedText(ja: "時間内に返信がありませんでした", en: "no reply in time")
        case .fileAccessDenied: LocalizedText(ja: "ファイルを読めません", en: "the file cannot be read")
        case .deliveryFailed: LocalizedText(ja: "配信に失敗しました", en: "delivery failed")
        case .insufficientSpace: LocalizedText(ja: "空き容量が足りません", en: "not enough space")
        case .sessionInactive: LocalizedText(ja: "セッションが非アクティブです", en: "the session is inactive")
        case .transferTimedOut: LocalizedText(ja: "転送が時間切れになりました", en: "the transfer timed out")
        case .companionAppNotInstalled: LocalizedText(ja: "iPhoneのアプリがインストールされていません", en: "the iPhone app is not installed")
        case .watchOnlyApp: LocalizedText(ja: "ウォッチ専用アプリです", en: "watch-only app")
        }
    }
}
