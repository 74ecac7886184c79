import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// One timeline entry of the complication: what it shows from `dateMs` on.
public struct ComplicationEntry: Sendable, Hashable {
    public var dateMs: EpochMs
    public var gauge: ComplicationGauge

    /// An entry showing `gauge` from `dateMs` on.
    public init(dateMs: EpochMs, gauge: ComplicationGauge) {
        self.dateMs = dateMs
        self.gauge = gauge
    }
}

/// What a reload request came to.
public enum ComplicationReloadOutcome: Sendable, Hashable {
    /// The timeline was reloaded with this entry.
    case reloaded(ComplicationEntry)
    /// The budget is spent: the value is pending and applied at `untilMs` (call `onTick`).
    case deferred(untilMs: EpochMs)
    /// The complication already shows this value; nothing to do.
    case unchanged
}

/// The complication's timeline and its reload budget.
///
/// Reloads happen when today's steps change, when the step goal changes, or when the phone
/// pushes complication user info. Budget: at most `maxReloadsPerWindow` reloads in any
/// **sliding** window of `windowMs` (default 4 per 60 minutes): a reload at `t` counts for
/// `t ≤ now < t + windowMs`. A reload over budget is deferred: the newest value is kept
/// pending (a later value replaces it) and applied by `onTick` as soon as the oldest counted
/// reload leaves the window. Reloads while the app is in the foreground do not count
/// (WidgetKit's rule), so they are always granted.
public struct ComplicationFeed: Sendable, Hashable {
    /// The reload budget (a setting).
    public struct Settings: Sendable, Hashable {
        public let maxReloadsPerWindow: Int
        public let windowMs: Int64

        /// 4 reloads per 60 minutes.
        public static let defaults = Settings(maxReloadsPerWindow: 4, windowMs: 60 * 60_000)

        /// At least one reload per window of at least 1 ms (smaller values are raised).
        public init(maxReloadsPerWindow: Int, windowMs: Int64) {
            self.maxReloadsPerWindow = max(1, maxReloadsPerWindow)
            self.windowMs = max(1, windowMs)
        }
    }

    /// Entries kept in `timeline` (oldest dropped first).
    public static let maxTimelineEntries = 48

    public let settings: Settings
    /// Entries shown so far, oldest first; the last one is on the watch face.
    public internal(set) var timeline: [ComplicationEntry] = []
    /// Times of the reloads that count against the budget, oldest first.
    public internal(set) var countedReloadsMs: [EpochMs] = []
    /// The newest value waiting for budget.
    public internal(set) var pending: ComplicationGauge?
    /// The latest known values (shown or pending).
    public internal(set) var latest: ComplicationGauge
    /// Every reload so far (counted or not), for reports.
    public internal(set) var totalReloads = 0

    /// A feed that starts showing nothing, with today's steps 0 against `stepGoal`.
    public init(stepGoal: Int, settings: Settings = .defaults) {
        self.settings = settings
        latest = ComplicationGauge(steps: 0, stepGoal: stepGoal)
    }

    /// What the watch face shows, nil before the first reload.
    public var displayed: ComplicationGauge? { timeline.last?.gauge }

    /// When `onTick` must run to apply a pending value, nil when nothing is pending.
    public var nextTickMs: EpochMs? {
        guard pending != nil, let oldest = countedReloadsMs.first else { return nil }
        return oldest + settings.windowMs
    }

    /// Counted reloads still inside the window at `nowMs`.
    public func reloadsUsed(at nowMs: EpochMs) -> Int {
        countedReloadsMs.filter { $0 + settings.windowMs > nowMs }.count
    }

    // MARK: - Inputs

    /// Today's steps changed.
    public mutating func onStepsChanged(_ steps: Int, at nowMs: EpochMs, appInForeground: Bool = false) -> ComplicationReloadOutcome {
        request(ComplicationGauge(steps: steps, stepGoal: latest.stepGoal), at: nowMs, appInForeground: appInForeground)
    }

    /// The settings changed (a new step goal reached the watch).
    public mutating func onSettingsChanged(_ newSettings: AppSettings, at nowMs: EpochMs, appInForeground: Bool = false) -> ComplicationReloadOutcome {
        request(ComplicationGauge(steps: latest.steps, settings: newSettings), at: nowMs, appInForeground: appInForeground)
    }

    /// The phone pushed complication user info.
    public mutating func onComplicationUserInfo(_ info: ComplicationUserInfo, at nowMs: EpochMs) -> ComplicationReloadOutcome {
        request(ComplicationGauge(steps: info.steps, stepGoal: info.stepGoal ?? latest.stepGoal), at: nowMs, appInForeground: false)
    }

    /// Today's steps, the step goal, or both changed: one reload for the new gauge (two
    /// separate calls would spend two reloads of the budget).
    public mutating func show(_ gauge: ComplicationGauge, at nowMs: EpochMs, appInForeground: Bool = false) -> ComplicationReloadOutcome {
        request(gauge, at: nowMs, appInForeground: appInForeground)
    }

    /// The wall clock reads `nowMs`: when it went back behind counted reloads (a clock that
    /// was bumped ahead, then corrected), those reloads count as made now. Left "in the
    /// future" they would hold the budget for the size of the step; counted from now they
    /// still hold it one whole window, so a step back never frees budget early either.
    /// Returns true when a reload time changed.
    public mutating func onClock(at nowMs: EpochMs) -> Bool {
        guard let last = countedReloadsMs.last, last > nowMs else { return false }
        countedReloadsMs = countedReloadsMs.map { min($0, nowMs) }
        return true
    }

    /// Time passed: applies the pending value if the budget has freed.
    public mutating func onTick(at nowMs: EpochMs) -> ComplicationReloadOutcome {
        guard let value = pending else { return .unchanged }
        return request(value, at: nowMs, appInForeground: false)
    }

    // MARK: - Budget

    mutating func request(_ gauge: ComplicationGauge, at nowMs: EpochMs, appInForeground: Bool) -> ComplicationReloadOutcome {
        latest = gauge
        guard gauge != displayed else {
            pending = nil
            return .unchanged
        }
        // Reloads a clock now behind them made count from now (`onClock`): not freed early.
        _ = onClock(at: nowMs)
        let now = nowMs
        countedReloadsMs.removeAll { $0 + settings.windowMs <= now }
        if !appInForeground {
            guard countedReloadsMs.count < settings.maxReloadsPerWindow else {
                pending = gauge
                return .deferred(untilMs: countedReloadsMs[0] + settings.windowMs)
            }
            countedReloadsMs.append(now)
        }
        pending = nil
        totalReloads += 1
        let entry = ComplicationEntry(dateMs: now, gauge: gauge)
        timeline.append(entry)
        if timeline.count > Self.maxTimelineEntries { timeline.removeFirst(timeline.count - Self.maxTimelineEntries) }
        return .reloaded(entry)
    }

    // MARK: - Rendering

    /// The complication as text (the displayed gauge, or a placeholder before the first
    /// reload), with `(pending …)` when a newer value waits for budget.
    public func text(_ language: AppLanguage) -> String {
        let shown = displayed?.text(language) ?? "\(L10n.watchComplicationTitle(language)): \(L10n.watchNoValue(language))"
        guard let pending else { return shown }
        return shown + L10n.watchComplicationPending(pending.label)(language)
    }

    /// The complication as JSON: the displayed gauge, the pending one, and the budget.
    public func jsonValue() -> PlistValue {
        var d: [String: PlistValue] = [
            "entries": .int(Int64(timeline.count)), "countedReloads": .int(Int64(countedReloadsMs.count)),
            "maxReloadsPerWindow": .int(Int64(settings.maxReloadsPerWindow)), "windowMs": .int(settings.windowMs),
        ]
        if let displayed { d["gauge"] = displayed.jsonValue() }
        if let pending { d["pending"] = pending.jsonValue() }
        if let nextTickMs { d["nextTickMs"] = .int(nextTickMs) }
        return .dictionary(d)
    }
}
