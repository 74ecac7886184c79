import PeerLinkCore

/// The countdown values both apps answer to `query PATH…`, and the views' JSON.
///
/// | path | value |
/// |---|---|
/// | `goals` | the list (`CountdownDisplayList.jsonValue`) |
/// | `goals count` | number of goals |
/// | `goals today` | the local day the counts are for ("YYYY-MM-DD") |
/// | `goals titles` | the titles in list order |
/// | `goal REF` | one goal's display, position and priority |
/// | `goal REF FIELD` | `id`, `title`, `days`, `message`, `status`, `kind`, `target`, `position`, `priority`, `date`, `age` |
/// | `goal pending-deletion` | the id the confirmation dialog asks about, or "none" |
/// | `profile` | `{"birthDate", "age"}` |
/// | `profile birth-date` / `profile age` | the value, or "—" when no birth date is stored |
///
/// `REF` is an id, `#N` or `top` (see `CountdownCommands.resolve`). A goal that does not exist
/// has no value (nil); a value the goal does not have (days of a past goal) is "—".
extension CountdownCommands {
    /// The placeholder for a value that does not exist (never a 0 that is not data).
    public static let noValue: PlistValue = "—"

    /// The value at `path`; nil when there is no such value.
    public static func query(_ path: [String], _ input: CountdownCommandInput) -> PlistValue? {
        switch path.first {
        case "goals": return goalsQuery(Array(path.dropFirst()), input)
        case "goal":
            guard path.count >= 2 else { return nil }
            if path[1] == "pending-deletion" { return .string(input.deletion.pending?.goalID ?? "none") }
            guard let goal = resolve(path[1], input) else { return nil }
            let value = goalValue(goal, input)
            guard path.count >= 3 else { return value }
            guard path.count == 3 else { return nil }
            return value[path[2]] ?? (goalFields.contains(path[2]) ? noValue : nil)
        case "profile":
            let value = profileValue(input)
            guard path.count >= 2 else { return value }
            switch path[1] {
            case "birth-date": return path.count == 2 ? (value["birthDate"] ?? noValue) : nil
            case "age": return path.count == 2 ? (value["age"] ?? noValue) : nil
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The fields `goal REF FIELD` answers.
    static let goalFields: Set<String> = ["id", "title", "days", "message", "status", "kind", "target", "position", "priority", "date", "age"]

    static func goalsQuery(_ rest: [String], _ input: CountdownCommandInput) -> PlistValue? {
        let list = CountdownDisplayList.recompute(goals: input.goals, profile: input.profile, nowMs: input.nowMs, calendar: input.calendar)
        guard let field = rest.first else { return listValue(list, input) }
        guard rest.count == 1 else { return nil }
        switch field {
        case "count": return .int(Int64(list.items.count))
        case "today": return .string(list.today.description)
        case "titles": return .array(list.items.map { .string($0.title) })
        default: return nil
        }
    }

    /// One goal as data: its display fields plus position, priority and raw targets.
    public static func goalValue(_ goal: CountdownGoal, _ input: CountdownCommandInput) -> PlistValue {
        let display = CountdownDisplay(goal: goal, birthDate: input.profile?.birthDate, today: input.today)
        var d: [String: PlistValue] = [
            "id": .string(goal.id), "title": .string(goal.title), "message": .string(display.status.message(input.language)),
            "status": .string(display.status.code), "kind": .string(goal.kindName), "priority": .int(Int64(goal.priority)),
            "position": .int(Int64(position(of: goal.id, in: input.goals) ?? 0)),
        ]
        if let days = display.daysLeft { d["days"] = .int(Int64(days)) }
        if let target = display.targetDay { d["target"] = .string(target.description) }
        if let date = goal.targetDate { d["date"] = .string(date.description) }
        if let age = goal.targetAge { d["age"] = .int(Int64(age)) }
        return .dictionary(d)
    }

    /// The list's JSON, with the birth date and the open dialog.
    static func listValue(_ list: CountdownDisplayList, _ input: CountdownCommandInput) -> PlistValue {
        var value = list.jsonValue(input.language).dictionaryValue ?? [:]
        if let birth = input.profile?.birthDate { value["birthDate"] = .string(birth.description) }
        if let pending = input.deletion.pending { value["pendingDeletion"] = .string(pending.goalID) }
        return .dictionary(value)
    }

    /// `{"birthDate": "YYYY-MM-DD", "age": n}`; empty without a birth date.
    static func profileValue(_ input: CountdownCommandInput) -> PlistValue {
        guard let birth = input.profile?.birthDate else { return .dictionary([:]) }
        return ["birthDate": .string(birth.description), "age": .int(Int64(CountdownCalendar.age(of: birth, on: input.today)))]
    }

    /// "生年月日: 2000-02-29 (26歳)" / "Birth date: 2000-02-29 (age 26)", or "未設定".
    static func profileText(_ input: CountdownCommandInput) -> String {
        let label = L10n.countdownCommandBirthDateLabel(input.language)
        guard let birth = input.profile?.birthDate else { return "\(label): \(L10n.countdownCommandNotSet(input.language))" }
        let age = CountdownCalendar.age(of: birth, on: input.today)
        return "\(label): \(birth) (\(L10n.countdownCommandAge(age)(input.language)))"
    }
}
