import PeerLinkCore

/// One countdown goal: a target date, or a target age counted from the user's birth date.
///
/// The seed's SwiftData `Goal` (id, title, targetDate, targetAge, isAgeGoal, createdDate,
/// priority) as a value. `isAgeGoal` decides which target counts; the other one is kept as
/// typed, so switching the kind back in the editor restores it.
///
/// Goals are listed by `priority` ascending (the top of the list first), ties broken by
/// `createdMs` then `id`, so every device sorts the same records identically
/// (`CountdownGoalBook.sorted`).
public struct CountdownGoal: Sendable, Hashable {
    /// The record id, unique among goals (the seed's UUID, as a string).
    public var id: String
    /// The title shown in the list and the widget; never empty once saved.
    public var title: String
    /// The day a date goal counts down to.
    public var targetDate: CivilDate?
    /// The age an age goal counts down to.
    public var targetAge: Int?
    /// True for an age goal, false for a date goal.
    public var isAgeGoal: Bool
    /// When the goal was created (the seed's `createdDate`).
    public var createdMs: EpochMs
    /// The sort key: smaller is nearer the top. Sparse (see `CountdownGoalBook.priorityStep`).
    public var priority: Int

    /// Makes a goal from its fields.
    public init(
        id: String, title: String, targetDate: CivilDate? = nil, targetAge: Int? = nil, isAgeGoal: Bool,
        createdMs: EpochMs, priority: Int
    ) {
        self.id = id
        self.title = title
        self.targetDate = targetDate
        self.targetAge = targetAge
        self.isAgeGoal = isAgeGoal
        self.createdMs = createdMs
        self.priority = priority
    }

    /// The goal's kind as a word for machine output: `"date"` or `"age"`.
    public var kindName: String { isAgeGoal ? "age" : "date" }
}

// MARK: - Ordering

extension CountdownGoal {
    /// True when `self` is listed above `other`: priority, then creation time, then id.
    ///
    /// A total order on distinct ids, so two devices holding the same records show the same
    /// list even when concurrent reorders left two goals with equal priorities.
    public func isListed(before other: CountdownGoal) -> Bool {
        (priority, createdMs, id) < (other.priority, other.createdMs, other.id)
    }
}

// MARK: - Replicated record

extension CountdownGoal: ReplicatedRecord {
    /// The collection name in the replicated state.
    public static let collection = "goal"

    /// Field value that means "no target date" (every field is always written, so clearing a
    /// target is itself a last-writer-wins write rather than a missing key).
    public static let noTargetDate = ""
    /// Field value that means "no target age" (ages start at 1, see `CountdownRules`).
    public static let noTargetAge: Int64 = 0

    /// The fields: `title`, `targetDate` ("YYYY-MM-DD" or ""), `targetAge` (0 for none),
    /// `isAgeGoal`, `created` (ms) and `priority`.
    public var fields: [String: PlistValue] {
        [
            "title": .string(title),
            "targetDate": .string(targetDate?.description ?? Self.noTargetDate),
            "targetAge": .int(targetAge.map(Int64.init) ?? Self.noTargetAge),
            "isAgeGoal": .bool(isAgeGoal),
            "created": .int(createdMs),
            "priority": .int(Int64(priority)),
        ]
    }

    /// The fields whose values differ from `old` (all of them when `old` is nil).
    ///
    /// An edit or a move SHOULD write only these: each field is its own register, so a title
    /// edited on one device survives a concurrent reorder on the other only if the reorder
    /// does not rewrite the title.
    public func fields(changedFrom old: CountdownGoal?) -> [String: PlistValue] {
        guard let old else { return fields }
        let before = old.fields
        return fields.filter { before[$0.key] != $0.value }
    }

    /// The fields an edit from `old` writes: those that changed and, when the target changed
    /// (`isAgeGoal`, `targetDate` or `targetAge`), the kind and the target that counts as well.
    ///
    /// The kind and its target are one choice: an edit that wrote only `targetAge` (the kind
    /// unchanged from its device's point of view) would lose to a concurrent switch to a date
    /// goal on the other device even when made later, leaving a mix of the two. Written
    /// together, the later target edit wins whole. Titles and priorities stay separate, so a
    /// rename on one device and a move or a target change on the other both survive.
    public func fields(editedFrom old: CountdownGoal) -> [String: PlistValue] {
        var changed = fields(changedFrom: old)
        guard changed.keys.contains(where: Self.targetFieldNames.contains) else { return changed }
        let all = fields
        for name in ["isAgeGoal", isAgeGoal ? "targetAge" : "targetDate"] { changed[name] = all[name] }
        return changed
    }

    /// The fields that say what a goal counts to.
    public static let targetFieldNames: Set<String> = ["isAgeGoal", "targetDate", "targetAge"]

    /// Rebuilds a goal; nil when `title`, `isAgeGoal`, `created` or `priority` is missing or
    /// mistyped, or `targetDate` is not a real "YYYY-MM-DD" day. A missing `targetDate` or
    /// `targetAge` reads as none.
    public init?(id: String, fields f: [String: PlistValue]) {
        guard let title = f["title"]?.stringValue, let isAgeGoal = f["isAgeGoal"]?.boolValue,
              let created = f["created"]?.intValue, let priority = f["priority"]?.intValue,
              let priorityInt = Int(exactly: priority)
        else { return nil }
        var targetDate: CivilDate?
        switch f["targetDate"] {
        case nil: targetDate = nil
        case .string(let s) where s == Self.noTargetDate: targetDate = nil
        case .string(let s):
            guard let day = CivilDate(iso: s) else { return nil }
            targetDate = day
        default: return nil
        }
        var targetAge: Int?
        switch f["targetAge"] {
        case nil: targetAge = nil
        case let value?:
            guard let age = value.intValue, let ageInt = Int(exactly: age) else { return nil }
            targetAge = age == Self.noTargetAge ? nil : ageInt
        }
        self.init(
            id: id, title: title, targetDate: targetDate, targetAge: targetAge, isAgeGoal: isAgeGoal,
            createdMs: created, priority: priorityInt)
    }
}
