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
