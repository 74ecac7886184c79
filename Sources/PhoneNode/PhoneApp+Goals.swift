import PeerLinkCore
import CountdownDomain

/// The countdown goals on the phone: the shared `CountdownCommands` controller over the goals
/// and profile of the replicated state.
///
/// Goals created here take ids `goal-<n>`: n counts up in the phone's local state and skips
/// every id the replica has used, live, deleted or collected (ids are never reused: the
/// replica refuses a write to a deleted id). The counter alone is not enough after a store
/// reset, when the watch sends the old goals back, deleted ones as tombstones. After a store reset, until the watch's state is back,
/// the counter and the replica know nothing of the ids the watch holds: goals created then
/// take `goal-<n>-<suffix>` (see `IDCounters.provisionalSuffix`), so they cannot merge into
/// an older goal of the same number.
extension PhoneApp {
    /// The live goals.
    func goals(_ ctx: NodeContext) -> [CountdownGoal] { ctx.replica.all(CountdownGoal.self) }

    /// The profile record, if written.
    func profile(_ ctx: NodeContext) -> UserProfile? { ctx.replica.record(UserProfile.self, id: UserProfile.recordID) }

    /// The controller's input at this moment; `newGoalID` is the id the next goal would take.
    func countdownInput(_ ctx: NodeContext, newGoalID: String? = nil) -> CountdownCommandInput {
        CountdownCommandInput(
            goals: goals(ctx), profile: profile(ctx), deletion: deletion, nowMs: ctx.now, calendar: ctx.calendar,
            language: ctx.language, newGoalID: newGoalID ?? nextGoalID(ctx).id)
    }

    /// The next free phone goal id and the counter it uses.
    func nextGoalID(_ ctx: NodeContext) -> (id: String, counter: Int) {
        CountdownCommands.nextGoalID(prefix: Self.goalIDPrefix, after: state.ids.goal, provisionalSuffix: state.ids.provisionalSuffix, replica: ctx.replica)
    }

    /// `goal …`, `goals`, `profile …`: runs the controller and applies its writes.
    mutating func goalCommand(_ words: [String], _ ctx: inout NodeContext) -> CommandReply {
        let next = nextGoalID(ctx)
        guard let result = CountdownCommands.run(words, countdownInput(ctx, newGoalID: next.id)) else {
            return .error(L10n.unknownCommand(words.joined(separator: " "))(ctx.language))
        }
        deletion = result.deletion
        guard result.isOK else { return .error(result.text) }
        if let refusal = ctx.apply(result.writes) { return .error(L10n.writeRefused(refusal)(ctx.language)) }
        if result.usedNewGoalID { state.ids.goal = next.counter }
        if result.changesRecords { onGoalsChanged(&ctx) }
        return .ok(result.value, text: result.text)
    }
}
