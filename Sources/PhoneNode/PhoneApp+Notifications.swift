import PeerLinkCore
import FitnessDomain

/// Local notifications: the Monday 09:00 weekly summary, the run-detection prompt, their
/// delivery at their time (app timers) and the user's answers.
///
/// Rules:
/// - The weekly summary is pending while the settings allow it (master switch and its own
///   switch), with a calendar trigger Monday 09:00 in the *current* time zone: a time-zone
///   change (`tz ZONE` → `setCalendar`) recomputes its fire time, and DST is in the zone's rules.
/// - A repeating request has fixed contents; the app rewrites them whenever it runs, and it
///   runs at the fire time (its timer), so the delivered summary covers the complete
///   Monday–Sunday week before the fire, in the fire's time zone.
/// - Due requests are delivered in fire order and recorded with their scheduled fire time and
///   the delivery time; at most 64 are pending (`PendingNotificationList`).
/// - Accepting a run prompt asks the watch to start a running workout credited from when the
///   run began (`PhoneEffect.startWatchWorkout`).
extension PhoneApp {
    // MARK: - Scheduling

    /// Adds the weekly summary when the settings allow it and removes what they turn off.
    mutating func scheduleWeeklySummary(_ ctx: inout NodeContext) {
        let settings = settings(ctx)
        // Asked first: a mutating call marks the notifications part written (`PhoneState.touched`),
        // and `save` would encode and compare it on every timer tick.
        if state.notifications.pending.hasTurnedOff(settings) {
            let removed = state.notifications.pending.apply(settings)
            if removed.contains(RunStartEvent.notificationID) { state.notifications.pendingRunStartMs = nil }
        }
        guard NotificationPolicy.shouldScheduleWeeklySummary(settings: settings),
              !state.notifications.pending.contains(id: WeeklySummary.notificationID) else { return }
        let fire = WeeklySummary.nextFireMs(after: ctx.now, calendar: ctx.calendar)
        state.notifications.pending.add(weeklySummaryRequest(fireMs: fire, ctx))
    }

    /// The weekly summary request for the fire at `fireMs`, with the contents that fire carries.
    func weeklySummaryRequest(fireMs: EpochMs, _ ctx: NodeContext) -> PendingNotification {
        let summary = WeeklySummary.make(
            samples: readableSamples(ctx), workouts: workouts(ctx), forFireAtMs: fireMs, calendar: ctx.calendar, statistics: statistics)
        return PendingNotification(
            id: WeeklySummary.notificationID, kind: .weeklySummary, title: summary.title(ctx.language), body: summary.body(ctx.language),
            trigger: .calendar(.weeklySummary), fireMs: fireMs)
    }

    // MARK: - Delivery

    /// Delivers every request due now, soonest first; the weekly summary gets fresh contents.
    mutating func deliverDueNotifications(_ ctx: inout NodeContext) {
        if let fire = state.notifications.pending.fireMs(id: WeeklySummary.notificationID), fire <= ctx.now {
            state.notifications.pending.add(weeklySummaryRequest(fireMs: fire, ctx))
        }
        // (Nothing due, nothing written: see `scheduleWeeklySummary`.)
        guard state.notifications.pending.hasDue(nowMs: ctx.now) else { return }
        for n in state.notifications.pending.onDeliverDue(nowMs: ctx.now, calendar: ctx.calendar) {
            var runStart: EpochMs?
            if n.kind == .runDetected {
                runStart = state.notifications.pendingRunStartMs
                state.notifications.pendingRunStartMs = nil
            }
            state.notifications.record(DeliveredNotification(notification: n, deliveredMs: ctx.now, runStartMs: runStart))
            ctx.log(.info, "notification delivered: \(n.id) “\(n.title)” (fire \(PhoneTime.logDateTime(n.fireMs, ctx.calendar)))")
        }
    }

    // MARK: - Commands

    /// `notification respond ID|last accept|dismiss`, `notifications [list]`.
    mutating func notificationCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        if w.count == 1 || (w.count == 2 && w[1] == "list") { return show(["notifications"], ctx) }
        guard w.count == 4, w[1] == "respond", w[3] == "accept" || w[3] == "dismiss" else {
            return .error(L10n.usage("notification respond ID|last accept|dismiss")(ctx.language))
        }
        let delivered = state.notifications.delivered
        guard let index = delivered.lastIndex(where: { (w[2] == "last" || $0.notification.id == w[2]) && $0.response == nil }) else {
            return .error(L10n.phoneNoNotification(w[2])(ctx.language))
        }
        var item = delivered[index]
        item.response = w[3]
        item.respondedMs = ctx.now
        state.notifications.delivered[index] = item
        var value: [String: PlistValue] = ["id": .string(item.notification.id), "response": .string(w[3])]
        var text = L10n.phoneNotificationAnswered(item.notification.id, accepted: w[3] == "accept")(ctx.language)
        if w[3] == "accept", item.notification.kind == .runDetected, let start = item.runStartMs {
            let effect = PhoneEffect.startWatchWorkout(activity: .running, startMs: start)
            perform(effect, &ctx)
            value["effect"] = effect.payload
            text = L10n.phoneStartingWorkout(from: PhoneTime.dateTime(start, ctx.calendar))(ctx.language)
        }
        return .ok(.dictionary(value), text: text)
    }

    // MARK: - Views

    /// A delivered notification as data.
    static func deliveredValue(_ d: DeliveredNotification) -> PlistValue {
        var v = d.notification.plistValue.dictionaryValue ?? [:]
        v["delivered"] = .int(d.deliveredMs)
        if let r = d.runStartMs { v["runStart"] = .int(r) }
        if let r = d.response { v["response"] = .string(r) }
        if let r = d.respondedMs { v["responded"] = .int(r) }
        return .dictionary(v)
    }

    /// The notifications screen: pending and delivered.
    func notificationsValue() -> PlistValue {
        let n = state.notifications
        return [
            "pending": n.pending.plistValue, "delivered": .array(n.delivered.map(Self.deliveredValue)),
            "deliveredTotal": .int(Int64(n.deliveredTotal)), "suppressedRunPrompts": .int(Int64(n.suppressedRunPrompts)),
            "limit": .int(Int64(PendingNotificationList.maxPending)),
        ]
    }

    /// The notifications screen as text.
    func notificationsText(_ ctx: NodeContext) -> String {
        let n = state.notifications
        var lines = ["\(L10n.phoneNotificationsPending(ctx.language)) (\(n.pending.count)/\(PendingNotificationList.maxPending))"]
        for p in n.pending.items { lines.append("  \(PhoneTime.dateTime(p.fireMs, ctx.calendar))  \(p.title) — \(p.body)") }
        lines.append("\(L10n.phoneNotificationsDelivered(ctx.language)) (\(n.deliveredTotal))")
        for d in n.delivered.suffix(10) {
            let answer = d.response.map { " [\(L10n.phoneAnswer($0)(ctx.language))]" } ?? ""
            lines.append("  \(PhoneTime.dateTime(d.deliveredMs, ctx.calendar))  \(d.notification.title) — \(d.notification.body)\(answer)")
        }
        return lines.joined(separator: "\n")
    }
}
