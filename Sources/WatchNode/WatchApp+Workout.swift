import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// Workout recording: the picker, session calls, live samples, and what their effects do.
extension WatchApp {
    // MARK: - Picker

    /// `crown +N|-N`: scrolls the activity list (clamped at both ends).
    mutating func crownCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        guard w.count == 2, let detents = Int(w[1].hasPrefix("+") ? String(w[1].dropFirst()) : w[1]) else {
            return .error(L10n.usage("crown +1|-1")(ctx.language))
        }
        let moved = picker.onCrown(detents)
        if moved { persistPicker(&ctx) }
        return .ok(picker.jsonValue(), text: picker.text(ctx.language))
    }

    /// `location indoor|outdoor`.
    mutating func locationCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        guard w.count == 2, let location = WorkoutLocation(rawValue: w[1]) else { return .error(L10n.usage("location indoor|outdoor")(ctx.language)) }
        if picker.select(location: location) { persistPicker(&ctx) }
        return .ok(picker.jsonValue(), text: picker.text(ctx.language))
    }

    // MARK: - Session calls

    /// `workout prepare|start [TYPE]|pause|resume|stop|end|discard`.
    mutating func workoutCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        let usage = L10n.usage("workout prepare [TYPE]|start [TYPE]|pause|resume|stop|end|discard (TYPE: running, walking, cycling)")(ctx.language)
        guard w.count >= 2 else { return .error(usage) }
        var type: WorkoutActivityType?
        if w.count == 3, w[1] == "prepare" || w[1] == "start" {
            guard let t = WorkoutActivityType(rawValue: w[2]) else {
                return .error(L10n.watchUnknownActivity(w[2])(ctx.language))
            }
            type = t
        } else if w.count != 2 {
            return .error(usage)
        }
        let now = workoutClockMs(&ctx)
        let effects: [WorkoutEffect]
        switch w[1] {
        case "prepare":
            choose(type, &ctx)
            effects = manager.prepare(workoutID: newWorkoutID(at: now, ctx), configuration: picker.configuration, at: now)
        case "start":
            if let s = manager.session, s.state == .prepared, type == nil || type == s.configuration.activity {
                effects = manager.start(workoutID: s.id, configuration: s.configuration, at: now)
            } else {
                choose(type, &ctx)
                effects = manager.start(workoutID: newWorkoutID(at: now, ctx), configuration: picker.configuration, at: now)
            }
        case "pause": effects = manager.pause(at: now)
        case "resume": effects = manager.resume(at: now)
        case "stop": effects = manager.stop(at: now)
        case "end": effects = manager.end(at: now)
        case "discard": effects = manager.discardPrepared()
        default: return .error(usage)
        }
        if let refusal = apply(effects, &ctx) { return .error(refusal.message(ctx.language, ctx.calendar)) }
        return workoutReply(effects, ctx)
    }

    /// The reply to an accepted session call: the screen, or the saved workout once ended.
    func workoutReply(_ effects: [WorkoutEffect], _ ctx: NodeContext) -> CommandReply {
        let l = ctx.language
        var notes = effects.compactMap { e -> String? in
            if case .sessionFailed(let id, let failure) = e { L10n.watchWorkoutEnded(id, failure)(l) } else { nil }
        }
        if let saved = effects.savedWorkout, manager.session == nil {
            notes.append(L10n.watchWorkoutSaved(saved.record.id, samples: saved.samples.count,
                                                elapsed: WatchFormat.elapsed(saved.record.elapsedMs))(l))
            var v = saved.record.fields
            v["id"] = .string(saved.record.id)
            v["samples"] = .int(Int64(saved.samples.count))
            return .ok(.dictionary(v), text: notes.joined(separator: "\n"))
        }
        guard let screen = manager.screen(at: ctx.now) else { return .ok(text: (notes + [L10n.watchNoActiveWorkout(l)]).joined(separator: "\n")) }
        var v = screen.jsonValue().dictionaryValue ?? [:]
        v["id"] = .string(screen.workoutID)
        return .ok(.dictionary(v), text: (notes + [screen.text(ctx.language)]).joined(separator: "\n"))
    }

    /// The time to date a workout call or sample: `ctx.now`, held at the active workout's
    /// latest recorded time while the wall clock is behind it (`WorkoutManager.clockMs(at:)`),
    /// so a clock that stepped back cannot make the user's pause, resume or end fail.
    func workoutClockMs(_ ctx: inout NodeContext) -> EpochMs {
        let ms = manager.clockMs(at: ctx.now)
        if ms != ctx.now {
            ctx.log(.info, "workout clock: the wall clock \(ctx.calendar.dateTimeText(ctx.now, withMillis: true)) is behind the workout's latest recorded time; dated \(ctx.calendar.dateTimeText(ms, withMillis: true))")
        }
        return ms
    }

    /// Sets the picker to `type` when one was given.
    mutating func choose(_ type: WorkoutActivityType?, _ ctx: inout NodeContext) {
        guard let type, type != picker.activity else { return }
        picker = ActivityPicker(activity: type, location: picker.location)
        persistPicker(&ctx)
    }

    /// `workout-<ms>`, with `-2`, `-3`… when that id is taken (active, ended, or saved).
    func newWorkoutID(at ms: EpochMs, _ ctx: NodeContext) -> String {
        var id = "workout-\(ms)"
        var n = 1
        while isWorkoutIDTaken(id, ctx) {
            n += 1
            id = "workout-\(ms)-\(n)"
        }
        return id
    }

    func isWorkoutIDTaken(_ id: String, _ ctx: NodeContext) -> Bool {
        manager.session?.id == id || manager.endedWorkoutIDs.contains(id)
            || ctx.replica.fields(RecordKey(WorkoutRecord.collection, id)) != nil
    }

    // MARK: - Samples

    /// `hr BPM`: one heart-rate sample now (on the workout's clock, `workoutClockMs`).
    mutating func heartRateCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        guard w.count == 2, let bpm = WatchCommandWords.number(w[1]) else { return .error(L10n.usage("hr BPM")(ctx.language)) }
        let atMs = workoutClockMs(&ctx)
        let text = heartRateText(bpm, ctx.language)
        // An accepted sample (`[.sampleAccepted]`) is applied without its effects array.
        guard let effects = manager.addHeartRateUnlessAccepted(bpm: bpm, at: atMs) else {
            applyChange(linkEffects: [], &ctx)
            return .ok(.double(bpm), text: text)
        }
        return sampleReply(effects, &ctx) { .ok(.double(bpm), text: text) }
    }

    /// The `hr` reply's text, `Heart rate: 142 bpm`; made once per whole bpm up to 255 and
    /// language (a workout repeats the same few dozen values every second).
    mutating func heartRateText(_ bpm: Double, _ language: AppLanguage) -> String {
        func make() -> String { WatchFormat.joined(L10n.watchHeartRate(language), ": ", WatchFormat.whole(bpm), " bpm") }
        let rounded = bpm.rounded(.toNearestOrAwayFromZero)
        guard bpm.isFinite, rounded >= 0, rounded < 256 else { return make() }
        let i = Int(rounded)
        if heartRateTexts.language != language || heartRateTexts.texts.isEmpty {
            heartRateTexts = (language, Array(repeating: nil, count: 256))
        }
        if let text = heartRateTexts.texts[i] { return text }
        let text = make()
        heartRateTexts.texts[i] = text
        return text
    }

    /// `energy KCAL [--over DURATION]`: active energy burned up to now (on the workout's
    /// clock, `workoutClockMs`). Without `--over` the sample starts where the last one ended
    /// (or at the collection start or the last resume, whichever is latest), so consecutive
    /// reports tile the workout; while paused it is an instant now, which the builder rejects
    /// (`workout is paused`).
    mutating func energyCommand(_ c: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let usage = L10n.usage("energy KCAL [--over DURATION]")(ctx.language)
        let w = c.words
        guard w.count == 2 || (w.count == 4 && w[2] == "--over"), let kcal = Double(w[1]) else { return .error(usage) }
        let toMs = workoutClockMs(&ctx)
        var fromMs = toMs
        if let over = c.option("over") {
            guard let ms = WatchCommandWords.durationMs(over) else { return .error(L10n.watchBadDuration(over)(ctx.language)) }
            fromMs = toMs - ms
        } else if let b = manager.builder, !b.isPaused {
            let lastEnergyEnd = b.samples.last { $0.kind == .activeEnergy }?.endMs
            let lastResume = b.events.last { $0.kind == .resume }?.atMs
            fromMs = min(toMs, [b.collectionStartMs, lastEnergyEnd, lastResume].compactMap { $0 }.max() ?? toMs)
        }
        let effects = manager.addActiveEnergy(kcal: kcal, fromMs: fromMs, toMs: toMs)
        let text = "\(L10n.watchCalories(ctx.language)): \(WatchFormat.oneDecimal(kcal)) kcal"
        return sampleReply(effects, &ctx) {
            .ok(["kcal": .double(kcal), "fromMs": .int(fromMs), "toMs": .int(toMs)], text: text)
        }
    }

    /// Applies a sample's effects: a refusal or rejection becomes the error reply.
    mutating func sampleReply(_ effects: [WorkoutEffect], _ ctx: inout NodeContext, ok: () -> CommandReply) -> CommandReply {
        if let refusal = apply(effects, &ctx) { return .error(refusal.message(ctx.language, ctx.calendar)) }
        for e in effects {
            if case .sampleRejected(let r) = e { return .error(L10n.watchRejected(r.reason.message(ctx.language, ctx.calendar), ctx.language)) }
        }
        return ok()
    }

    // MARK: - Effects

    /// Carries out the manager's effects: logs, failures, saving, the snapshot, the app
    /// state and mirroring. Returns the refusal when the call was refused (nothing changed).
    @discardableResult
    mutating func apply(_ effects: [WorkoutEffect], _ ctx: inout NodeContext) -> WorkoutRefusal? {
        var changed = false
        var troubled = false
        var linkEffects: [WatchEffect] = []
        for e in effects {
            switch e {
            case .refused(let r):
                return r
            case .stateChanged, .sampleAccepted, .recovered, .dropped:
                changed = true
            case .sessionFailed(let id, let failure):
                troubled = true
                noteError(L10n.watchWorkoutEnded(id, failure)(ctx.language))
            case .sampleRejected:
                troubled = true
            case .mirror, .mirrorSkipped:
                break
            case .mirroringStopped(let id):
                if ctx.session.isReachable { linkEffects.append(.sendMessage(MirrorStoppedMessage.make(workoutID: id))) }
            case .workoutSaved(let finished):
                linkEffects.append(save(finished, &ctx))
            case .log(let line):
                ctx.log(troubled ? .warning : .info, line)
            }
        }
        guard changed else { return nil }
        applyChange(linkEffects: linkEffects, &ctx)
        return nil
    }

    /// After an accepted change: the snapshot, the app state and mirroring, then the link
    /// effects the change made and the live metrics.
    mutating func applyChange(linkEffects: [WatchEffect], _ ctx: inout NodeContext) {
        persistWorkout(&ctx)
        applyLifecycle(lifecycle.onWorkoutStateChanged(manager.activeState), &ctx)
        let live = liveMetrics(&ctx)
        perform(linkEffects, &ctx)
        sendLiveMetrics(live, &ctx)
    }

    /// `finishWorkout()` saved a workout: the record and its samples, as series records of up
    /// to 60 samples (`HealthSampleSeries`), go into the replicated state; the
    /// full-resolution series becomes a file for `transferFile`.
    mutating func save(_ finished: FinishedWorkout, _ ctx: inout NodeContext) -> WatchEffect {
        if case .failure(let e) = ctx.put(finished.record) { ctx.log(.error, "workout \(finished.record.id) not saved: \(e)") }
        // The samples as series records, a minute of one-second readings each.
        for series in HealthSampleSeries.series(workoutID: finished.record.id, samples: finished.samples) {
            if case .failure(let e) = ctx.set(RecordKey(HealthSampleSeries.collection, series.id), series.fields) {
                ctx.log(.error, "series \(series.id) not saved: \(e)")
            }
        }
        ctx.log(.info, "workout \(finished.record.id) saved: \(finished.samples.count) samples, elapsed \(finished.record.elapsedMs) ms")
        let file = WorkoutSampleFile(finished)
        let bytes = WorkoutSampleFileBytes.encode(file)  // `file.encode()`, written straight
        return .transferFile(name: file.fileName, bytes: bytes, metadata: file.metadata(for: bytes))
    }
}
