import PeerLinkCore

/// The watch's countdown complication / Smart Stack entry: the top goal's title and days
/// left in short text ("12日" / "12d").
public struct CountdownComplicationEntry: Sendable, Hashable {
    /// The longest title shown, in characters; longer titles end in "…".
    public static let maxTitleCharacters = 12

    /// When the entry is shown from.
    public var dateMs: EpochMs
    /// The top goal's display; nil with no goal.
    public var goal: CountdownDisplay?
    /// When the watch should rebuild the entry: the next local midnight.
    public var refreshAtMs: EpochMs

    /// Makes an entry.
    public init(dateMs: EpochMs, goal: CountdownDisplay?, refreshAtMs: EpochMs) {
        self.dateMs = dateMs
        self.goal = goal
        self.refreshAtMs = refreshAtMs
    }

    /// The entry at `nowMs` for these goals and profile, in `calendar`'s local days.
    public static func make(
        goals: [CountdownGoal], profile: UserProfile?, nowMs: EpochMs, calendar: LocalCalendar
    ) -> CountdownComplicationEntry {
        let list = CountdownDisplayList.recompute(goals: goals, profile: profile, nowMs: nowMs, calendar: calendar)
        return CountdownComplicationEntry(dateMs: nowMs, goal: list.top, refreshAtMs: list.refreshAtMs)
    }

    /// Days left, nil with no goal or no countdown.
    public var daysLeft: Int? { goal?.daysLeft }

    /// The title, cut to `maxTitleCharacters`; "目標なし" / "No goal" with no goal.
    public func shortTitle(_ language: AppLanguage = .default) -> String {
        guard let title = goal?.title else { return L10n.countdownShortNoGoal(language) }
        if title.count <= Self.maxTitleCharacters { return title }
        return String(title.prefix(Self.maxTitleCharacters - 1)) + "…"
    }

    /// The value: "12日" / "12d", "今日", "達成", "--"; empty with no goal.
    public func shortValue(_ language: AppLanguage = .default) -> String {
        goal?.status.shortMessage(language) ?? ""
    }

    /// The entry as JSON: `dateMs`, `refreshAtMs`, `title`, `value`; plus `goalId`,
    /// `status` and `daysLeft` (when known) for a goal.
    public func jsonValue(_ language: AppLanguage = .default) -> PlistValue {
        var d: [String: PlistValue] = [
            "dateMs": .int(dateMs), "refreshAtMs": .int(refreshAtMs),
            "title": .string(shortTitle(language)), "value": .string(shortValue(language)),
        ]
        if let goal {
            d["goalId"] = .string(goal.goalID)
            d["status"] = .string(goal.status.code)
            if let days = goal.daysLeft { d["daysLeft"] = .int(Int64(days)) }
        }
        return .dictionary(d)
    }

    /// "title 12日", or "目標なし" with no goal.
    public func text(_ language: AppLanguage = .default) -> String {
        let value = shortValue(language)
        return value.isEmpty ? shortTitle(language) : "\(shortTitle(language)) \(value)"
    }
}
