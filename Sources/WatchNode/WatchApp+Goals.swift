import PeerLinkCore
import CountdownDomain

/// Countdown goals on the watch (issue 7, watch side): the top goal and its days left as a
/// second complication family / Smart Stack entry (`CountdownComplicationEntry`), from the
/// replicated goals and profile.
///
/// Recomputed at launch, after every replica merge (a goal added, edited, reordered or
/// deleted on the phone) and at local midnight (`refreshAtMs`, an app timer), and when the
/// time zone changes. The entry counts as reloaded only when what it shows changes
/// (`goalReloads`); it changes at most once a day plus once per phone edit, so it needs no
/// budget of its own. Goal editing on the watch is not here.
extension WatchApp {
    /// Recomputes the goal list and the complication entry at `ctx.now`.
    mutating func refreshGoals(_ ctx: inout NodeContext) {
        let all = ctx.replica.all(CountdownGoal.self)
        let profile = ctx.replica.record(UserProfile.self, id: UserProfile.recordID)
        let list = CountdownDisplayList.recompute(goals: all, profile: profile, nowMs: ctx.now, calendar: ctx.calendar)
        let shown = goalEntry
        let entry = CountdownComplicationEntry(dateMs: ctx.now, goal: list.top, refreshAtMs: list.refreshAtMs)
        goals = list
        if shown?.goal != entry.goal || shown == nil {
            goalEntry = entry
            goalReloads += 1
            ctx.log(.debug, "countdown complication: \(entry.text(ctx.language))")
        } else if var kept = shown {
            kept.refreshAtMs = entry.refreshAtMs
            goalEntry = kept
        }
    }

    // MARK: - Rendering

    /// `show goals`: the entry and the whole list.
    func goalsValue(_ ctx: NodeContext) -> PlistValue {
        var d: [String: PlistValue] = ["goalReloads": .int(Int64(goalReloads))]
        if let goalEntry { d["complication"] = goalEntry.jsonValue(ctx.language) }
        if let goals { d["list"] = goals.jsonValue(ctx.language) }
        return .dictionary(d)
    }

    /// The entry's line, then the numbered list.
    func goalsText(_ ctx: NodeContext) -> String {
        [goalEntry?.text(ctx.language), goals?.text(ctx.language, withIDs: true)].compactMap { $0 }.joined(separator: "\n")
    }

    /// `goal top title|days|status`, `goal count`.
    func goalQuery(_ path: ArraySlice<String>) -> PlistValue? {
        switch (path.first, path.dropFirst().first) {
        case ("count", nil): return .int(Int64(goals?.items.count ?? 0))
        case ("top", nil): return goalEntry.map { $0.jsonValue() }
        case ("top", "title"): return goalEntry?.goal.map { .string($0.title) } ?? .string("none")
        case ("top", "days"): return goalEntry?.daysLeft.map { .int(Int64($0)) }
        case ("top", "status"): return goalEntry?.goal.map { .string($0.status.code) } ?? .string("none")
        case ("top", "text"): return goalEntry.map { .string($0.text()) }
        case ("reloads", nil): return .int(Int64(goalReloads))
        default: return nil
        }
    }
}
