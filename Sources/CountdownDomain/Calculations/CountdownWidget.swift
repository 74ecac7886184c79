import Foundation
import PeerLinkCore

/// When WidgetKit may ask for the next timeline (`TimelineReloadPolicy`): the earliest
/// reload, not an exact time.
public enum CountdownReloadPolicy: Sendable, Hashable {
    /// After the last entry's date.
    case atEnd
    /// At or after this instant.
    case after(EpochMs)
    /// Only when the app asks.
    case never

    /// The policy for machine output: "atEnd", "never", or {"after": ms}.
    public func jsonValue() -> PlistValue {
        switch self {
        case .atEnd: "atEnd"
        case .after(let ms): ["after": .int(ms)]
        case .never: "never"
        }
    }
}

/// The deep links a countdown widget opens the app with (seed 6.3: a tap launches the app).
public enum CountdownDeepLink: Sendable, Hashable {
    /// The goal list (the widget shows no goal).
    case list
    /// One goal's edit screen.
    case goal(id: String)

    /// The URL scheme.
    public static let scheme = "countdown"

    /// The URL: `countdown://list` or `countdown://goal/<id>` (the id percent-encoded).
    public var url: String {
        switch self {
        case .list: "\(Self.scheme)://list"
        case .goal(let id):
            "\(Self.scheme)://goal/\(id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowedWithoutSlash) ?? id)"
        }
    }

    /// Parses a URL the app was opened with; nil for anything else.
    public init?(url: String) {
        let prefix = "\(Self.scheme)://"
        guard url.hasPrefix(prefix) else { return nil }
        let rest = url.dropFirst(prefix.count)
        if rest == "list" { self = .list; return }
        guard rest.hasPrefix("goal/"), let id = String(rest.dropFirst("goal/".count)).removingPercentEncoding,
              !id.isEmpty
        else { return nil }
        self = .goal(id: id)
    }
}

extension CharacterSet {
    /// Path characters except "/", so an id stays one path segment.
    fileprivate static let urlPathAllowedWithoutSlash: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove("/")
        return set
    }()
}

/// The home-screen widget's entry: the top goal's title and days left (seed 6.1), or
/// "目標を設定してください" with no goal (seed 6.2).
public struct CountdownWidgetEntry: Sendable, Hashable {
    /// When the entry is shown from.
    public var dateMs: EpochMs
    /// The top goal's display; nil with no goal.
    public var goal: CountdownDisplay?
    /// Where a tap opens the app.
    public var link: CountdownDeepLink

    /// Makes an entry; the link follows the goal.
    public init(dateMs: EpochMs, goal: CountdownDisplay?) {
        self.dateMs = dateMs
        self.goal = goal
        link = goal.map { .goal(id: $0.goalID) } ?? .list
    }

    /// The headline: the goal's title, or "目標を設定してください".
    public func headline(_ language: AppLanguage = .default) -> String {
        goal?.title ?? L10n.countdownNoGoal(language)
    }

    /// The line under it: "あと12日" or the status message; nil with no goal.
    public func detail(_ language: AppLanguage = .default) -> String? {
        goal?.status.message(language)
    }

    /// The entry as JSON: `dateMs`, `url`, `title`, and `message`; plus `goalId`, `status`
    /// and `daysLeft` (when known) for a goal.
    public func jsonValue(_ language: AppLanguage = .default) -> PlistValue {
        var d: [String: PlistValue] = [
            "dateMs": .int(dateMs), "url": .string(link.url), "title": .string(headline(language)),
        ]
        if let goal {
            d["goalId"] = .string(goal.goalID)
            d["status"] = .string(goal.status.code)
            d["message"] = .string(goal.status.message(language))
            if let days = goal.daysLeft { d["daysLeft"] = .int(Int64(days)) }
        } else {
            d["message"] = .string(L10n.countdownNoGoal(language))
        }
        return .dictionary(d)
    }

    /// "title: あと12日", or "目標を設定してください".
    public func text(_ language: AppLanguage = .default) -> String {
        guard let detail = detail(language) else { return headline(language) }
        return "\(headline(language)): \(detail)"
    }
}

/// The widget's timeline: one entry for now, reloaded at the next local midnight so the count
/// follows the date (seed 6.4).
public struct CountdownWidgetTimeline: Sendable, Hashable {
    /// The entries (one, dated now).
    public var entries: [CountdownWidgetEntry]
    /// When WidgetKit should ask again: after the next local midnight.
    public var policy: CountdownReloadPolicy

    /// Makes a timeline from its parts.
    public init(entries: [CountdownWidgetEntry], policy: CountdownReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }

    /// The timeline at `nowMs` for these goals and profile, in `calendar`'s local days.
    public static func make(
        goals: [CountdownGoal], profile: UserProfile?, nowMs: EpochMs, calendar: LocalCalendar
    ) -> CountdownWidgetTimeline {
        let list = CountdownDisplayList.recompute(goals: goals, profile: profile, nowMs: nowMs, calendar: calendar)
        return CountdownWidgetTimeline(
            entries: [CountdownWidgetEntry(dateMs: nowMs, goal: list.top)], policy: .after(list.refreshAtMs))
    }

    /// The entry shown now.
    public var current: CountdownWidgetEntry? { entries.first }

    /// The timeline as JSON: `entries` and `policy`.
    public func jsonValue(_ language: AppLanguage = .default) -> PlistValue {
        ["entries": .array(entries.map { $0.jsonValue(language) }), "policy": policy.jsonValue()]
    }

    /// The current entry's text.
    public func text(_ language: AppLanguage = .default) -> String {
        current?.text(language) ?? L10n.countdownNoGoal(language)
    }
}
