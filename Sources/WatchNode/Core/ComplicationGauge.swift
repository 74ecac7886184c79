import Shared

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

/// What the phone pushes with `transferCurrentComplicationUserInfo`: today's steps and,
/// when it changed, the step goal. Layout: `["steps": int, "stepGoal": int?]`.
public struct ComplicationUserInfo: Sendable, Hashable {
    public var steps: Int
    public var stepGoal: Int?

    /// A payload of today's steps and, optionally, a new step goal.
    public init(steps: Int, stepGoal: Int? = nil) {
        self.steps = steps
        self.stepGoal = stepGoal
    }

    /// The payload as the phone sends it.
    public func plistValue() -> PlistValue {
        var d: [String: PlistValue] = ["steps": .int(Int64(steps))]
        if let stepGoal { d["stepGoal"] = .int(Int64(stepGoal)) }
        return .dictionary(d)
    }

    /// Parses a received payload; a reason when malformed (missing or negative steps, a step
    /// goal outside `AppSettings.stepGoalRange`).
    public static func parse(_ value: PlistValue) -> Result<ComplicationUserInfo, ComplicationUserInfoError> {
        guard let steps = value["steps"]?.intValue else { return .failure(.init(reason: "missing integer \"steps\"")) }
        guard steps >= 0, steps <= Int64(Int32.max) else { return .failure(.init(reason: "steps \(steps) out of range")) }
        var goal: Int? = nil
        if let raw = value["stepGoal"] {
            guard let g = raw.intValue, AppSettings.stepGoalRange.contains(Int(clamping: g)) else {
                return .failure(.init(reason: "stepGoal \(raw) outside \(AppSettings.stepGoalRange)"))
            }
            goal = Int(g)
        }
        return .success(ComplicationUserInfo(steps: Int(steps), stepGoal: goal))
    }
}

/// Why a complication user-info payload was refused.
public struct ComplicationUserInfoError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    /// For people and logs.
    public var description: String { "complication user info: \(reason)" }
}
