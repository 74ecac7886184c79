/// The sleep score: a documented 0–100 formula.
///
/// ```
/// duration = 60 × min(asleep / 480 min, 1)              // 8 h target
/// stages   = 25 × min((deep + REM) / asleep / 0.35, 1)  // 35 % deep+REM is full marks
/// awake    = 15 × max(0, 1 − awake / 60 min)            // an hour awake loses all 15
/// score    = round(duration + stages + awake), clamped to 0...100
/// ```
/// A night without stage detail (only `asleepUnspecified`, as the phone records) cannot be
/// judged on stages, so its score is `(duration + awake) × 100 / 75` instead of losing 25 points.
/// No asleep time → nil (no score, a placeholder), never 0.
public enum SleepScore {
    /// The asleep time that earns full duration points.
    public static let targetAsleepMinutes = 480.0
    /// The deep + REM share of asleep time that earns full stage points.
    public static let targetDeepAndREMShare = 0.35
    /// Awake minutes (inside the night, no source asleep) that lose every awake point.
    public static let awakeMinutesForZeroPoints = 60.0
    public static let durationPoints = 60.0
    public static let stagePoints = 25.0
    public static let awakePoints = 15.0
    /// The range every score is clamped to.
    public static let range = 0...100

    /// The score of a night; nil when `asleepMinutes` is not positive.
    public static func score(
        asleepMinutes: Double, deepMinutes: Double, remMinutes: Double, hasStageDetail: Bool, awakeMinutes: Double
    ) -> Int? {
        guard asleepMinutes > 0 else { return nil }
        let duration = durationPoints * min(asleepMinutes / targetAsleepMinutes, 1)
        let awake = awakePoints * max(0, 1 - awakeMinutes / awakeMinutesForZeroPoints)
        let raw: Double
        if hasStageDetail {
            let share = (deepMinutes + remMinutes) / asleepMinutes
            raw = duration + stagePoints * min(share / targetDeepAndREMShare, 1) + awake
        } else {
            raw = (duration + awake) * 100 / (durationPoints + awakePoints)
        }
        let rounded = Int(raw.rounded(.toNearestOrAwayFromZero))
        return min(max(rounded, range.lowerBound), range.upperBound)
    }
}

/// The evaluation text's band for a sleep score.
///
/// Bands: 80–100 good (良好), 60–79 fair (普通), 0–59 poor (不足).
public enum SleepEvaluation: String, Sendable, Hashable, CaseIterable {
    case good
    case fair
    case poor

    /// The lowest score that is `good`.
    public static let goodMinimumScore = 80
    /// The lowest score that is `fair`.
    public static let fairMinimumScore = 60

    /// The band that contains `score`.
    public init(score: Int) {
        if score >= Self.goodMinimumScore {
            self = .good
        } else if score >= Self.fairMinimumScore {
            self = .fair
        } else {
            self = .poor
        }
    }

    /// The short label shown under the bars (良好 / 普通 / 不足).
    public var label: LocalizedText {
        switch self {
        case .good: L10n.fitnessSleepGood
        case .fair: L10n.fitnessSleepFair
        case .poor: L10n.fitnessSleepPoor
        }
    }

    /// The evaluation sentence (e.g. "よく眠れています").
    public var message: LocalizedText {
        switch self {
        case .good: L10n.fitnessSleepGoodMessage
        case .fair: L10n.fitnessSleepFairMessage
        case .poor: L10n.fitnessSleepPoorMessage
        }
    }
}
