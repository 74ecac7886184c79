import PeerLinkCore
import FitnessDomain

/// The health store: samples in the replicated state (a grow-only set, so the watch's samples
/// merge idempotently), read authorization, and the step observer's background delivery.
extension PhoneApp {
    /// The default length of a `steps` / `energy` sample without `--from`.
    static let defaultSampleLengthMs: Int64 = 10 * PhoneTime.minuteMs
    /// The largest step count one sample may carry.
    static let maxStepsPerSample = 100_000.0
    /// The largest active energy one sample may carry, kcal.
    static let maxEnergyPerSampleKcal = 10_000.0
    /// Heart rates a sample may carry, bpm.
    static let heartRateRange = 20.0...250.0

    // MARK: - Reading the replica

    /// Every health sample the phone holds (its own and the watch's, a saved workout's
    /// series expanded into their samples), ordered by id.
    func samples(_ ctx: NodeContext) -> [HealthSample] { HealthSampleSeries.allSamples(in: ctx.replica) }

    /// The samples whose types the user lets the app read.
    func readableSamples(_ ctx: NodeContext) -> [HealthSample] { state.auth.authorization.readable(samples(ctx)) }

    /// The synced settings (defaults until someone writes them).
    func settings(_ ctx: NodeContext) -> AppSettings {
        AppSettings.current(in: ctx.replica)
    }

    /// The workouts the watch saved (or reports as running).
    func workouts(_ ctx: NodeContext) -> [WorkoutRecord] { ctx.replica.all(WorkoutRecord.self) }

    /// True while a workout runs on the watch (mirrored live, or a record not yet ended).
    func isWorkoutActive(_ ctx: NodeContext) -> Bool {
        if state.live?.isActive == true { return true }
        return workouts(ctx).contains { $0.state == .running || $0.state == .paused || $0.state == .prepared }
    }

    // MARK: - Sample commands

    /// `steps N`, `energy KCAL` [--from T] [--to T]; `hr BPM [--at T]`; `sleep STAGE FROM TO`;
    /// each with `[--source phone|watch]` (default phone).
    mutating func sampleCommand(_ c: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        switch makeSample(c, ctx) {
        case .failure(let e): return .error(e.message(ctx.language))
        case .success(let sample):
            if case .failure(let refusal) = ctx.put(sample) { return .error(L10n.writeRefused(refusal)(ctx.language)) }
            state.ids.sample += 1
            if sample.kind == .steps { onStepsChanged(&ctx) } else { onHealthChanged(&ctx) }
            let span = sample.startMs == sample.endMs
                ? PhoneTime.dateTime(sample.startMs, ctx.calendar)
                : "\(PhoneTime.dateTime(sample.startMs, ctx.calendar))–\(PhoneTime.clock(sample.endMs, ctx.calendar))"
            let value = PlistValue.dictionary(sample.fields.merging(["id": .string(sample.id)]) { a, _ in a })
            let amount = FitnessFormat.fixed(sample.value, decimals: sample.value.rounded() == sample.value ? 0 : 1)
            return .ok(value, text: L10n.phoneSampleStored(kind: sample.kind, value: amount, source: sample.source, span: span,
                                                           id: sample.id)(ctx.language))
        }
    }

    /// The sample a command describes, with a deterministic id (`ph-<now>-<n>`).
    func makeSample(_ c: NodeCommand, _ ctx: NodeContext) -> Result<HealthSample, PhoneCommandError> {
        let w = c.words
        let source: DeviceRole
        if c.flag("source") {
            guard let s = c.option("source").flatMap(DeviceRole.init(rawValue:)) else { return .failure(.usage("--source phone|watch")) }
            source = s
        } else {
            source = .phone
        }
        let id = "\(Self.sampleIDPrefix)\(ctx.now)-\(state.ids.sample + 1)"
        func number(_ i: Int) -> Double? { i < w.count ? Double(w[i]) : nil }
        switch w[0] {
        case "steps", "energy":
            let isSteps = w[0] == "steps"
            let limit = isSteps ? Self.maxStepsPerSample : Self.maxEnergyPerSampleKcal
            guard let v = number(1) else { return .failure(.usage(isSteps ? "steps N [--from T] [--to T] [--source phone|watch]" : "energy KCAL [--from T] [--to T] [--source phone|watch]")) }
            guard v >= 0, v <= limit else { return .failure(.outOfRange(L10n.phoneSampleOutOfRange(isSteps ? .steps : .activeEnergy, low: 0, high: limit))) }
            return PhoneTime.interval(from: c.option("from"), to: c.option("to"), defaultLengthMs: Self.defaultSampleLengthMs, nowMs: ctx.now, calendar: ctx.calendar)
                .map { HealthSample(id: id, kind: isSteps ? .steps : .activeEnergy, source: source, startMs: $0.startMs, endMs: $0.endMs, value: v) }
        case "hr":
            guard let v = number(1) else { return .failure(.usage("hr BPM [--at T] [--source phone|watch]")) }
            guard Self.heartRateRange.contains(v) else {
                return .failure(.outOfRange(L10n.phoneSampleOutOfRange(.heartRate, low: Self.heartRateRange.lowerBound, high: Self.heartRateRange.upperBound)))
            }
            var at = ctx.now
            if let word = c.option("at") {
                guard let t = PhoneTime.instant(word, nowMs: ctx.now, calendar: ctx.calendar) else { return .failure(.badTime(word)) }
                at = t
            }
            return .success(HealthSample(id: id, kind: .heartRate, source: source, startMs: at, endMs: at, value: v))
        default:
            let usage = "sleep STAGE FROM TO [--source phone|watch] (STAGE: inBed, asleepUnspecified, awake, asleepCore, asleepDeep, asleepREM)"
            guard w.count >= 4, !w[2].hasPrefix("--"), !w[3].hasPrefix("--") else { return .failure(.usage(usage)) }
            guard let stage = Self.sleepStage(w[1]) else { return .failure(.usage(usage)) }
            return PhoneTime.interval(from: w[2], to: w[3], defaultLengthMs: 0, nowMs: ctx.now, calendar: ctx.calendar)
                .map { HealthSample(id: id, kind: .sleep(stage), source: source, startMs: $0.startMs, endMs: $0.endMs, value: 1) }
        }
    }

    /// A sleep stage by its HealthKit name or a short alias (`core`, `deep`, `rem`, `inbed`…).
    static func sleepStage(_ word: String) -> SleepStage? {
        if let s = SleepStage(name: word) { return s }
        switch word.lowercased() {
        case "inbed": return .inBed
        case "asleep", "unspecified": return .asleepUnspecified
        case "awake": return .awake
        case "core": return .asleepCore
        case "deep": return .asleepDeep
        case "rem": return .asleepREM
        default: return nil
        }
    }

    // MARK: - Authorization

    /// `authorize grant|deny TYPE|all` (TYPE: steps, activeEnergy, heartRate, sleepAnalysis).
    mutating func authorizeCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        let usage = L10n.usage("authorize grant|deny steps|activeEnergy|heartRate|sleepAnalysis|all")(ctx.language)
        guard w.count == 3, let status: HealthAuthorizationStatus = w[1] == "grant" ? .granted : w[1] == "deny" ? .denied : nil else {
            return .error(usage)
        }
        let types: [HealthDataType]
        if w[2] == "all" {
            types = HealthDataType.allCases
        } else if let t = Self.dataType(w[2]) {
            types = [t]
        } else {
            return .error(usage)
        }
        for t in types { state.auth.authorization.set(status, for: t) }
        refreshAppGroup(&ctx)
        reloadFitnessWidgets(&ctx)
        return .ok(state.auth.authorization.plistValue, text: state.auth.authorization.text(ctx.language))
    }

    /// A data type by name or alias (`energy`, `hr`, `sleep`).
    static func dataType(_ word: String) -> HealthDataType? {
        if let t = HealthDataType(rawValue: word) { return t }
        switch word {
        case "energy": return .activeEnergy
        case "hr": return .heartRate
        case "sleep": return .sleepAnalysis
        default: return nil
        }
    }

    // MARK: - Data changes and background delivery

    /// New step data (from this phone or merged from the watch): the observer query fires,
    /// at most hourly. In the foreground the screens and widgets refresh at once.
    mutating func onStepsChanged(_ ctx: inout NodeContext) {
        if state.observer.pendingSinceMs == nil { state.observer.pendingSinceMs = ctx.now }
        onHealthChanged(&ctx)
    }

    /// Other new health data: shown at once in the foreground; in the background it reaches
    /// the widgets with the next observer delivery or timeline reload.
    mutating func onHealthChanged(_ ctx: inout NodeContext) {
        guard state.app.isForeground else { return }
        refreshAppGroup(&ctx)
        reloadFitnessWidgets(&ctx)
    }

    /// The observer's delivery: the app refreshes the App Group, asks WidgetKit to reload and
    /// pushes today's steps to the watch complication.
    mutating func deliverStepObserver(_ ctx: inout NodeContext) {
        state.observer.pendingSinceMs = nil
        state.observer.lastDeliveryMs = ctx.now
        state.observer.deliveries += 1
        refreshAppGroup(&ctx)
        reloadFitnessWidgets(&ctx)
        if let snapshot = state.widgets.appGroup { perform(complicationPush(snapshot, ctx), &ctx) }
    }
}
