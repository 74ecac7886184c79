import PeerLinkCore

/// One goal as the list shows it today: its title, days left and status (seed 3.1).
public struct CountdownDisplay: Sendable, Hashable {
    /// The goal's id (also the widget's deep link target).
    public var goalID: String
    /// The goal's title.
    public var title: String
    /// True for an age goal.
    public var isAgeGoal: Bool
    /// The day counted to: the target date, or the birthday of the target age; nil when
    /// unknown (no target, or an age goal without a birth date).
    public var targetDay: CivilDate?
    /// The state of the countdown.
    public var status: CountdownStatus

    /// Makes a display value from its parts.
    public init(goalID: String, title: String, isAgeGoal: Bool, targetDay: CivilDate?, status: CountdownStatus) {
        self.goalID = goalID
        self.title = title
        self.isAgeGoal = isAgeGoal
        self.targetDay = targetDay
        self.status = status
    }

    /// The display of `goal` on the local day `today`.
    public init(goal: CountdownGoal, birthDate: CivilDate?, today: CivilDate) {
        var targetDay: CivilDate?
        if goal.isAgeGoal {
            if let age = goal.targetAge, let birthDate {
                targetDay = CountdownCalendar.dayOfTurning(age, birthDate: birthDate)
            }
        } else {
            targetDay = goal.targetDate
        }
        self.init(
            goalID: goal.id, title: goal.title, isAgeGoal: goal.isAgeGoal, targetDay: targetDay,
            status: CountdownStatus(goal: goal, birthDate: birthDate, today: today))
    }

    /// Days left: the count, 0 on the day, nil when there is no countdown.
    public var daysLeft: Int? { status.daysLeft }

    // MARK: - Output

    /// The value as a JSON-ready dictionary: `id`, `title`, `kind` ("date"/"age"), `status`
    /// (`CountdownStatus.code`), `message` (in `language`), and `daysLeft` and `targetDay`
    /// ("YYYY-MM-DD") when known.
    public func jsonValue(_ language: AppLanguage = .default) -> PlistValue {
        var d: [String: PlistValue] = [
            "id": .string(goalID), "title": .string(title), "kind": .string(isAgeGoal ? "age" : "date"),
            "status": .string(status.code), "message": .string(status.message(language)),
        ]
        if let daysLeft { d["daysLeft"] = .int(Int64(daysLeft)) }
        if let targetDay { d["targetDay"] = .string(targetDay.description) }
        return .dictionary(d)
    }

    /// One line of text: "title: あと12日" / "title: 12 days left".
    public func text(_ language: AppLanguage = .default) -> String {
        "\(title): \(status.message(language))"
    }
}

/// Every goal's display, in list order, computed for one local day (seed 3.2).
///
/// Recompute it with `CountdownDisplayList.recompute` on launch, on return to the
/// foreground (seed 5.3) and at `refreshAtMs`, when the local date changes.
public struct CountdownDisplayList: Sendable, Hashable {
    /// The goals in list order (top first).
    public var items: [CountdownDisplay]
    /// The local day the counts are for.
    public var today: CivilDate
    /// The next local midnight: the counts are stale from then on.
    public var refreshAtMs: EpochMs

    /// Makes a list from its parts.
    public init(items: [CountdownDisplay], today: CivilDate, refreshAtMs: EpochMs) {
        self.items = items
        self.today = today
        self.refreshAtMs = refreshAtMs
    }

    /// The top goal's display, if there is a goal.
    public var top: CountdownDisplay? { items.first }

    // MARK: - Recompute

    /// Recomputes every display value at `nowMs` in `calendar`: sorts the goals
    /// (`CountdownGoalBook.sorted`) and counts each from the local day of `nowMs`.
    public static func recompute(
        goals: [CountdownGoal], profile: UserProfile?, nowMs: EpochMs, calendar: LocalCalendar
    ) -> CountdownDisplayList {
        let today = CountdownCalendar.today(nowMs: nowMs, calendar: calendar)
        let items = CountdownGoalBook.sorted(goals).map {
            CountdownDisplay(goal: $0, birthDate: profile?.birthDate, today: today)
        }
        return CountdownDisplayList(
            items: items, today: today,
            refreshAtMs: CountdownCalendar.nextLocalMidnight(after: nowMs, calendar: calendar))
    }

    // MARK: - Output

    /// The list as JSON: `today` ("YYYY-MM-DD"), `refreshAtMs`, `goals` (each
    /// `CountdownDisplay.jsonValue`), and `message` ("目標を設定してください") when empty.
    public func jsonValue(_ language: AppLanguage = .default) -> PlistValue {
        var d: [String: PlistValue] = [
            "today": .string(today.description), "refreshAtMs": .int(refreshAtMs),
            "goals": .array(items.map { $0.jsonValue(language) }),
        ]
        if items.isEmpty { d["message"] = .string(L10n.countdownNoGoal(language)) }
        return .dictionary(d)
    }

    /// Numbered lines ("1. title: あと12日"), or "目標を設定してください" when there is no goal.
    /// `withIDs` ends each line with the id the goal commands take ("1. title: あと12日 [goal-1]").
    public func text(_ language: AppLanguage = .default, withIDs: Bool = false) -> String {
        if items.isEmpty { return L10n.countdownNoGoal(language) }
        return items.enumerated().map { "\($0.offset + 1). \($0.element.text(language))" + (withIDs ? " [\($0.element.goalID)]" : "") }
            .joined(separator: "\n")
    }
}
