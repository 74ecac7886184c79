import PeerLinkCore

/// "Last night" from sleep-analysis samples of every source.
///
/// ## Rules
/// - **Window.** The night that ends on the morning of local day `D` is
///   `[D−1 18:00 local, D 12:00 local)`. Wall times come from the `LocalCalendar`, so the
///   window is 17 or 19 hours long on a DST night. Samples are clipped to the window.
/// - **Asleep time is a union, not a sum.** An instant counts as asleep when any source has an
///   asleep-stage sample (`asleepUnspecified`, `asleepCore`, `asleepDeep`, `asleepREM`) there;
///   overlapping samples from the phone and the watch are counted once.
/// - **Stage of an asleep instant.** The highest-priority source (`statistics.sourcePriority`,
///   watch first by default) that has an asleep sample there decides; within one source the
///   most specific stage wins (deep > REM > core > unspecified). So the four asleep stage
///   totals add up to the asleep total exactly.
/// - **Awake** counts instants with an `awake` sample and no asleep sample from any source.
/// - **In bed** is the union of `inBed` samples (they overlap the stage samples by design).
/// - **No data.** No sleep sample overlapping the window → nil (a placeholder, never zeros).
public struct SleepAnalysis: Sendable, Hashable {
    /// The window opens at this local hour on the previous day.
    public static let windowStartHour = 18
    /// The window closes at this local hour on the morning of the night's day.
    public static let windowEndHour = 12
    /// Milliseconds per minute, for the minute totals.
    public static let msPerMinute = 60_000.0

    /// Source priority used to pick the stage where sources disagree.
    public var statistics: HealthStatistics

    /// An analysis with the given statistics (for its source priority).
    public init(statistics: HealthStatistics = HealthStatistics()) {
        self.statistics = statistics
    }

    // MARK: - Windows

    /// The window of the night that ends on the morning of `morning`.
    public static func nightWindow(endingOn morning: CivilDate, calendar: LocalCalendar) -> EpochRange {
        EpochRange(
            startMs: calendar.instant(morning.adding(days: -1), hour: windowStartHour),
            endMs: calendar.instant(morning, hour: windowEndHour))
    }

    /// The local day whose morning ends "last night" as seen at `nowMs`: today's date (at 20:00
    /// "last night" is still the night that ended this morning).
    public static func lastNightDay(nowMs: EpochMs, calendar: LocalCalendar) -> CivilDate {
        calendar.civilDate(nowMs)
    }

    // MARK: - Summaries

    /// The summary of last night as seen at `nowMs`; nil when there is no sleep data.
    public func lastNight(in samples: [HealthSample], nowMs: EpochMs, calendar: LocalCalendar) -> SleepSummary? {
        summary(of: samples, endingOn: Self.lastNightDay(nowMs: nowMs, calendar: calendar), calendar: calendar)
    }

    /// The summary of the night that ends on the morning of `morning`; nil when no sleep
    /// sample overlaps its window.
    public func summary(of samples: [HealthSample], endingOn morning: CivilDate, calendar: LocalCalendar) -> SleepSummary? {
        let window = Self.nightWindow(endingOn: morning, calendar: calendar)
        var clipped: [(range: EpochRange, stage: SleepStage, rank: Int)] = []
        for sample in samples {
            guard case .sleep(let stage) = sample.kind,
                  let range = EpochRange(startMs: sample.startMs, endMs: sample.endMs).clamped(to: window)
            else { continue }
            clipped.append((range, stage, statistics.rank(of: sample.source)))
        }
        guard !clipped.isEmpty else { return nil }
        let totals = Self.sweep(clipped, sourceCount: DeviceRole.allCases.count)
        return SleepSummary(night: morning, window: window, totalsMs: totals)
    }

    // MARK: - Sweep

    /// The stage order that decides within one source (most specific first).
    static let asleepSpecificity: [SleepStage] = [.asleepDeep, .asleepREM, .asleepCore, .asleepUnspecified]

    /// Walks the elementary segments between sample edges and attributes each to one stage.
    static func sweep(_ items: [(range: EpochRange, stage: SleepStage, rank: Int)], sourceCount: Int) -> SleepTotalsMs {
        let stageCount = SleepStage.allCases.count
        var events: [(ms: EpochMs, slot: Int, delta: Int)] = []
        events.reserveCapacity(items.count * 2)
        for item in items {
            let slot = min(item.rank, sourceCount - 1) * stageCount + item.stage.rawValue
            events.append((item.range.startMs, slot, 1))
            events.append((item.range.endMs, slot, -1))
        }
        events.sort { $0.ms < $1.ms }

        var active = [Int](repeating: 0, count: sourceCount * stageCount)
        var totals = SleepTotalsMs()
        var i = 0
        while i < events.count {
            let at = events[i].ms
            while i < events.count, events[i].ms == at {
                active[events[i].slot] += events[i].delta
                i += 1
            }
            guard i < events.count else { break }
            let lengthMs = events[i].ms - at
            guard lengthMs > 0 else { continue }
            totals.add(classify(active, sourceCount: sourceCount, stageCount: stageCount), startMs: at, lengthMs: lengthMs)
        }
        return totals
    }

    /// What one elementary segment counts as.
    private static func classify(_ active: [Int], sourceCount: Int, stageCount: Int) -> SegmentClass {
        func isActive(_ rank: Int, _ stage: SleepStage) -> Bool { active[rank * stageCount + stage.rawValue] > 0 }
        let inBed = (0..<sourceCount).contains { isActive($0, .inBed) }
        for rank in 0..<sourceCount {
            if let stage = asleepSpecificity.first(where: { isActive(rank, $0) }) {
                return SegmentClass(asleepStage: stage, awake: false, inBed: inBed)
            }
        }
        let awake = (0..<sourceCount).contains { isActive($0, .awake) }
        return SegmentClass(asleepStage: nil, awake: awake, inBed: inBed)
    }
}

/// What one elementary segment of the night counts as.
struct SegmentClass {
    var asleepStage: SleepStage?
    var awake: Bool
    var inBed: Bool
}

/// Milliseconds per category, accumulated by the sweep.
struct SleepTotalsMs: Hashable {
    var byStage: [SleepStage: Int64] = [:]
    /// The first asleep instant of the night.
    var firstAsleepMs: EpochMs?
    /// The end of the last asleep segment.
    var lastAsleepEndMs: EpochMs?

    /// Adds the segment `[startMs, startMs + lengthMs)`; segments arrive in time order.
    mutating func add(_ c: SegmentClass, startMs: EpochMs, lengthMs: Int64) {
        if let stage = c.asleepStage {
            byStage[stage, default: 0] += lengthMs
            if firstAsleepMs == nil { firstAsleepMs = startMs }
            lastAsleepEndMs = startMs + lengthMs
        }
        if c.awake { byStage[.awake, default: 0] += lengthMs }
        if c.inBed { byStage[.inBed, default: 0] += lengthMs }
    }
}
