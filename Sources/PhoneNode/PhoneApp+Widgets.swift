import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The home-screen widgets: the fitness widgets (small and medium, from the App Group) and the
/// countdown widget (the top goal), each with WidgetKit's daily reload budget.
///
/// Rules:
/// - The app writes the App Group snapshot when it runs with new data (foreground, the step
///   observer's delivery, settings and authorization changes). A fitness timeline shows the
///   App Group as it is at the reload, with policy `.after(now + 15 min)`.
/// - A snapshot summed over another local day than today's has no "today" values: the widget
///   shows "—" for steps and calories until the app writes a new one (never yesterday's steps
///   as today's). Each timeline has a midnight entry for this: from the local midnight after
///   the reload the widget shows "—", not the ended day's total for up to 15 minutes. The day is its bounds, so after a time-zone change a snapshot of the old
///   zone's day is not today's even when it has today's date; the app rewrites the App Group
///   and reloads the widgets on a zone change (`runDue`).
/// - Every reload asks the budget (72 a day per widget kind; free while the app is in the
///   foreground). A denied reload keeps the old timeline and WidgetKit asks again after the
///   next local midnight, when the budget resets.
/// - The countdown widget reloads when the top goal or the birth date changes, when the time
///   zone changes, and at each local midnight (its policy), so the count follows the date.
extension PhoneApp {
    // MARK: - Fitness widgets

    /// Writes today's values to the App Group (what the widgets and the complication read).
    mutating func refreshAppGroup(_ ctx: inout NodeContext) {
        state.widgets.appGroup = FitnessWidgetSnapshot.make(
            samples: samples(ctx), settings: settings(ctx), authorization: state.auth.authorization,
            nowMs: ctx.now, calendar: ctx.calendar, statistics: statistics)
    }

    /// Asks WidgetKit to reload the fitness widgets; on a grant they show the App Group.
    mutating func reloadFitnessWidgets(_ ctx: inout NodeContext) {
        switch state.widgets.reload.request(now: ctx.now, appInForeground: state.app.isForeground, calendar: ctx.calendar) {
        case .granted:
            state.widgets.shown = Self.forToday(state.widgets.appGroup, nowMs: ctx.now, calendar: ctx.calendar, settings: settings(ctx))
            state.widgets.entryMs = ctx.now
            state.widgets.reload.nextReloadMs = FitnessWidgets.refreshIntervalMs + ctx.now
        case .denied:
            state.widgets.reload.nextReloadMs = CountdownCalendar.nextLocalMidnight(after: ctx.now, calendar: ctx.calendar)
        }
    }

    /// The App Group snapshot as a widget may show it at `nowMs`: none yet → every value "—";
    /// summed over another local day than today in `calendar` → no today values.
    static func forToday(_ snapshot: FitnessWidgetSnapshot?, nowMs: EpochMs, calendar: LocalCalendar, settings: AppSettings) -> FitnessWidgetSnapshot {
        guard var s = snapshot else { return FitnessWidgets.placeholderSnapshot(stepGoal: settings.stepGoal) }
        if !s.isForToday(nowMs: nowMs, calendar: calendar) {
            s.todaySteps = nil
            s.todayCaloriesKcal = nil
        }
        return s
    }

    /// The fitness timeline's entry showing at `ctx.now`: the reload's, or from the local
    /// midnight after it on, its midnight entry without today's values
    /// (`FitnessWidgets.timelineSnapshots`); nil before the first timeline.
    func currentFitnessEntry(_ ctx: NodeContext) -> (dateMs: EpochMs, snapshot: FitnessWidgetSnapshot)? {
        guard let at = state.widgets.entryMs, let s = state.widgets.shown else { return nil }
        return FitnessWidgets.timelineSnapshots(s, nowMs: at).last { $0.dateMs <= ctx.now } ?? (at, s)
    }

    /// The small widget's current entry; nil before the first timeline.
    func smallWidgetEntry(_ ctx: NodeContext) -> FitnessSmallWidgetEntry? {
        currentFitnessEntry(ctx).map { FitnessSmallWidgetEntry(dateMs: $0.dateMs, snapshot: $0.snapshot) }
    }

    /// The medium widget's current entry; nil before the first timeline.
    func mediumWidgetEntry(_ ctx: NodeContext) -> FitnessMediumWidgetEntry? {
        currentFitnessEntry(ctx).map { FitnessMediumWidgetEntry(dateMs: $0.dateMs, snapshot: $0.snapshot) }
    }

    // MARK: - Countdown widget

    /// Goals or the birth date changed: the app reloads the widget when what it shows (the
    /// top goal, the birth date) changed, and closes a confirmation dialog whose goal is gone.
    mutating func onGoalsChanged(_ ctx: inout NodeContext) {
        _ = deletion.onGoalsChanged(goals(ctx))
        let top = CountdownGoalBook.top(goals(ctx))
        let birth = profile(ctx)?.birthDate
        if top != state.countdownWidget.top || birth != state.countdownWidget.birthDate || state.countdownWidget.entryMs == nil {
            reloadCountdownWidget(&ctx)
        }
    }

    /// Asks WidgetKit to reload the countdown widget; on a grant it shows the top goal counted
    /// from today, until the next local midnight.
    mutating func reloadCountdownWidget(_ ctx: inout NodeContext) {
        let decision = state.countdownWidget.reload.request(now: ctx.now, appInForeground: state.app.isForeground, calendar: ctx.calendar)
        state.countdownWidget.reload.nextReloadMs = CountdownCalendar.nextLocalMidnight(after: ctx.now, calendar: ctx.calendar)
        if decision == .granted {
            state.countdownWidget.top = CountdownGoalBook.top(goals(ctx))
            state.countdownWidget.birthDate = profile(ctx)?.birthDate
            state.countdownWidget.entryMs = ctx.now
            state.countdownWidget.entryDay = ctx.calendar.civilDate(ctx.now)
        }
    }

    /// True when the countdown widget must reload: never loaded, its reload time (the next
    /// local midnight when it loaded) has come, or that time lies beyond the coming local
    /// midnight — the clock went back to an earlier day than the entry counts from, and
    /// waiting for that midnight would show a later day's count until then.
    /// (Inlined: called with the context every tick, a call copied the whole context.)
    @inline(__always) func isCountdownWidgetReloadDue(_ ctx: NodeContext) -> Bool {
        guard let next = state.countdownWidget.reload.nextReloadMs else { return true }
        return next <= ctx.now || next > nextLocalMidnight(ctx)
    }

    /// The countdown widget's current timeline; nil before the first reload.
    func countdownWidgetTimeline() -> CountdownWidgetTimeline? {
        let w = state.countdownWidget
        guard let at = w.entryMs, let day = w.entryDay else { return nil }
        let display = w.top.map { CountdownDisplay(goal: $0, birthDate: w.birthDate, today: day) }
        return CountdownWidgetTimeline(
            entries: [CountdownWidgetEntry(dateMs: at, goal: display)], policy: w.reload.nextReloadMs.map { .after($0) } ?? .atEnd)
    }
}
