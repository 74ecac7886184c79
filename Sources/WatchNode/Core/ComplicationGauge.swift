import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The watch complication (seed: 現在の歩数を表示する CircularGauge スタイル): an
/// `accessoryCircular` widget with an `.accessoryCircularCapacity` gauge of today's steps
/// against the step goal.
public struct ComplicationGauge: Sendable, Hashable {
    /// The WidgetKit family.
    public static let family = "accessoryCircular"
    /// The gauge style.
    public static let gaugeStyle = "accessoryCircularCapacity"

    /// Today's steps: the gauge's value (negative input is stored as 0).
    public var steps: Int
    /// The step goal: the gauge's maximum.
    public var stepGoal: Int

    /// A gauge of `steps` (negative counts as 0) against `stepGoal`.
    public init(steps: Int, stepGoal: Int) {
        self.steps = max(0, steps)
        self.stepGoal = stepGoal
    }

    /// The gauge for `steps` against the goal in `settings`.
    public init(steps: Int, settings: AppSettings) {
        self.init(steps: steps, stepGoal: settings.stepGoal)
    }

    /// `steps / stepGoal` clamped to 0...1 (a capacity gauge cannot overflow); 0 when the
    /// goal is not positive.
    public var fraction: Double {
        guard stepGoal > 0 else { return 0 }
        return min(1, max(0, Double(steps) / Double(stepGoal)))
    }

    /// The label in the middle of the gauge: `compactLabel(steps)`, e.g. `8.4k`.
    public var label: String { Self.compactLabel(steps) }

    /// At most four characters for the small circle, always rounded **down** so the label
    /// never claims more steps than were taken (9,999 is `9.9k`, not `10k`):
    /// - below 1,000: the number, `842`;
    /// - below 10,000: thousands with one decimal, `8.4k`; a zero decimal is dropped, `8k`;
    /// - below 1,000,000: whole thousands, `12k`, `999k`;
    /// - from 1,000,000: the same two rules in millions, `1.2M`, `12M`.
    public static func compactLabel(_ n: Int) -> String {
        let n = max(0, n)
        if n < 1_000 { return "\(n)" }
        if n < 1_000_000 { return scaled(n, unit: 1_000, suffix: "k") }
        return scaled(n, unit: 1_000_000, suffix: "M")
    }

    static func scaled(_ n: Int, unit: Int, suffix: String) -> String {
        let whole = n / unit
        if whole >= 10 { return "\(whole)\(suffix)" }
        let tenth = (n % unit) / (unit / 10)
        return tenth == 0 ? "\(whole)\(suffix)" : "\(whole).\(tenth)\(suffix)"
    }

    // MARK: - Rendering

    /// The complication as text: `歩数ゲージ: 8.4k (8,432 / 10,000, 84%)`.
    public func text(_ language: AppLanguage) -> String {
        "\(L10n.watchComplicationTitle(language)): \(label) (\(WatchFormat.grouped(steps)) / "
            + "\(WatchFormat.grouped(stepGoal)), \(WatchFormat.percent(fraction)))"
    }

    /// The complication as JSON: family, gaugeStyle, value, max, fraction, label.
    public func jsonValue() -> PlistValue {
        [
            "family": .string(Self.family), "gaugeStyle": .string(Self.gaugeStyle), "value": .int(Int64(steps)),
            "max": .int(Int64(stepGoal)), "fraction": .double(fraction), "label": .string(label),
        ]
    }
}

/// What the phone pushes with `transferCurrentComplicationUserInfo`: its App Group snapshot
/// (`FitnessWidgetSnapshot`), of which the gauge uses today's steps and the step goal.
///
/// One shape, wrapped under `complication` (so it is recognized even when the phone's daily
/// budget is spent and it arrives as ordinary user info):
/// `["complication": ["todaySteps": int?, "stepGoal": int?, "todayCalories": double?,
/// "latestHeartRate": double?, "savedAt": ms?, "stepGoalStamp": stamp?]]`. `todaySteps` is
/// absent when the phone may not read steps (then only the goal counts); `savedAt` dates the
/// steps (a snapshot of another local day does not count as today's); `stepGoalStamp` is the
/// replicated write the goal came from (`HLCTimestamp.plistValue`), which tells the watch
/// whether its own replicated goal is newer (a goal without it is older than every write).
public struct ComplicationUserInfo: Sendable, Hashable {
    /// The payload's top-level key.
    public static let key = PeerPayloadKeys.complication
    /// The phone's step count, 0 when it sent none.
    public var steps: Int
    public var stepGoal: Int?
    /// When the phone took the snapshot; nil when it did not say.
    public var savedAtMs: EpochMs?
    /// The stamp of the phone's replicated write of `stepGoal`; nil when it did not say.
    public var stepGoalStamp: HLCTimestamp?

    /// A payload of today's steps and, optionally, the step goal (and the stamp of its write)
    /// and the snapshot's time.
    public init(steps: Int, stepGoal: Int? = nil, savedAtMs: EpochMs? = nil, stepGoalStamp: HLCTimestamp? = nil) {
        self.steps = steps
        self.stepGoal = stepGoal
        self.savedAtMs = savedAtMs
        self.stepGoalStamp = stepGoalStamp
    }

    /// The inner dictionary as the phone sends it (without the `complication` wrapper).
    public func plistValue() -> PlistValue {
        typealias K = FitnessWidgetSnapshot
        var d: [String: PlistValue] = [K.stepsKey: .int(Int64(steps))]
        if let stepGoal { d[K.stepGoalKey] = .int(Int64(stepGoal)) }
        if let savedAtMs { d[K.savedAtKey] = .int(savedAtMs) }
        if let stepGoalStamp { d[PeerPayloadKeys.stepGoalStamp] = stepGoalStamp.plistValue }
        return .dictionary(d)
    }

    /// The whole payload: `["complication": plistValue()]`.
    public func payload() -> PlistValue { [Self.key: plistValue()] }

    /// Parses the inner dictionary; a reason when malformed (not a dictionary, negative
    /// steps, a step goal outside `AppSettings.stepGoalRange`, neither steps nor goal, a
    /// `stepGoalStamp` that is not a stamp).
    public static func parse(_ value: PlistValue) -> Result<ComplicationUserInfo, ComplicationUserInfoError> {
        guard value.dictionaryValue != nil else { return .failure(.init(reason: "not a dictionary")) }
        typealias K = FitnessWidgetSnapshot
        var steps: Int64 = 0
        if let raw = value[K.stepsKey] {
            guard let n = raw.intValue else { return .failure(.init(reason: "todaySteps \(raw) is not an integer")) }
            guard n >= 0, n <= Int64(Int32.max) else { return .failure(.init(reason: "steps \(n) out of range")) }
            steps = n
        }
        var goal: Int? = nil
        if let raw = value[K.stepGoalKey] {
            guard let g = raw.intValue, AppSettings.stepGoalRange.contains(Int(clamping: g)) else {
                return .failure(.init(reason: "stepGoal \(raw) outside \(AppSettings.stepGoalRange)"))
            }
            goal = Int(g)
        }
        guard value[K.stepsKey] != nil || goal != nil else { return .failure(.init(reason: "neither todaySteps nor stepGoal")) }
        var stamp: HLCTimestamp? = nil
        if let raw = value[PeerPayloadKeys.stepGoalStamp] {
            guard let s = HLCTimestamp(plistValue: raw) else { return .failure(.init(reason: "stepGoalStamp \(raw) is not a stamp")) }
            stamp = s
        }
        return .success(ComplicationUserInfo(
            steps: Int(steps), stepGoal: goal, savedAtMs: value[K.savedAtKey]?.intValue, stepGoalStamp: stamp))
    }
}

/// Why a complication user-info payload was refused.
public struct ComplicationUserInfoError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    /// For people and logs.
    public var description: String { "complication user info: \(reason)" }
}
