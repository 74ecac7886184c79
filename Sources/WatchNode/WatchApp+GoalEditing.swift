import PeerLinkCore
import CountdownDomain

/// Editing countdown goals on the watch: the same `CountdownCommands` controller the phone
/// uses (`goal add|edit|delete|confirm|cancel|move`, `goals`, `profile …`), over the same
/// replicated goals, so an edit on either device reaches the other by sync.
///
/// Goals created on the watch take ids `goal-w<n>` (the phone's are `goal-<n>`), so the two
/// devices never pick the same id, even offline. n counts up in the watch's store and skips
/// every id the replica has used. After the watch's store was reset, until the phone's state
/// is back, new goals take `goal-w<n>-<suffix>` (`CountdownCommands.provisionalIDSuffix`), as
/// on the phone: the emptied counter would otherwise hand out an old goal's id again.
extension WatchApp {
    /// The id prefix of goals created on the watch.
    public static let goalIDPrefix = "goal-w"
    static let goalCounterKey = "watch.goalCounter"
    static let goalIDSuffixKey = "watch.goalIDSuffix"

    /// After a store reset: ids take a suffix until the phone's state is applied.
    mutating func noteStoreReset(_ ctx: inout NodeContext) {
        guard ctx.launchedAfterStoreReset else { return }
        ctx.setLocal(Self.goalIDSuffixKey, .string(CountdownCommands.provisionalIDSuffix(storeIncarnation: ctx.storeIncarnation)))
    }

    /// The next free watch goal id and the counter it uses.
    func nextGoalID(_ ctx: NodeContext) -> (id: String, counter: Int) {
        CountdownCommands.nextGoalID(prefix: Self.goalIDPrefix, after: Int(ctx.local[Self.goalCounterKey]?.intValue ?? 0),
                                     provisionalSuffix: ctx.local[Self.goalIDSuffixKey]?.stringValue, replica: ctx.replica)
    }

    /// `goal …`, `goals`, `profile …`.
    mutating func goalCommand(_ words: [String], _ ctx: inout NodeContext) -> CommandReply {
        if ctx.local[Self.goalIDSuffixKey] != nil, ctx.hasAppliedPeerState { ctx.setLocal(Self.goalIDSuffixKey, nil) }
        let next = nextGoalID(ctx)
        let input = CountdownCommandInput(
            goals: ctx.replica.all(CountdownGoal.self), profile: ctx.replica.record(UserProfile.self, id: UserProfile.recordID),
            deletion: goalDeletion, nowMs: ctx.now, calendar: ctx.calendar, language: ctx.language, newGoalID: next.id)
        guard let result = CountdownCommands.run(words, input) else { return .error(L10n.unknownCommand(words.joined(separator: " "))(ctx.language)) }
        goalDeletion = result.deletion
        guard result.isOK else { return .error(result.text) }
        if let refusal = ctx.apply(result.writes) { return .error(L10n.writeRefused(refusal)(ctx.language)) }
        if result.usedNewGoalID { ctx.setLocal(Self.goalCounterKey, .int(Int64(next.counter))) }
        if result.changesRecords { refreshGoals(&ctx) }
        return .ok(result.value, text: result.text)
    }
}
