import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The phone app and WatchConnectivity: the one adapter its effects go through (`perform`),
/// and the delegate callbacks (the watch's live workout, replies and failures of our
/// messages, transfers' outcomes).
///
/// Channels (docs/PROTOCOL.md §5):
/// - `startWatchWorkout` → `sendMessage` with a reply while the watch is reachable; user
///   info when it is not, when the message fails, or when the phone restarted before the
///   answer (the watch starts one workout per start time, so a duplicate changes nothing).
/// - `pushComplication` → `transferCurrentComplicationUserInfo` (the session spends the 50
///   a day of the phone's local calendar, then sends ordinary user info; it fails at once
///   when the complication is not on the watch face). What happened is recorded.
/// - the settings snapshot → `updateApplicationContext` whenever it changes.
extension PhoneApp {
    // MARK: - The adapter

    /// Carries out one effect and records it with its outcome (`show effects`, `effect last
    /// outcome`).
    mutating func perform(_ effect: PhoneEffect, _ ctx: inout NodeContext) {
        let outcome: String
        switch effect {
        case .startWatchWorkout(let activity, let startMs):
            outcome = startWatchWorkout(activity: activity, startMs: startMs, &ctx)
        case .pushComplication:
            outcome = pushComplication(effect.payload, &ctx)
        }
        state.effects.append(EffectRecord(atMs: ctx.now, effect: effect, outcome: outcome))
        if state.effects.count > EffectRecord.maxKept { state.effects.removeFirst(state.effects.count - EffectRecord.maxKept) }
        ctx.log(.info, "effect \(effect.kind) → \(outcome): \(effect.payload.jsonString())")
    }

    /// `HKHealthStore.startWatchApp(with:)`'s stand-in: a message while reachable, else user info.
    mutating func startWatchWorkout(activity: WorkoutActivityType, startMs: EpochMs, _ ctx: inout NodeContext) -> String {
        let payload = PhoneEffect.startWatchWorkout(activity: activity, startMs: startMs).payload
        guard ctx.isReachable else { return sendStartAsUserInfo(payload, because: "the watch is not reachable", &ctx) }
        let id = ctx.sendMessage(payload, replyExpected: true)
        state.link.messagesSent += 1
        state.link.startsByMessage += 1
        state.link.pendingStarts.append(.init(messageID: id, activity: activity, startMs: startMs))
        state.link.lastStartVia = "message"
        state.link.lastStartResult = "pending"
        return "message"
    }

    /// The start request as user info (guaranteed; delivered when the watch app runs).
    mutating func sendStartAsUserInfo(_ payload: PlistValue, because reason: String, _ ctx: inout NodeContext) -> String {
        state.link.lastStartVia = "userInfo"
        switch ctx.transferUserInfo(payload) {
        case .success:
            state.link.startsByUserInfo += 1
            state.link.lastStartResult = "queued"
            ctx.log(.info, "startWorkout sent as user info: \(reason)")
            return "userInfo"
        case .failure(let e):
            state.link.recordLinkError(e.code.name)
            state.link.lastStartResult = "failed:\(e.code.name)"
            ctx.log(.error, "startWorkout not sent: \(e)")
            return "failed:\(e.code.name)"
        }
    }

    /// Start requests whose message outcome was lost with a restart go again as user info.
    mutating func resendPendingStarts(_ ctx: inout NodeContext) {
        let pending = state.link.pendingStarts
        state.link.pendingStarts = []
        for p in pending {
            let payload = PhoneEffect.startWatchWorkout(activity: p.activity, startMs: p.startMs).payload
            _ = sendStartAsUserInfo(payload, because: "the phone restarted before the watch answered", &ctx)
        }
    }

    /// The push of `snapshot`, naming the replicated write its step goal came from (the
    /// snapshot was just refreshed from the replica, so the two agree).
    func complicationPush(_ snapshot: FitnessWidgetSnapshot, _ ctx: NodeContext) -> PhoneEffect {
        .pushComplication(snapshot, stepGoalStamp: AppSettings.stepGoalStamp(in: ctx.replica))
    }

    /// `transferCurrentComplicationUserInfo` and what became of it.
    mutating func pushComplication(_ payload: PlistValue, _ ctx: inout NodeContext) -> String {
        switch ctx.transferCurrentComplicationUserInfo(payload) {
        case .success(let t) where t.isCurrentComplicationInfo:
            state.link.complicationSent += 1
            return "complication"
        case .success:
            state.link.complicationFallback += 1
            return "userInfo"
        case .failure(let e):
            state.link.complicationFailed += 1
            state.link.recordLinkError(e.code.name)
            ctx.log(.warning, "complication push not sent: \(e)")
            return "failed:\(e.code.name)"
        }
    }

    /// `complication push`: refreshes the App Group snapshot and pushes it now (what the app
    /// does after the step observer's delivery, on demand); `complication` shows the budget.
    mutating func complicationCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        switch w.dropFirst().first {
        case nil:
            let l = state.link
            let text = L10n.phoneComplicationState(
                enabled: ctx.isComplicationEnabled, remaining: ctx.remainingComplicationUserInfoTransfers, sent: l.complicationSent,
                fallback: l.complicationFallback, failed: l.complicationFailed)(ctx.language)
            return .ok(complicationLinkValue(ctx), text: text)
        case "push" where w.count == 2:
            refreshAppGroup(&ctx)
            guard let snapshot = state.widgets.appGroup else { return .error(L10n.phoneNoSnapshot(ctx.language)) }
            perform(complicationPush(snapshot, ctx), &ctx)
            let outcome = state.effects.last?.outcome ?? "?"
            return .ok(["outcome": .string(outcome), "remaining": .int(Int64(ctx.remainingComplicationUserInfoTransfers))],
                       text: L10n.phoneComplicationPushed(outcome, remaining: ctx.remainingComplicationUserInfoTransfers)(ctx.language))
        default:
            return .error(L10n.usage("complication [push [JSON]]")(ctx.language))
        }
    }

    // MARK: - Application context

    /// The context's key for the settings snapshot.
    static let settingsContextKey = PeerPayloadKeys.settings

    /// Sets the settings snapshot (`settingsValue` plus `language`) as the application context
    /// after every settings change, as a WatchConnectivity app does: WatchConnectivity does not
    /// deliver a context equal to the current one again. `contextsSent` counts the new ones.
    mutating func publishSettingsContext(_ ctx: inout NodeContext) {
        var snapshot = Self.settingsValue(settings(ctx)).dictionaryValue ?? [:]
        snapshot["language"] = .string(ctx.language.rawValue)
        let context: [String: PlistValue] = [Self.settingsContextKey: .dictionary(snapshot)]
        let isNew = ctx.applicationContext != context
        switch ctx.updateApplicationContext(.dictionary(context)) {
        case .success: if isNew { state.link.contextsSent += 1 }
        case .failure(let e):
            state.link.recordLinkError(e.code.name)
            ctx.log(.error, "settings context not set: \(e)")
        }
    }
}
