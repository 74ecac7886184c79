import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The step-gauge complication (seed: 現在の歩数を表示する CircularGauge スタイル): an
/// `accessoryCircular` `.accessoryCircularCapacity` gauge, value today's steps, maximum the
/// step goal, through `ComplicationFeed` and its reload budget (default 4 per sliding hour;
/// reloads while the app is in the foreground do not count).
///
/// Reloaded when today's steps change (a `steps` sample, merged phone samples, a new day),
/// when the step goal changes (either device), or when the phone pushes complication user
/// info. One reload per change of the (steps, goal) pair; an unchanged pair costs nothing.
///
/// The goal shown is the replicated `AppSettings.stepGoal`, except that a goal the phone
/// pushed stands while it is newer than the replicated one (the push jumps the queue; the
/// settings record follows through the replicated state). Newer is decided by the stamps of
/// the two writes (`PhoneStepsPush.isStepGoalNewer`), as the replica's merge decides, so a
/// push that left before a later write — of either device — never hides it.
extension WatchApp {
    /// Recomputes the gauge and asks the feed to show it.
    mutating func refreshComplication(_ ctx: inout NodeContext) {
        let replicatedGoal = settings(ctx).stepGoal
        if let push = phonePush, push.stepGoal != nil,
           !push.isStepGoalNewer(thanReplicated: AppSettings.stepGoalStamp(in: ctx.replica))
        {
            phonePush?.stepGoal = nil
            phonePush?.stepGoalStamp = nil
            persistPhonePush(&ctx)
        }
        let gauge = ComplicationGauge(steps: displayedSteps(todayTotals(ctx), calendar: ctx.calendar), stepGoal: phonePush?.stepGoal ?? replicatedGoal)
        let before = complication
        let outcome = complication.show(gauge, at: ctx.now, appInForeground: lifecycle.presence == .foreground)
        switch outcome {
        case .reloaded(let entry):
            ctx.log(.debug, "complication reloaded: \(entry.gauge.label) of \(entry.gauge.stepGoal)")
        case .deferred(let until):
            ctx.log(.info, "complication reload deferred until \(until): budget of \(complication.settings.maxReloadsPerWindow) spent")
        case .unchanged:
            break
        }
        if complication != before { persistComplication(&ctx) }
    }

    /// The phone pushed complication data: remember it with the time its snapshot was saved
    /// (now when it does not say), so it counts for the local day containing that time in the
    /// zone current when it is read, and reload. Its goal counts only while it is newer than
    /// the replicated goal (`refreshComplication`).
    mutating func receiveComplicationInfo(_ info: ComplicationUserInfo, _ ctx: inout NodeContext) {
        phonePush = PhoneStepsPush(
            savedAtMs: info.savedAtMs ?? ctx.now, calendar: ctx.calendar, steps: info.steps, stepGoal: info.stepGoal,
            stepGoalStamp: info.stepGoalStamp)
        persistPhonePush(&ctx)
        refreshComplication(&ctx)
    }

    /// Stores the phone's push (or removes it).
    mutating func persistPhonePush(_ ctx: inout NodeContext) {
        ctx.setLocal(Self.phonePushKey, phonePush?.plistValue())
    }

    // MARK: - Rendering

    /// The complication as `show complication` gives it: the feed's JSON plus the displayed
    /// gauge's fields at the top level (value, max, fraction, label) and the budget in use.
    func complicationValue(_ ctx: NodeContext) -> PlistValue {
        var d = complication.jsonValue().dictionaryValue ?? [:]
        let shown = complication.displayed ?? ComplicationGauge(steps: 0, stepGoal: complication.latest.stepGoal)
        for (k, v) in shown.jsonValue().dictionaryValue ?? [:] { d[k] = v }
        d["reloadsInWindow"] = .int(Int64(complication.reloadsUsed(at: ctx.now)))
        d["totalReloads"] = .int(Int64(complication.totalReloads))
        return .dictionary(d)
    }
}
