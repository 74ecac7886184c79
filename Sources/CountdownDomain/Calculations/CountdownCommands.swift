import PeerLinkCore

/// What the countdown controller reads: the goals and profile as the replica holds them, the
/// open confirmation dialog, the time, the device's calendar and language, and the id a new
/// goal would take.
public struct CountdownCommandInput: Sendable {
    /// The live goals (any order; the controller sorts them).
    public var goals: [CountdownGoal]
    /// The profile record, if one was ever written.
    public var profile: UserProfile?
    /// The delete-confirmation dialog's state (UI state: not replicated).
    public var deletion: CountdownDeletionFlow
    /// The device's clock reading.
    public var nowMs: EpochMs
    /// The device's time zone: "today" is the local day of `nowMs`.
    public var calendar: LocalCalendar
    /// The language of replies.
    public var language: AppLanguage
    /// The id `goal add` gives a new goal (see `CountdownCommands.makeGoalID`).
    public var newGoalID: String

    /// Makes an input.
    public init(
        goals: [CountdownGoal], profile: UserProfile?, deletion: CountdownDeletionFlow = CountdownDeletionFlow(),
        nowMs: EpochMs, calendar: LocalCalendar, language: AppLanguage, newGoalID: String = ""
    ) {
        self.goals = goals
        self.profile = profile
        self.deletion = deletion
        self.nowMs = nowMs
        self.calendar = calendar
        self.language = language
        self.newGoalID = newGoalID
    }

    /// The local day of `nowMs`.
    public var today: CivilDate { CountdownCalendar.today(nowMs: nowMs, calendar: calendar) }
}

/// One change the caller writes to the replicated state.
public enum CountdownWrite: Sendable, Hashable {
    /// Set these fields of goal `id` (only the changed ones, so concurrent edits of other
    /// fields on the peer survive).
    case setGoalFields(id: String, fields: [String: PlistValue])
    /// Delete goal `id` (a tombstone: it wins over concurrent edits).
    case deleteGoal(id: String)
    /// Set these fields of the profile record.
    case setProfileFields([String: PlistValue])

    /// The record the write touches.
    public var key: RecordKey {
        switch self {
        case .setGoalFields(let id, _), .deleteGoal(let id): RecordKey(CountdownGoal.collection, id)
        case .setProfileFields: RecordKey(UserProfile.collection, UserProfile.recordID)
        }
    }
}

/// What a countdown command did: the reply, the writes, and the dialog's new state.
public struct CountdownCommandResult: Sendable {
    /// False for a refusal or a usage error (nothing is written then).
    public var isOK: Bool
    /// The reply for people, in the input's language.
    public var text: String
    /// The reply as data (JSON for tools and tests).
    public var value: PlistValue
    /// Records to write, in order.
    public var writes: [CountdownWrite]
    /// The confirmation dialog after the command.
    public var deletion: CountdownDeletionFlow
    /// True when `goal add` used `newGoalID` (the caller advances its id counter).
    public var usedNewGoalID: Bool

    /// Makes a result.
    public init(isOK: Bool, text: String, value: PlistValue, writes: [CountdownWrite] = [],
                deletion: CountdownDeletionFlow, usedNewGoalID: Bool = false) {
        self.isOK = isOK
        self.text = text
        self.value = value
        self.writes = writes
        self.deletion = deletion
        self.usedNewGoalID = usedNewGoalID
    }

    /// True when the command changed goals or the profile.
    public var changesRecords: Bool { !writes.isEmpty }
}

/// The countdown goals' command controller, shared by the phone and the watch apps.
///
/// It turns command words (`["goal", "add", "Trip", "--date", "2026-08-01"]`) and the current
/// state into a reply and the records to write. It does no I/O and keeps no state: the
/// caller applies `writes` to its replica and keeps `deletion` until the next command.
///
/// ## Commands
/// - `goal add TITLE… --date YYYY-MM-DD` / `goal add TITLE… --age N`: a goal at the bottom.
/// - `goal edit REF [--title T] [--date D | --age N]`: writes only the changed fields.
/// - `goal delete REF` asks (the reply is the question); `goal confirm` deletes, `goal cancel`
///   keeps it; `goal delete REF --confirm` deletes at once.
/// - `goal move REF POSITION`: POSITION is 1-based (1 = top), or `top` / `bottom`.
/// - `goal list` (or `goals`), `goal show REF`; `profile`, `profile birth-date YYYY-MM-DD`.
///
/// `REF` is a goal id, `#N` (the N-th goal in list order) or `top`.
public enum CountdownCommands {
    /// The verbs this controller answers (first word of a command).
    public static let verbs: Set<String> = ["goal", "goals", "profile"]

    /// The usage line of each command.
    public static let usage = """
        goal add TITLE (--date YYYY-MM-DD | --age N) | goal edit REF [--title T] [--date D | --age N] | \
        goal delete REF [--confirm] | goal confirm | goal cancel | goal move REF POSITION | goal list | \
        goal show REF | profile [birth-date YYYY-MM-DD]   (REF: id, #N or top)
        """

    // MARK: - Ids

    /// The next free goal id `<prefix><n>` with n > `counter`, skipping ids `isTaken` reports
    /// (live or deleted: ids are never reused). Returns the id and the counter to store.
    public static func makeGoalID(prefix: String, after counter: Int, isTaken: (String) -> Bool) -> (id: String, counter: Int) {
        var n = max(counter, 0) + 1
        while isTaken("\(prefix)\(n)") { n += 1 }
        return ("\(prefix)\(n)", n)
    }

    /// The next goal id of a device: `<prefix><n>` past `counter`, with `-<provisionalSuffix>`
    /// while the device's store is waiting for the peer after a reset, skipping every id the
    /// replica has used (live, deleted or collected). Returns the id and the counter to store.
    public static func nextGoalID(prefix: String, after counter: Int, provisionalSuffix: String?, replica: ReplicaState) -> (id: String, counter: Int) {
        let suffix = provisionalSuffix.map { "-" + $0 } ?? ""
        let (id, n) = makeGoalID(prefix: prefix, after: counter) { replica.hasUsed(RecordKey(CountdownGoal.collection, $0 + suffix)) }
        return (id + suffix, n)
    }

    /// The suffix of goal ids created on a device whose store was reset, until the other
    /// device's state is back (`<prefix><n>-<suffix>`): four hex digits of the new store's
    /// incarnation, which no earlier store of the device can have used. Without it the
    /// emptied store's counter would hand out an old goal's id again, and the new goal would
    /// merge into the old one (or, if the old one was deleted, be deleted with it).
    public static func provisionalIDSuffix(storeIncarnation: UInt64) -> String {
        let hex = String(storeIncarnation & 0xFFFF, radix: 16)
        return String(repeating: "0", count: 4 - hex.count) + hex
    }

    // MARK: - Dispatch

    /// Runs `words`; nil when the first word is not one of `verbs`.
    public static func run(_ words: [String], _ input: CountdownCommandInput) -> CountdownCommandResult? {
        guard let verb = words.first, verbs.contains(verb) else { return nil }
        if verb == "goals" { return list(input) }
        if verb == "profile" { return profile(Array(words.dropFirst()), input) }
        let args = Array(words.dropFirst(2))
        switch words.dropFirst().first {
        case "add": return add(args, input)
        case "edit": return edit(args, input)
        case "delete": return delete(args, input)
        case "confirm": return confirm(input)
        case "cancel": return cancel(input)
        case "move": return move(args, input)
        case "list", nil: return list(input)
        case "show":
            guard args.count == 1 else { return usageError(input) }
            guard let goal = resolve(args[0], input) else { return notFound(args[0], input) }
            let display = CountdownDisplay(goal: goal, birthDate: input.profile?.birthDate, today: input.today)
            return ok(display.text(input.language), display.jsonValue(input.language), input)
        default: return usageError(input)
        }
    }

    // MARK: - Goal references

    /// The goal `ref` names: an id, `#N` (1-based list position) or `top`.
    public static func resolve(_ ref: String, _ input: CountdownCommandInput) -> CountdownGoal? {
        let ordered = CountdownGoalBook.sorted(input.goals)
        if ref == "top" { return ordered.first }
        if ref.hasPrefix("#"), let n = Int(ref.dropFirst()) {
            return n >= 1 && n <= ordered.count ? ordered[n - 1] : nil
        }
        return ordered.first { $0.id == ref }
    }

    /// The 1-based list position of goal `id`.
    public static func position(of id: String, in goals: [CountdownGoal]) -> Int? {
        CountdownGoalBook.sorted(goals).firstIndex { $0.id == id }.map { $0 + 1 }
    }

    // MARK: - Helpers for the commands

    static func ok(_ text: String, _ value: PlistValue, _ input: CountdownCommandInput,
                   writes: [CountdownWrite] = [], deletion: CountdownDeletionFlow? = nil, usedID: Bool = false) -> CountdownCommandResult {
        CountdownCommandResult(isOK: true, text: text, value: value, writes: writes, deletion: deletion ?? input.deletion, usedNewGoalID: usedID)
    }

    static func refuse(_ text: String, _ input: CountdownCommandInput) -> CountdownCommandResult {
        CountdownCommandResult(isOK: false, text: text, value: .string(text), deletion: input.deletion)
    }

    static func usageError(_ input: CountdownCommandInput) -> CountdownCommandResult {
        refuse(L10n.usage(usage)(input.language), input)
    }

    static func notFound(_ ref: String, _ input: CountdownCommandInput) -> CountdownCommandResult {
        refuse(L10n.countdownCommandGoalNotFound(ref)(input.language), input)
    }

    /// The refusal's blocking messages, one per line.
    static func refusalText(_ refusal: CountdownRefusal, _ language: AppLanguage) -> String {
        refusal.issues.filter(\.isBlocking).map { $0.message(language) }.joined(separator: "\n")
    }

    /// The value after `--name` in `args`, and whether the option appeared at all.
    static func option(_ name: String, in args: [String]) -> (present: Bool, value: String?) {
        guard let i = args.firstIndex(of: "--\(name)") else { return (false, nil) }
        return (true, i + 1 < args.count && !args[i + 1].hasPrefix("--") ? args[i + 1] : nil)
    }

    /// The words before the first option, joined by spaces (a title typed without quotes).
    static func leadingWords(_ args: [String]) -> String {
        args.prefix { !$0.hasPrefix("--") }.joined(separator: " ")
    }
}
