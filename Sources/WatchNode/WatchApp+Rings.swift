import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// Today's activity (seed: 今日のアクティビティ画面): steps and active-calorie rings against the
/// goals in the replicated `AppSettings` — the same record the phone reads and writes, so a
/// goal changed on either device shows on both.
///
/// Totals merge the phone's and the watch's samples of the local day with `HealthStatistics`
/// (watch first), plus the active workout's energy samples, which reach the replicated state
/// only when the workout is saved (`TodayTotals`).
extension WatchApp {
    // MARK: - Values

    /// Today's totals at `ctx.now` in the device's calendar.
    func todayTotals(_ ctx: NodeContext) -> TodayTotals {
        let day = ctx.calendar.civilDate(ctx.now)
        let window = TodayTotals.window(of: day, calendar: ctx.calendar)
        var samples = TodayTotals.samples(
            in: ctx.replica, kinds: [HealthSampleKind.steps.name, HealthSampleKind.activeEnergy.name], overlapping: window)
        if let b = manager.builder { samples += b.samples.filter { $0.kind == .activeEnergy } }
        return TodayTotals.compute(samples: samples, day: day, calendar: ctx.calendar)
    }

    /// Today's steps as the rings and the gauge show them: the merged total, or the phone's
    /// pushed count when it is larger and was saved today in `calendar` (the current zone).
    func displayedSteps(_ totals: TodayTotals, calendar: LocalCalendar) -> Int {
        phonePush?.steps(on: totals.day, calendar: calendar, computed: totals.steps) ?? totals.steps ?? 0
    }

    /// The rings screen now.
    func rings(_ ctx: NodeContext) -> ActivityRings {
        let totals = todayTotals(ctx)
        return ActivityRings(
            day: totals.day, stepsToday: displayedSteps(totals, calendar: ctx.calendar), energyTodayKcal: totals.energyKcal ?? 0, settings: settings(ctx))
    }

    // MARK: - Commands

    /// `steps N [--over DURATION]`: the watch counted `N` steps over the last minute (or
    /// `DURATION`), ending now. Written to the replicated state at once.
    mutating func stepsCommand(_ c: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let w = c.words
        guard w.count == 2 || (w.count == 4 && w[2] == "--over"), let n = Int(w[1]) else {
            return .error(L10n.usage("steps N [--over DURATION]")(ctx.language))
        }
        guard (0...Self.maxStepsPerSample).contains(n) else {
            return .error(L10n.watchStepsOutOfRange(n, max: Self.maxStepsPerSample)(ctx.language))
        }
        var spanMs = Self.defaultStepSampleMs
        if let over = c.option("over") {
            guard let ms = WatchCommandWords.durationMs(over) else { return .error(L10n.watchBadDuration(over)(ctx.language)) }
            spanMs = ms
        }
        let sample = HealthSample(
            id: newStepSampleID(endMs: ctx.now, ctx), kind: .steps, source: .watch, startMs: ctx.now - spanMs, endMs: ctx.now,
            value: Double(n))
        if case .failure(let e) = ctx.put(sample) { return .error(L10n.writeRefused(e)(ctx.language)) }
        refreshComplication(&ctx)
        let r = rings(ctx)
        return .ok(r.jsonValue(), text: r.text(ctx.language))
    }

    /// `watch.steps.<endMs>`, with `.2`, `.3`… when taken.
    func newStepSampleID(endMs: EpochMs, _ ctx: NodeContext) -> String {
        var id = "watch.steps.\(endMs)"
        var n = 1
        while ctx.replica.fields(RecordKey(HealthSample.collection, id)) != nil {
            n += 1
            id = "watch.steps.\(endMs).\(n)"
        }
        return id
    }

    /// `settings step-goal N`: the shared step goal (1,000–100,000), as the phone's settings
    /// screen sets it. Only the `stepGoal` field is written, so a concurrent phone edit of
    /// another setting is kept.
    mutating func settingsCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        guard w.count == 3, w[1] == "step-goal" else { return .error(L10n.usage("settings step-goal N")(ctx.language)) }
        guard let goal = Int(w[2]), AppSettings.stepGoalRange.contains(goal) else {
            return .error(L10n.stepGoalOutOfRange(AppSettings.stepGoalRange)(ctx.language))
        }
        let key = RecordKey(AppSettings.collection, AppSettings.recordID)
        if case .failure(let e) = ctx.set(key, ["stepGoal": .int(Int64(goal))]) { return .error(L10n.writeRefused(e)(ctx.language)) }
        refreshComplication(&ctx)
        let r = rings(ctx)
        return .ok(r.jsonValue(), text: r.text(ctx.language))
    }
}
