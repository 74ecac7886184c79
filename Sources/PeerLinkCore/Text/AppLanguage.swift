/// The languages user-facing text exists in. Japanese is the default: the seeds are written in
/// it, and their messages are the reference wording.
public enum AppLanguage: String, Sendable, Hashable, CaseIterable, Codable {
    case ja
    case en

    public static let `default`: AppLanguage = .ja
}

/// One user-facing text in every language.
///
/// Features declare their texts as static members of `L10n` (one file per feature, e.g.
/// `L10n+Countdown.swift`); the Japanese is the seeds' wording, exactly.
public struct LocalizedText: Sendable, Hashable {
    public let ja: String
    public let en: String

    public init(ja: String, en: String) {
        self.ja = ja
        self.en = en
    }

    /// The text in `language`.
    public func callAsFunction(_ language: AppLanguage) -> String {
        switch language {
        case .ja: ja
        case .en: en
        }
    }
}

/// The catalogue of user-facing texts; features extend it.
public enum L10n {}
