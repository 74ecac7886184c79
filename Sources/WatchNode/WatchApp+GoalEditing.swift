import PeerLink
import Shared

/// Editing countdown goals on the watch: the same `CountdownCommands` controller the phone
/// uses (`goal add|edit|delete|confirm|cancel|move`, `goals`, `profile …`), over the same
/// replicated goals, so an edit on either device reaches the other by sync.
///
/// Goals created on the watch take ids `goal-w<n>` (the phone's are `goal-<n>`), so the two
/// devices never pick the same id, even offline.
extension WatchApp {
    /// The id prefix of goals created on the watch.
    public static let goalIDPrefix = "goal-w"
    static let goalCounterKey = "watch.goalCounter"

    /// `goal …`, `goals`, `profile …`.
    mutating func goalCommand(_ words: [String], _ ctx: inout NodeContext) -> CommandReply {
        let counter = Int(ctx.local[Self.goalCounterKey]?.intValue ?? 0)
        let next = CountdownCommands.makeGoalID(prefix: Self.goalIDPrefix, after: counter) { id in
            ctx.replica.hasUsed(RecordKey(CountdownGoal.collection, id))
        }
        let input = CountdownCommandInput(
            goals: ctx.replica.all(CountdownGoal.self), profile: ctx.replica.record(UserProfile.self, id: UserProfile.recordID),
            deletion: goalDeletion, nowMs: ctx.now, calendar: ctx.calendar, language: ctx.language, newGoalID: next.id)
        guard let result = CountdownCommands.run(words, input) else { return .error("unknown command '\(words.joined(separator: " "))'") }
        goalDeletion = result.deletion
        guard result.isOK else { return .error(result.text) }
        if let refusal = ctx.apply(result.writes) { return .error("not stored: \(refusal)") }
        if result.usedNewGoalID { ctx.setLocal(Self.goalCounterKey, .int(Int64(next.counter))) }
        if result.changesRecords { refreshGoals(&ctx) }
        return .ok(result.value, text: result.text)
    }
}
