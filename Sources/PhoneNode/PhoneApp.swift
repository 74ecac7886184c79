#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The iPhone app of both seeds as a node core: the health store and its screens, widgets,
/// notifications, run detection, CSV export, and the countdown goals.
///
/// Pure: it reads and writes the replicated state and its own durable state through
/// `NodeContext`; what it wants from the link comes out as `PhoneEffect`s, carried out by
/// the one adapter `perform` (PhoneApp+Link.swift),
/// and the one thing it writes outside the store, the CSV export, is an `AppEffect` the node
/// performs. Time comes from `ctx.now`, the time zone from `ctx.calendar`, and app
/// timers run through `nextDeadline` / `onTick`. The commands are the table `commands`
/// (PhoneApp+Commands.swift); they and the queries are listed in `docs/PHONE.md`.
public struct PhoneApp: NodeApp {
    /// Health samples are a grow-only set; everything else is changeable records.
    public static let replicaSchema = ReplicaSchema.fitnessAndCountdown
    /// The app's durable state (mirrored into the node's local table by `save`).
    var state = PhoneState()
    /// False before the launch's first `save`, which checks every part; later saves check
    /// the parts written since the one before (`PhoneState.touched`).
    var hasSaved = false
    /// The bytes `save` last stored under `phone.live` and `phone.link`, nil when not known
    /// (`ctx.local` is then asked): only `save` writes these keys, and a launch forgets them.
    /// Comparing with them spares a String-keyed lookup in the local table per part and event.
    var storedLiveBytes: [UInt8]?
    var storedLinkBytes: [UInt8]?
    /// Today in the device's time zone and the next local midnight (not durable: recomputed
    /// when the day or the zone changes), so timers and deadlines need no calendar arithmetic.
    var dayWindow: LocalDayWindow?
    /// The goal delete-confirmation dialog (UI state: it does not survive a restart).
    var deletion = CountdownDeletionFlow()
    /// HealthKit's source merge (watch before phone).
    let statistics = HealthStatistics()

    /// The goal id prefix of goals created on the phone (`goal-1`, `goal-2`…).
    public static let goalIDPrefix = "goal-"
    /// The sample id prefix of samples written on the phone (`ph-<ms>-<n>`).
    public static let sampleIDPrefix = "ph-"

    /// A phone app with no state yet (it loads its state at launch).
    public init() {}

    // MARK: - NodeApp

    /// Loads the app's state, requests authorization on the first launch and catches up on due work.
    public mutating func onLaunch(_ ctx: inout NodeContext) {
        let (loaded, problems) = PhoneState.decode(ctx.local.dictionary)
        state = loaded
        hasSaved = false
        storedLiveBytes = nil
        storedLinkBytes = nil
        for key in problems { ctx.log(.warning, "phone state '\(key)' did not decode; it starts from its default") }
        if state.auth.requestedMs == nil {
            state.auth.requestedMs = ctx.now
            ctx.log(.info, "HealthKit authorization requested (first launch): steps, activeEnergy, heartRate, sleepAnalysis")
        }
        if ctx.launchedAfterStoreReset {
            // The watch may hold goals whose ids this empty store would hand out again.
            state.ids.provisionalSuffix = CountdownCommands.provisionalIDSuffix(storeIncarnation: ctx.storeIncarnation)
        }
        ctx.setAppState(AppState(isRunning: true, isForeground: state.app.isForeground))
        recomputeCounts(&ctx)
        resendPendingStarts(&ctx)
        publishSettingsContext(&ctx)
        runDue(&ctx)
        save(&ctx)
    }

    /// Runs a command (see docs/PHONE.md), then due work; saves what changed.
    public mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let reply = handle(command, &ctx)
        runDue(&ctx)
        save(&ctx)
        return reply
    }

    /// WatchConnectivity callbacks: the watch's messages (live workout), replies and failures
    /// of ours, received files, finished transfers (PhoneApp+Link.swift).
    public mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        handleLinkEvent(event, &ctx)
        save(&ctx)
    }

    /// Received workout files are read with their content up to `maxDecodedFileBytes`.
    public static var receivedFileReadLimit: Int64 { maxDecodedFileBytes }

    /// The export's outcome gives `export csv` its reply.
    public mutating func onEffectOutcome(_ effect: AppEffect, _ outcome: Result<String, AppEffectError>, _ ctx: inout NodeContext) -> CommandReply? {
        guard case .export(let name, let bytes) = effect else {
            if case .failure(let e) = outcome { ctx.logFailure(of: effect, e) }
            return nil
        }
        return exportFinished(name: name, bytes: bytes.count, outcome, &ctx)
    }

    /// Reacts to the watch's writes: step data starts the observer, goals reload the widget, settings reschedule.
    public mutating func onReplicaMerged(_ ctx: inout NodeContext) {
        let (steps, health, goals, settings) = Self.mergedChanges(ctx.replica)
        if state.ids.provisionalSuffix != nil, ctx.hasAppliedPeerState { state.ids.provisionalSuffix = nil }
        endLiveWorkoutIfSaved(&ctx)
        if steps { onStepsChanged(&ctx) } else if health { onHealthChanged(&ctx) }
        if goals { onGoalsChanged(&ctx) }
        if settings { onSettingsChanged(&ctx) }
        runDue(&ctx)
        save(&ctx)
    }

    /// What the records changed or removed since the last drain touch: step samples, other
    /// health samples, goals or the profile, settings.
    static func mergedChanges(_ replica: ReplicaState) -> (steps: Bool, health: Bool, goals: Bool, settings: Bool) {
        var steps = false, health = false, goals = false, settings = false
        let stepsName = HealthSampleKind.steps.name
        // Each changed or removed record once (the sets `changed` and `removed` are not built;
        // `replica` is read in place, not copied for each record as the context's would be).
        replica.forEachChangedOrRemovedEntry { key, entry in
            switch key.collection {
            case HealthSample.collection:
                // Once a step sample is seen, other samples change nothing (steps win). The
                // kind is read from the record's registers: its fields as a dictionary cost
                // ~4,000 instructions a sample (3,600 after a workout).
                guard !steps else { break }
                if liveField("kind", of: entry)?.stringValue == stepsName { steps = true } else { health = true }
            case HealthSampleSeries.collection:
                guard !steps else { break }
                if HealthSampleSeries.holdsSteps(liveField("readings", of: entry)) { steps = true } else { health = true }
            case CountdownGoal.collection, UserProfile.collection: goals = true
            case AppSettings.collection: settings = true
            default: break
            }
        }
        return (steps, health, goals, settings)
    }

    /// `a == b`, compared with `memcmp` (the array comparison goes byte by byte).
    static func equalBytes(_ a: [UInt8]?, _ b: [UInt8]) -> Bool {
        guard let a, a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                guard let p = x.baseAddress, let q = y.baseAddress, x.count > 0 else { return true }
                return memcmp(p, q, x.count) == 0
            }
        }
    }

    /// `replica.fields(key)?[name]` without building the fields' dictionary.
    static func liveField(_ name: String, of key: RecordKey, _ replica: ReplicaState) -> PlistValue? {
        liveField(name, of: replica.entry(key))
    }

    /// `liveField` of the record whose `entry(key)` is `entry`.
    static func liveField(_ name: String, of entry: RecordEntry?) -> PlistValue? {
        guard let entry, entry.isLive else { return nil }
        return entry[name]?.value
    }

    /// Fires due timers: notifications, the observer, widget reloads, the date change.
    public mutating func onTick(_ ctx: inout NodeContext) {
        runDue(&ctx)
        save(&ctx)
    }

    /// The earliest app timer: a notification, the observer, a widget reload, or the next local midnight.
    public func nextDeadline(_ ctx: NodeContext) -> EpochMs? {
        earliest(earliest(earliest(state.notifications.pending.items.first?.fireMs, state.observer.dueMs),
                          earliest(state.widgets.reload.nextReloadMs, state.countdownWidget.reload.nextReloadMs)),
                 nextLocalMidnight(ctx))
    }

    /// The next local midnight after `ctx.now`, from `dayWindow` when it still holds.
    func nextLocalMidnight(_ ctx: NodeContext) -> EpochMs {
        if let w = dayWindow, w.contains(ctx.now, calendar: ctx.calendar) { return w.nextMidnightMs }
        return CountdownCalendar.nextLocalMidnight(after: ctx.now, calendar: ctx.calendar)
    }

    /// The local day window at `ctx.now`, recomputed only when the day or the zone changed.
    mutating func today(_ ctx: NodeContext) -> LocalDayWindow {
        dayWindow.refresh(at: ctx.now, calendar: ctx.calendar)
    }

    /// The value at `path` (docs/PHONE.md lists them).
    public func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        answer(path, ctx)
    }

    // MARK: - Commands

    /// Runs `command` through its row of `commands` (PhoneApp+Commands.swift).
    mutating func handle(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        Self.commands.run(&self, command, &ctx)
    }

    /// `app foreground|background`: the user opens or leaves the app.
    mutating func appCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        guard w.count == 2, w[1] == "foreground" || w[1] == "background" else { return .error(L10n.usage("app foreground|background")(ctx.language)) }
        let foreground = w[1] == "foreground"
        let changed = foreground != state.app.isForeground
        state.app.isForeground = foreground
        ctx.setAppState(AppState(isRunning: true, isForeground: foreground))
        if foreground {
            // Returning to the foreground recomputes every count (seed 5.3) and fetches fresh
            // health data for the screens and the App Group (reloads in the foreground are free).
            recomputeCounts(&ctx)
            refreshAppGroup(&ctx)
            reloadFitnessWidgets(&ctx)
        }
        return .ok(["foreground": .bool(foreground), "changed": .bool(changed)], text: L10n.phoneAppMoved(foreground: foreground)(ctx.language))
    }

    /// `widget tap small|medium|countdown`: the user taps the widget; the system opens the app
    /// with the entry's deep link (foreground, as `app foreground`) and the app shows the
    /// screen the link names: the dashboard, the goal list or one goal.
    mutating func widgetTapCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        guard w.count == 3, w[1] == "tap", ["small", "medium", "countdown"].contains(w[2]) else {
            return .error(L10n.usage("widget tap small|medium|countdown")(ctx.language))
        }
        let all = widgetsValue(ctx)
        let entry = w[2] == "countdown" ? all["countdown"]?["entries"]?.arrayValue?.first : all[w[2]]
        guard let url = entry?["url"]?.stringValue else { return .error(L10n.phoneWidgetEmpty(w[2])(ctx.language)) }
        let screen: String
        switch CountdownDeepLink(url: url) {
        case .list?: screen = "goals"
        case .goal(let id)?: screen = "goal \(id)"
        case nil: screen = url == FitnessWidgets.deepLink ? "dashboard" : "dashboard (unknown link)"
        }
        _ = appCommand(["app", "foreground"], &ctx)
        state.app.openedURL = url
        state.app.openedScreen = screen
        return .ok(["url": .string(url), "screen": .string(screen)], text: L10n.phoneOpened(url, screen: screen)(ctx.language))
    }

    // MARK: - Due work

    /// Everything whose time has come: a time-zone or date change, notifications, the step
    /// observer's delivery, widget reloads.
    mutating func runDue(_ ctx: inout NodeContext) {
        followClockStepBack(&ctx)
        let zone = ctx.calendar.timeZone.identifier
        if let previous = state.app.timeZone, previous != zone {
            state.notifications.pending.onTimeZoneChange(nowMs: ctx.now, calendar: ctx.calendar)
            ctx.log(.info, "time zone \(previous) → \(zone): calendar triggers, the App Group and the widgets follow it")
            state.app.timeZone = zone
            reloadCountdownWidget(&ctx)
            // Today is another local day now: the App Group's totals are the old zone's day.
            refreshAppGroup(&ctx)
            reloadFitnessWidgets(&ctx)
        }
        // Written only when it differs: every write marks the part for `save` to encode.
        if state.app.timeZone != zone { state.app.timeZone = zone }
        if state.app.countdownDay != today(ctx).day { recomputeCounts(&ctx) }
        scheduleWeeklySummary(&ctx)
        deliverDueNotifications(&ctx)
        if let due = state.observer.dueMs, due <= ctx.now { deliverStepObserver(&ctx) }
        if state.widgets.reload.nextReloadMs.map({ $0 <= ctx.now }) ?? true { reloadFitnessWidgets(&ctx) }
        if isCountdownWidgetReloadDue(ctx) { reloadCountdownWidget(&ctx) }
    }

    /// Timers and stamps set on a wall clock that has since gone back (bumped ahead, then
    /// corrected) would wait for the size of the step. The observer's last delivery and the
    /// start of its pending data count as now (it delivers at most an hour from now, as it
    /// would have); a fitness widget reload granted "in the future" is due again a refresh
    /// interval from now; a reload after a denial waits for the coming local midnight, not
    /// one a day or more away. (The countdown widget has its own rule,
    /// `isCountdownWidgetReloadDue`.) A step forward needs nothing: what is due runs at once.
    mutating func followClockStepBack(_ ctx: inout NodeContext) {
        if let last = state.observer.lastDeliveryMs, last > ctx.now { state.observer.lastDeliveryMs = ctx.now }
        if let since = state.observer.pendingSinceMs, since > ctx.now { state.observer.pendingSinceMs = ctx.now }
        guard let next = state.widgets.reload.nextReloadMs else { return }
        let interval = FitnessWidgets.refreshIntervalMs
        if let entry = state.widgets.entryMs, entry > ctx.now, next > ctx.now + interval {
            state.widgets.reload.nextReloadMs = ctx.now + interval
        } else if next > ctx.now + interval, next > nextLocalMidnight(ctx) {
            state.widgets.reload.nextReloadMs = nextLocalMidnight(ctx)
        }
    }

    /// Recomputes every goal's count for today (launch, foreground, date change).
    mutating func recomputeCounts(_ ctx: inout NodeContext) {
        state.app.countdownDay = today(ctx).day
        state.app.recomputes += 1
    }

    // MARK: - Persistence

    /// Writes the parts of the state that changed into the node's local table.
    ///
    /// Only the parts written since the last save (`PhoneState.touched`) are encoded (the
    /// first save after launch checks them all), and of those only the ones whose encoding
    /// differs from the stored value are written: most events (a live-metrics message, a
    /// tick) change one or two small parts, and encoding the whole state on each was most of
    /// the phone's time.
    mutating func save(_ ctx: inout NodeContext) {
        let parts = hasSaved ? state.touched.parts : PhoneState.Parts.all
        hasSaved = true
        if parts.isEmpty { return }
        for (i, key) in PhoneState.Key.all.enumerated() where parts.contains(PhoneState.Parts(rawValue: 1 << i)) {
            // `live` and `link` change with nearly every event: stored as bytes written from
            // their fields, compared as bytes, never built as values.
            let part = PhoneState.Parts(rawValue: 1 << i)
            let bytes: [UInt8]? = switch part {
            case .live: state.live?.canonicalBytes
            case .link: state.link.canonicalBytes
            default: nil
            }
            if let bytes {
                let stored = (part == .live ? storedLiveBytes : storedLinkBytes) ?? ctx.local.canonicalBytes(key)
                if !Self.equalBytes(stored, bytes) { ctx.setLocal(key, encoded: bytes) }
                if part == .live { storedLiveBytes = bytes } else { storedLinkBytes = bytes }
                continue
            }
            if part == .live { storedLiveBytes = nil }
            let value = state.encoded(key)
            guard ctx.local[key] != value else { continue }
            ctx.setLocal(key, value)
        }
        state.clearTouched()
    }
}
