import PeerLinkCore

/// The goal list's operations, as pure functions from goals to new goal values.
///
/// Each returns the goals to write; the caller stores them (each field a last-writer-wins
/// register in the replicated state). Nothing here reads a clock or makes an id: both come in.
///
/// Priorities are sparse: a new goal goes one `priorityStep` after the bottom goal, and a move writes
/// only the moved goal, with a priority between its new neighbours'. So when two devices
/// reorder at the same time, each goal's priority register keeps one writer's value, both
/// devices sort the merged records the same way (`sorted`), and moves of different goals
/// both take effect.
public enum CountdownGoalBook {
    /// The gap left between neighbouring priorities: about 20 moves into one gap before the
    /// list must be renumbered.
    public static let priorityStep = 1 << 20
    /// The largest priority magnitude a move may produce (2^52, exact in a JSON double);
    /// beyond it the list is renumbered.
    public static let maxPriorityMagnitude = 1 << 52

    // MARK: - Order

    /// The goals in list order: priority ascending (top first), then `createdMs`, then `id`.
    public static func sorted(_ goals: [CountdownGoal]) -> [CountdownGoal] {
        goals.sorted { $0.isListed(before: $1) }
    }

    /// The goal at the top of the list (the widget's goal, seed 6.1).
    public static func top(_ goals: [CountdownGoal]) -> CountdownGoal? {
        goals.min { $0.isListed(before: $1) }
    }

    // MARK: - Create and edit

    /// Creates a goal from `draft` at the bottom of the list, or refuses it.
    ///
    /// `id` and `createdMs` come from the caller. The saved title is trimmed. A target date
    /// before today is saved with the warning `targetDateInPast`.
    public static func create(
        id: String, draft: CountdownGoalDraft, createdMs: EpochMs, existing goals: [CountdownGoal],
        birthDate: CivilDate?, today: CivilDate
    ) -> Result<CountdownSavedGoal, CountdownRefusal> {
        var issues = CountdownRules.validate(draft, birthDate: birthDate, today: today)
        if goals.count >= CountdownRules.maxGoals { issues.insert(.tooManyGoals, at: 0) }
        if issues.contains(where: \.isBlocking) { return .failure(CountdownRefusal(issues)) }
        let bottom = goals.map(\.priority).max()
        let goal = CountdownGoal(
            id: id, title: draft.trimmedTitle, targetDate: draft.targetDate, targetAge: draft.targetAge,
            isAgeGoal: draft.isAgeGoal, createdMs: createdMs, priority: bottom.map { $0 + priorityStep } ?? 0)
        return .success(CountdownSavedGoal(goal: goal, warnings: issues))
    }

    /// Applies `draft` to `goal` (seed 4.3), keeping its id, creation time and priority, or
    /// refuses it with the same rules as `create`. `setsTarget` false: the edit leaves the
    /// target as it is (a rename), which is then not validated — a goal reached or passed
    /// since it was set can still be renamed.
    public static func edit(
        _ goal: CountdownGoal, draft: CountdownGoalDraft, setsTarget: Bool = true, birthDate: CivilDate?, today: CivilDate
    ) -> Result<CountdownSavedGoal, CountdownRefusal> {
        let issues = CountdownRules.validate(draft, birthDate: birthDate, today: today, checkingTarget: setsTarget)
        if issues.contains(where: \.isBlocking) { return .failure(CountdownRefusal(issues)) }
        var edited = goal
        edited.title = draft.trimmedTitle
        edited.isAgeGoal = draft.isAgeGoal
        edited.targetDate = draft.targetDate
        edited.targetAge = draft.targetAge
        return .success(CountdownSavedGoal(goal: edited, warnings: issues))
    }

    // MARK: - Reorder

    /// Moves goal `goalID` to `position` (0 = top, clamped to the list) and returns the goals
    /// whose priority changed: just the moved goal when its new neighbours leave a gap, every
    /// goal whose priority changes when the list has to be renumbered (no gap, or a priority
    /// beyond `maxPriorityMagnitude`). Empty when the goal is unknown or already there.
    public static func move(goalID: String, to position: Int, in goals: [CountdownGoal]) -> [CountdownGoal] {
        let ordered = sorted(goals)
        guard let from = ordered.firstIndex(where: { $0.id == goalID }) else { return [] }
        let target = min(max(position, 0), ordered.count - 1)
        if target == from { return [] }
        var moved = ordered[from]
        var others = ordered
        others.remove(at: from)
        let above = target > 0 ? others[target - 1].priority : nil
        let below = target < others.count ? others[target].priority : nil
        if let priority = priority(between: above, and: below) {
            moved.priority = priority
            return [moved]
        }
        others.insert(moved, at: target)
        return renumbered(others)
    }

    /// A priority strictly between `above` and `below` (either may be open), or nil when there
    /// is none within `maxPriorityMagnitude`.
    static func priority(between above: Int?, and below: Int?) -> Int? {
        let candidate: Int
        switch (above, below) {
        case (let a?, let b?):
            guard b - a >= 2 else { return nil }
            candidate = a + (b - a) / 2
        case (let a?, nil): candidate = a + priorityStep
        case (nil, let b?): candidate = b - priorityStep
        case (nil, nil): candidate = 0
        }
        return abs(candidate) <= maxPriorityMagnitude ? candidate : nil
    }

    /// Gives `ordered` the priorities 0, step, 2·step, … and returns the goals that changed.
    static func renumbered(_ ordered: [CountdownGoal]) -> [CountdownGoal] {
        ordered.enumerated().compactMap { index, goal in
            let priority = index * priorityStep
            if goal.priority == priority { return nil }
            var changed = goal
            changed.priority = priority
            return changed
        }
    }
}

/// A goal the editor saved, with any warnings to show (e.g. "目標日が過去です").
public struct CountdownSavedGoal: Sendable, Hashable {
    /// The goal to store.
    public var goal: CountdownGoal
    /// Non-blocking issues found.
    public var warnings: [CountdownValidationIssue]

    /// Makes a saved goal.
    public init(goal: CountdownGoal, warnings: [CountdownValidationIssue]) {
        self.goal = goal
        self.warnings = warnings
    }
}
