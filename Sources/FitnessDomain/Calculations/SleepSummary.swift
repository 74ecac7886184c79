import PeerLinkCore

/// One night's sleep, as `SleepAnalysis` computed it. Minutes are exact (ms ÷ 60,000).
public struct SleepSummary: Sendable, Hashable {
    /// The local day whose morning ends the night.
    public var night: CivilDate
    /// The analysis window, `[night−1 18:00, night 12:00)` local.
    public var window: EpochRange
    public var coreMinutes: Double
    public var deepMinutes: Double
    public var remMinutes: Double
    public var unspecifiedMinutes: Double
    /// Awake time with no asleep sample from any source.
    public var awakeMinutes: Double
    /// Union of the in-bed samples.
    public var inBedMinutes: Double
    /// The first asleep instant; nil when nobody reported sleep.
    public var firstAsleepMs: EpochMs?
    /// The end of the last asleep span; nil when nobody reported sleep.
    public var lastAsleepEndMs: EpochMs?

    /// The stages drawn as the dashboard's bars, in this order.
    public static let barStages: [SleepStage] = [.awake, .asleepREM, .asleepCore, .asleepDeep, .asleepUnspecified, .inBed]

    /// A summary from minute totals.
    public init(
        night: CivilDate, window: EpochRange, coreMinutes: Double, deepMinutes: Double, remMinutes: Double,
        unspecifiedMinutes: Double, awakeMinutes: Double, inBedMinutes: Double,
        firstAsleepMs: EpochMs? = nil, lastAsleepEndMs: EpochMs? = nil
    ) {
        self.night = night
        self.window = window
        self.coreMinutes = coreMinutes
        self.deepMinutes = deepMinutes
        self.remMinutes = remMinutes
        self.unspecifiedMinutes = unspecifiedMinutes
        self.awakeMinutes = awakeMinutes
        self.inBedMinutes = inBedMinutes
        self.firstAsleepMs = firstAsleepMs
        self.lastAsleepEndMs = lastAsleepEndMs
    }

    /// Builds a summary from the sweep's millisecond totals.
    init(night: CivilDate, window: EpochRange, totalsMs t: SleepTotalsMs) {
        func minutes(_ s: SleepStage) -> Double { Double(t.byStage[s] ?? 0) / SleepAnalysis.msPerMinute }
        self.init(
            night: night, window: window, coreMinutes: minutes(.asleepCore), deepMinutes: minutes(.asleepDeep),
            remMinutes: minutes(.asleepREM), unspecifiedMinutes: minutes(.asleepUnspecified),
            awakeMinutes: minutes(.awake), inBedMinutes: minutes(.inBed),
            firstAsleepMs: t.firstAsleepMs, lastAsleepEndMs: t.lastAsleepEndMs)
    }

    // MARK: - Derived values

    /// Total asleep time: the union of every source's asleep samples.
    public var asleepMinutes: Double { coreMinutes + deepMinutes + remMinutes + unspecifiedMinutes }
    /// Total asleep time in hours.
    public var asleepHours: Double { asleepMinutes / 60 }
    /// True when some asleep time has a stage (core, deep or REM), as the watch records.
    public var hasStageDetail: Bool { coreMinutes + deepMinutes + remMinutes > 0 }

    /// The minutes of one stage.
    public func minutes(_ stage: SleepStage) -> Double {
        switch stage {
        case .inBed: inBedMinutes
        case .asleepUnspecified: unspecifiedMinutes
        case .awake: awakeMinutes
        case .asleepCore: coreMinutes
        case .asleepDeep: deepMinutes
        case .asleepREM: remMinutes
        }
    }

    /// The 0–100 score (see `SleepScore`); nil when the night holds no asleep time.
    public var score: Int? {
        SleepScore.score(
            asleepMinutes: asleepMinutes, deepMinutes: deepMinutes, remMinutes: remMinutes,
            hasStageDetail: hasStageDetail, awakeMinutes: awakeMinutes)
    }

    /// The band of `score`; nil with it.
    public var evaluation: SleepEvaluation? { score.map(SleepEvaluation.init(score:)) }

    // MARK: - Output

    /// As a property list; `score` and `evaluation` are left out when nil.
    public var plistValue: PlistValue {
        var d: [String: PlistValue] = [
            "night": .string(night.description), "windowStart": .int(window.startMs), "windowEnd": .int(window.endMs),
            "asleepMinutes": .double(asleepMinutes), "coreMinutes": .double(coreMinutes),
            "deepMinutes": .double(deepMinutes), "remMinutes": .double(remMinutes),
            "unspecifiedMinutes": .double(unspecifiedMinutes), "awakeMinutes": .double(awakeMinutes),
            "inBedMinutes": .double(inBedMinutes),
        ]
        if let score { d["score"] = .int(Int64(score)) }
        if let evaluation { d["evaluation"] = .string(evaluation.rawValue) }
        return .dictionary(d)
    }
}

// MARK: - Score

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
    /// Points for reaching the asleep target.
    public static let durationPoints = 60.0
    /// Points for reaching the deep + REM share.
    public static let stagePoints = 25.0
    /// Points for no awake time.
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
