import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// Run detection from motion activity samples, and the live workout mirrored from the watch.
///
/// The detector's state is not stored as such: the motion samples since the last one that
/// ended a run are, and replaying them rebuilds it exactly (a sample without `running`, or
/// with `automotive`, resets the detector, so nothing before it matters).
extension PhoneApp {
    /// Motion samples kept for the replay; beyond it the oldest are dropped (a run that long
    /// is already recognized, and further running samples do not change the detector).
    static let maxMotionSamplesKept = 512

    /// The detector as the stored samples leave it.
    func runDetector() -> RunDetector {
        var d = RunDetector()
        for s in state.motion { _ = d.onMotionSample(s, workoutActive: true) }
        return d
    }

    /// `motion FLAGS CONFIDENCE [--at T]`, e.g. `motion running high`, `motion running+automotive medium`.
    mutating func motionCommand(_ c: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let usage = L10n.usage("motion FLAGS CONFIDENCE [--at T] (FLAGS: stationary, walking, running, automotive, cycling, unknown joined by +; CONFIDENCE: low, medium, high)")(ctx.language)
        let w = c.words
        guard w.count >= 3, let flags = MotionActivityFlags(name: w[1]), let confidence = MotionConfidence(name: w[2]) else { return .error(usage) }
        var at = ctx.now
        if let word = c.option("at") {
            guard let t = PhoneTime.instant(word, nowMs: ctx.now, calendar: ctx.calendar) else { return .error(PhoneCommandError.badTime(word).message(ctx.language)) }
            at = t
        }
        let sample = MotionActivitySample(atMs: at, flags: flags, confidence: confidence)
        var detector = runDetector()
        let active = isWorkoutActive(ctx)
        let outcome = detector.onMotionSample(sample, workoutActive: active)
        if outcome == .outOfOrder {
            return .error(L10n.phoneMotionOutOfOrder(PhoneTime.dateTime(at, ctx.calendar))(ctx.language))
        }
        if sample.isRunning && !sample.isAutomotive {
            state.motion.append(sample)
            if state.motion.count > Self.maxMotionSamplesKept { state.motion.removeFirst(state.motion.count - Self.maxMotionSamplesKept) }
        } else {
            state.motion = [sample]
        }
        var value: [String: PlistValue] = ["sample": sample.plistValue, "inRun": .bool(detector.isInRun), "streak": .int(Int64(detector.streakCount))]
        var text = L10n.phoneMotion(flags, confidence)(ctx.language)
        if case .runStarted(let event) = outcome {
            value["runStart"] = .int(event.runStartMs)
            if NotificationPolicy.shouldNotifyRunStart(settings: settings(ctx), workoutActive: active) {
                state.notifications.pending.add(event.makeNotification(language: ctx.language))
                state.notifications.pendingRunStartMs = event.runStartMs
                deliverDueNotifications(&ctx)
                value["notified"] = true
                text += ": \(L10n.fitnessRunDetectedTitle(ctx.language))"
            } else {
                state.notifications.suppressedRunPrompts += 1
                value["notified"] = false
                text += ": " + L10n.phoneRunDetectedSilently(ctx.language)
            }
        }
        return .ok(.dictionary(value), text: text)
    }

    // MARK: - Live workout

    /// The watch's live-metrics message (`LiveWorkout`'s wire shape): shows the running
    /// workout; an ended one stays as the last state. False when the payload is not
    /// understood (logged, ignored).
    mutating func onLivePayload(_ fields: PlistValue, _ ctx: inout NodeContext) -> Bool {
        onLive(LiveWorkout(fields: fields, receivedMs: ctx.now), payload: fields, &ctx)
    }

    /// Shows `live`, read from `payload`; false (logged) when it did not read.
    mutating func onLive(_ live: consuming LiveWorkout?, payload: PlistValue, _ ctx: inout NodeContext) -> Bool {
        guard let live else {
            ctx.log(.warning, "ignored a live workout payload without a known state: \(payload.logSummary())")
            return false
        }
        state.live = live
        return true
    }

    /// `live STATE [--activity A] [--hr BPM] [--kcal KCAL] [--elapsed SECONDS] [--start T]`: the
    /// same as receiving the watch's live-metrics message (for scenarios and by hand).
    mutating func liveCommand(_ c: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let w = c.words
        guard w.count >= 2 else { return .error(L10n.usage("live STATE [--activity A] [--hr BPM] [--kcal KCAL] [--elapsed SECONDS] [--start T]")(ctx.language)) }
        var fields: [String: PlistValue] = ["type": .string(LiveWorkout.metricsType), "state": .string(w[1]), "atMs": .int(ctx.now)]
        if let a = c.option("activity") { fields["activity"] = .string(a) }
        if let v = c.option("hr").flatMap(Double.init) { fields["heartRateBpm"] = .double(v) }
        if let v = c.option("kcal").flatMap(Double.init) { fields["energyKcal"] = .double(v) }
        if let v = c.option("elapsed").flatMap(Double.init) { fields["elapsedMs"] = .int(Int64(v * 1000)) }
        if let word = c.option("start"), let t = PhoneTime.instant(word, nowMs: ctx.now, calendar: ctx.calendar) { fields["startMs"] = .int(t) }
        guard onLivePayload(.dictionary(fields), &ctx), let live = state.live else {
            return .error(L10n.phoneUnknownWorkoutState(w[1])(ctx.language))
        }
        return .ok(live.plistValue, text: liveText(ctx) ?? "")
    }

    /// "ワークアウト中: ランニング 記録中 142 bpm 87.3 kcal 20:00" ("ワークアウト終了: …" once it
    /// ended); nil without a live workout.
    func liveText(_ ctx: NodeContext) -> String? {
        guard let live = state.live else { return nil }
        let l = ctx.language
        let saved = savedRecord(of: live, ctx)
        let elapsed = liveElapsedMs(live, ctx).map(FitnessFormat.elapsed) ?? L10n.fitnessPlaceholder(l)
        let title = live.state == .ended ? L10n.phoneWorkoutEnded : L10n.phoneLiveWorkout
        return "\(title(l)): \(Self.activityName(live.activity)(l)) \(Self.stateName(live.state)(l)) "
            + "\(FitnessFormat.bpm(live.heartRateBpm)) \(FitnessFormat.kcal(saved?.totalEnergyKcal ?? live.energyKcal)) \(elapsed)"
    }

    /// The elapsed time the phone shows for the watch's workout: the saved workout's once its
    /// record is here (the watch's own figure); while running, the last mirrored value plus
    /// the time since it arrived (the watch sends metrics only when something changes, so an
    /// idle running workout would otherwise stand still on the phone); else the last value.
    func liveElapsedMs(_ live: LiveWorkout, _ ctx: NodeContext) -> Int64? {
        if let saved = savedRecord(of: live, ctx) { return saved.elapsedMs }
        guard let e = live.elapsedMs else { return nil }
        return live.state == .running ? e + max(0, ctx.now - live.receivedMs) : e
    }

    /// The saved record of the live workout, once the watch's write of it is here.
    func savedRecord(of live: LiveWorkout, _ ctx: NodeContext) -> WorkoutRecord? {
        guard live.state == .ended, let id = live.workoutID, let r = ctx.replica.record(WorkoutRecord.self, id: id), r.state == .ended else {
            return nil
        }
        return r
    }

    static func activityName(_ a: WorkoutActivityType) -> LocalizedText {
        switch a {
        case .running: L10n.watchActivityRunning
        case .walking: L10n.watchActivityWalking
        case .cycling: L10n.watchActivityCycling
        }
    }

    static func stateName(_ s: WorkoutSessionState) -> LocalizedText {
        switch s {
        case .notStarted: L10n.watchStateNotStarted
        case .prepared: L10n.watchStatePrepared
        case .running: L10n.watchStateRunning
        case .paused: L10n.watchStatePaused
        case .stopped: L10n.watchStateStopped
        case .ended: L10n.watchStateEnded
        }
    }
}
