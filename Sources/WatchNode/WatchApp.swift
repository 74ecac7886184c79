import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The watch app of seed 001 (Apple Watch コンパニオンアプリ) as a node: workout recording
/// through `WorkoutManager`, crash recovery, keeping the app alive, today's rings, the
/// step-gauge complication and the countdown-goal complication.
///
/// A pure core driven by `NodeEngine`: commands (scenario steps `watch …`), link events,
/// replica merges and ticks come in; writes go to the replicated state and the app's local
/// durable values through `NodeContext`, in the event's one batch (durable before the reply).
/// What the watch needs from WatchConnectivity beyond the replicated state (`sendMessage`,
/// `transferFile`) is produced as `WatchEffect` data and handed to ONE adapter,
/// `perform(_:_:)` (WatchApp+Link.swift); what the phone sends comes in through
/// `onLinkEvent` (WatchApp+Phone.swift).
///
/// The commands are the table `commands` (WatchApp+Commands.swift); they and the queries are
/// listed in docs/WATCH.md, and `show help` prints them.
public struct WatchApp: NodeApp {
    /// The phone's schema: both write the same collections.
    public static let replicaSchema = ReplicaSchema.fitnessAndCountdown
    // MARK: - Limits

    /// How far back a phone's `startWorkout` request may credit a workout (older start times
    /// are clamped to this): one hour.
    public static let maxStartCreditMs: Int64 = 60 * 60_000
    /// The span of a `steps N` sample when `--over` is not given: one minute ending now.
    public static let defaultStepSampleMs: Int64 = 60_000
    /// The most steps one `steps` sample may carry.
    public static let maxStepsPerSample = 100_000

    // MARK: - State

    /// The workout session and its live builder.
    public internal(set) var manager = WorkoutManager()
    /// The Digital Crown activity picker and the location.
    public internal(set) var picker = ActivityPicker()
    /// Presence, the workout's keep-alive and any extended runtime session.
    public internal(set) var lifecycle = WatchAppState()
    /// The step-gauge complication and its reload budget.
    public internal(set) var complication: ComplicationFeed
    /// The newest complication data the phone pushed.
    public internal(set) var phonePush: PhoneStepsPush?
    /// The countdown goals as displayed today.
    public internal(set) var goals: CountdownDisplayList?
    /// The countdown complication / Smart Stack entry (top goal, days left).
    public internal(set) var goalEntry: CountdownComplicationEntry?
    /// How many times the countdown entry changed (each is one reload of that family).
    public internal(set) var goalReloads = 0
    /// What the app asked of the link.
    public internal(set) var link = WatchLinkLog()
    /// The last refusal or failure, for `errors last`.
    public internal(set) var lastError: String?
    /// Refusals and failures so far.
    public internal(set) var errorCount = 0
    /// A goal deletion waiting for its confirmation (UI state, not persisted).
    var goalDeletion = CountdownDeletionFlow()
    /// How the last extended runtime session ended.
    public internal(set) var lastRuntimeEnd: WatchAppEvent?

    /// The local day and time zone the day-dependent values were computed for.
    var computedDay: CivilDate?
    var computedZone: String?
    /// Today in the device's time zone and where it ends (not durable: recomputed when the
    /// day or the zone changes), so a tick needs no calendar arithmetic.
    var dayWindow: LocalDayWindow?
    /// The workout whose snapshot is stored, and how many of its samples are.
    var persistedWorkoutID: String?
    var persistedSampleCount = 0
    /// The stored head's constant parts and the last chunk's columns, kept encoded so that
    /// persisting after a sample encodes only what changed (`WorkoutSnapshotEncoder`).
    var snapshotEncoder = WorkoutSnapshotEncoder()
    /// The `hr` reply's texts by whole bpm, in `language` (`heartRateText`).
    var heartRateTexts: (language: AppLanguage, texts: [String?]) = (.en, [])
    /// The previous live-metrics payload, from which the next one is made (`LiveMetricsPayloads`).
    var livePayloads = LiveMetricsPayloads()

    /// A watch app; `complicationSettings` is the step gauge's reload budget.
    public init(complicationSettings: ComplicationFeed.Settings = .defaults) {
        complication = ComplicationFeed(stepGoal: AppSettings.defaults.stepGoal, settings: complicationSettings)
    }

    // MARK: - NodeApp

    /// Restores the picker, the complication and the phone's push, recovers an active workout
    /// from its snapshot, and computes today's values.
    public mutating func onLaunch(_ ctx: inout NodeContext) {
        restoreLocalValues(&ctx)
        noteStoreReset(&ctx)
        recoverWorkout(&ctx)
        _ = lifecycle.onWorkoutStateChanged(manager.activeState)
        syncAppState(&ctx)
        refreshDay(&ctx)
    }

    /// Runs one command through its row of `commands` (WatchApp+Commands.swift); a refusal is
    /// returned as `.error` and remembered for `errors last`.
    public mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        // An `hr` line (one per sample of a workout) goes to its row's handler without looking
        // the row up: it is the table's only row of that word (tested).
        let reply = command.words.first == Self.heartRateVerb
            ? heartRateCommand(command.words, &ctx) : Self.commands.run(&self, command, &ctx)
        if !reply.isOK { noteError(reply.text) }
        return reply
    }

    /// The table's read-only answer (`show SCREEN --svg`); none for an `hr` line, without
    /// looking its row up (the row has no read-only answer: tested).
    public func readOnlyReply(_ command: NodeCommand, _ ctx: NodeContext) -> CommandReply? {
        if command.words.first == Self.heartRateVerb { return nil }
        return Self.commands.readOnlyReply(self, command, ctx)
    }

    /// The first word of the heart-rate command (`hr BPM`, `sampleRows`).
    static var heartRateVerb: String { "hr" }

    /// A workout file the node could not write is not sent (`fileWriteFailed`).
    public mutating func onEffectOutcome(_ effect: AppEffect, _ outcome: Result<String, AppEffectError>, _ ctx: inout NodeContext) -> CommandReply? {
        guard case .failure(let e) = outcome else { return nil }
        if case .writeFile(let path, _) = effect {
            fileWriteFailed(path, e, &ctx)
        } else {
            ctx.logFailure(of: effect, e)
        }
        return nil
    }

    /// User info and messages from the phone (complication data, a start request), the
    /// phone's application context, our own transfers' outcomes, and reachability.
    public mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        if onLinkActivity(event, &ctx) { return }
        switch event {
        case .didReceiveUserInfo(let info, let isComplication):
            _ = handlePhonePayload(info, isComplication: isComplication, &ctx)
        case .reachabilityDidChange(let reachable):
            ctx.log(.info, "phone \(reachable ? "reachable" : "not reachable")")
            if reachable { sendLiveMetrics(liveMetrics(&ctx), &ctx) }
        default:
            break
        }
    }

    /// The phone's writes arrived: settings, samples or goals may have changed, and a
    /// resync may have brought back the saved record of the active workout.
    public mutating func onReplicaMerged(_ ctx: inout NodeContext) {
        dropActiveWorkoutIfSaved(&ctx)
        refreshComplication(&ctx)
        refreshGoals(&ctx)
    }

    /// Fires what is due: an extended runtime session's limit, a deferred complication
    /// reload, local midnight (rings, gauge and countdown for the new day).
    public mutating func onTick(_ ctx: inout NodeContext) {
        applyLifecycle(lifecycle.onTick(at: ctx.now), &ctx)
        let zone = ctx.calendar.timeZone.identifier
        if today(ctx).day != computedDay || zone != computedZone
            || goalEntry.map({ ctx.now >= $0.refreshAtMs }) ?? true
        {
            refreshDay(&ctx)
        }
        if complication.onClock(at: ctx.now) { persistComplication(&ctx) }
        if let due = complication.nextTickMs, ctx.now >= due {
            let before = complication
            _ = complication.onTick(at: ctx.now)
            if complication != before { persistComplication(&ctx) }
        }
    }

    /// The earliest of: the extended runtime limit, the deferred reload, local midnight.
    @inline(__always) public func nextDeadline(_ ctx: NodeContext) -> EpochMs? {
        earliest(earliest(lifecycle.nextDeadlineMs, complication.nextTickMs), goalEntry?.refreshAtMs)
    }

    // MARK: - Helpers

    /// Remembers a refusal or failure for `errors last`.
    mutating func noteError(_ text: String) {
        lastError = text
        errorCount += 1
    }

    /// The replicated settings (defaults until the phone or the watch writes them).
    func settings(_ ctx: NodeContext) -> AppSettings {
        ctx.replica.record(AppSettings.self, id: AppSettings.recordID) ?? .defaults
    }

    /// The local day window at `ctx.now`, recomputed only when the day or the zone changed.
    mutating func today(_ ctx: NodeContext) -> LocalDayWindow {
        dayWindow.refresh(at: ctx.now, calendar: ctx.calendar)
    }

    /// Recomputes everything that depends on the local day.
    mutating func refreshDay(_ ctx: inout NodeContext) {
        computedDay = today(ctx).day
        computedZone = ctx.calendar.timeZone.identifier
        refreshComplication(&ctx)
        refreshGoals(&ctx)
    }
}
