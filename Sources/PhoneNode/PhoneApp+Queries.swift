import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// `query PATH…` (scenario expectations): the values documented in docs/PHONE.md.
///
/// A measurement with no data (or whose type is not readable) is the placeholder "—", never 0;
/// a thing that does not exist (no such goal, no notification delivered yet) has no value
/// (nil: the engine answers "no value at …").
extension PhoneApp {
    /// The placeholder value.
    static let noData: PlistValue = "—"

    /// What a query's first word asks about.
    enum QueryHead {
        case health, dashboard, history, settings, authorization, samples, widget, notification, export, countdown, live, effect
        case observer, app, workouts, link
    }

    /// Every query's first word, found by one lookup: a `switch` over the words compares the
    /// word with each in turn (~30 comparisons for `workouts`, which a scenario's `expect
    /// always` asks after every step).
    static let queryHeads: [String: QueryHead] = [
        "steps": .health, "energy": .health, "hr": .health, "sleep": .health, "dashboard": .dashboard, "history": .history,
        "settings": .settings, "authorization": .authorization, "samples": .samples, "widget": .widget, "widgets": .widget,
        "notifications": .notification, "notification": .notification, "export": .export, "goals": .countdown,
        "goal": .countdown, "profile": .countdown, "live": .live, "effects": .effect, "effect": .effect,
        "observer": .observer, "app": .app, "workouts": .workouts, "messages": .link, "link-errors": .link,
        "complication": .link, "files": .link, "context": .link, "watch-start": .link,
    ]

    func answer(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        guard let head = path.first, let kind = Self.queryHeads[head] else { return nil }
        let rest = Array(path.dropFirst())
        switch kind {
        case .health: return healthQuery(head, rest, ctx)
        case .dashboard: return rest.isEmpty ? dashboard(ctx).jsonValue() : dashboard(ctx).jsonValue()[rest[0]] ?? Self.noData
        case .history:
            guard let range = FitnessHistoryRange(rawValue: rest.first ?? "weekly") else { return nil }
            let h = history(range, ctx).jsonValue()
            return rest.count < 2 ? h : (rest[1] == "average" ? h["averageSteps"] ?? Self.noData : h[rest[1]])
        case .settings:
            let s = Self.settingsValue(settings(ctx))
            guard let field = rest.first else { return s }
            let names = ["step-goal": "stepGoal", "energy-goal": "energyGoal", "weekly-summary": "weeklySummary", "run-detection": "runDetection"]
            return s[names[field] ?? field]
        case .authorization:
            guard let word = rest.first else { return state.auth.authorization.plistValue }
            if word == "requested" { return .bool(state.auth.requestedMs != nil) }
            return Self.dataType(word).map { .string(state.auth.authorization.status($0).rawValue) }
        case .samples:
            guard rest.first == "count" else { return nil }
            return .int(Int64(HealthSampleKind.count(samples(ctx), matching: rest.dropFirst().first)))
        case .widget: return widgetQuery(rest, ctx)
        case .notification: return notificationQuery(rest)
        case .export: return exportQuery(rest)
        case .countdown: return CountdownCommands.query(path, countdownInput(ctx))
        case .live: return liveQuery(rest, ctx)
        case .effect: return effectQuery(rest)
        case .observer:
            let o = state.observer
            let v: PlistValue = ["deliveries": .int(Int64(o.deliveries)), "pending": .bool(o.pendingSinceMs != nil),
                                 "last": o.lastDeliveryMs.map { .int($0) } ?? Self.noData]
            return rest.first.map { v[$0] } ?? v
        case .app:
            let v: PlistValue = ["foreground": .bool(state.app.isForeground), "recomputes": .int(Int64(state.app.recomputes)),
                                 "countdown-day": .string(state.app.countdownDay?.description ?? ""),
                                 "opened-url": .string(state.app.openedURL ?? ""), "opened-screen": .string(state.app.openedScreen ?? "")]
            return rest.first.map { v[$0] } ?? v
        case .workouts: return .int(Int64(workouts(ctx).count))
        case .link: return linkQuery(head, rest, ctx)
        }
    }

    // MARK: - Health

    func healthQuery(_ kind: String, _ rest: [String], _ ctx: NodeContext) -> PlistValue? {
        let readable = readableSamples(ctx)
        let today = ctx.calendar.civilDate(ctx.now)
        switch (kind, rest.first) {
        case ("steps", "today"):
            return statistics.dailySum(of: .steps, in: readable, on: today, calendar: ctx.calendar).map { .int(Int64(FitnessFormat.roundedCount($0))) } ?? Self.noData
        case ("energy", "today"):
            return statistics.dailySum(of: .activeEnergy, in: readable, on: today, calendar: ctx.calendar).map { .double($0) } ?? Self.noData
        case ("steps", let d?), ("energy", let d?):
            guard let day = CivilDate(iso: d) else { return nil }
            let sum = statistics.dailySum(of: kind == "steps" ? .steps : .activeEnergy, in: readable, on: day, calendar: ctx.calendar)
            return sum.map { kind == "steps" ? .int(Int64(FitnessFormat.roundedCount($0))) : .double($0) } ?? Self.noData
        case ("hr", "latest"):
            return statistics.latestHeartRate(in: readable, atOrBeforeMs: ctx.now).map { .double($0.bpm) } ?? Self.noData
        case ("hr", "count"):
            return .int(Int64(statistics.heartRateSeries(in: readable, endingAtMs: ctx.now).count))
        case ("sleep", "lastnight"):
            guard let s = SleepAnalysis(statistics: statistics).lastNight(in: readable, nowMs: ctx.now, calendar: ctx.calendar) else { return Self.noData }
            guard rest.count > 1 else { return s.plistValue }
            switch rest[1] {
            case "hours": return .double(s.asleepHours)
            case "minutes": return .double(s.asleepMinutes)
            case "score": return s.score.map { .int(Int64($0)) } ?? Self.noData
            case "evaluation": return s.evaluation.map { .string($0.rawValue) } ?? Self.noData
            default: return s.plistValue[rest[1] + "Minutes"] ?? s.plistValue[rest[1]]
            }
        default:
            return nil
        }
    }

    // MARK: - Widgets

    func widgetQuery(_ rest: [String], _ ctx: NodeContext) -> PlistValue? {
        let all = widgetsValue(ctx)
        guard let which = rest.first else { return all }
        let field = rest.count > 1 ? rest[1] : nil
        switch which {
        case "small", "medium":
            guard let entry = all[which] else { return nil }
            guard let field else { return entry }
            let names = ["ring": "ringFraction", "goal": "stepGoal", "kcal": "caloriesKcal", "hr": "heartRateBpm"]
            let key = names[field] ?? field
            return entry[key] ?? (["steps", "ringFraction", "caloriesKcal", "heartRateBpm"].contains(key) ? Self.noData : nil)
        case "reloads": return all["fitnessBudget"]?["reloads"]
        case "denied": return all["fitnessBudget"]?["denied"]
        case "budget": return field.map { all["fitnessBudget"]?[$0] } ?? all["fitnessBudget"]
        case "next": return state.widgets.reload.nextReloadMs.map { .int($0) }
        case "countdown":
            let budget = all["countdownBudget"]
            switch field {
            case nil: return all["countdown"]
            case "reloads", "denied", "used", "remaining": return budget?[field!]
            case "next": return state.countdownWidget.reload.nextReloadMs.map { .int($0) }
            case "days": return all["countdown"]?["entries"]?.arrayValue?.first.map { $0["daysLeft"] ?? Self.noData }
            default: return all["countdown"]?["entries"]?.arrayValue?.first?[field!]
            }
        default: return nil
        }
    }

    // MARK: - Notifications, export, live, effects

    func notificationQuery(_ rest: [String]) -> PlistValue? {
        let n = state.notifications
        switch (rest.first, rest.dropFirst().first) {
        case ("pending", nil): return n.pending.plistValue
        case ("pending", "count"): return .int(Int64(n.pending.count))
        case ("delivered", nil): return .array(n.delivered.map(Self.deliveredValue))
        case ("delivered", "count"): return .int(Int64(n.deliveredTotal))
        case ("suppressed", _): return .int(Int64(n.suppressedRunPrompts))
        case ("last", let field):
            guard let last = n.delivered.last else { return nil }
            let v = Self.deliveredValue(last)
            return field.map { v[$0] ?? Self.noData } ?? v
        case ("weekly", let field):
            guard let p = n.pending.item(id: WeeklySummary.notificationID) else { return .string("none") }
            return field.map { p.plistValue[$0] } ?? p.plistValue
        default: return nil
        }
    }

    func exportQuery(_ rest: [String]) -> PlistValue? {
        switch rest.first {
        case "count": return .int(Int64(state.exports.count))
        case "last":
            guard let last = state.exports.last else { return nil }
            let v = Self.exportValue(last)
            return rest.count > 1 ? v[rest[1]] : v
        default: return nil
        }
    }

    func liveQuery(_ rest: [String], _ ctx: NodeContext) -> PlistValue? {
        let fields = ["state": "state", "hr": "heartRateBpm", "kcal": "energyKcal", "elapsed": "elapsedMs", "activity": "activity",
                      "start": "startMs", "id": "workoutID", "location": "location", "hr-count": "hrCount", "received": "receivedMs"]
        guard rest.first == "workout" else { return nil }
        guard let live = state.live else { return rest.count > 1 && rest[1] == "state" ? .string("none") : Self.noData }
        guard rest.count > 1 else { return live.plistValue }
        guard let key = fields[rest[1]] else { return nil }
        if key == "elapsedMs" { return liveElapsedMs(live, ctx).map { .int($0) } ?? Self.noData }
        return live.plistValue[key] ?? Self.noData
    }

    func effectQuery(_ rest: [String]) -> PlistValue? {
        switch rest.first {
        case "count": return .int(Int64(state.effects.count))
        case "last":
            guard let last = state.effects.last else { return nil }
            guard rest.count > 1 else { return last.effect.payload }
            if rest[1] == "kind" { return .string(last.effect.kind) }
            if rest[1] == "at" { return .int(last.atMs) }
            if rest[1] == "outcome" { return .string(last.outcome ?? "none") }
            return last.effect.payload[last.effect.kind]?[rest[1]]
        default: return nil
        }
    }
}
