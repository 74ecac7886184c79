import PeerLinkCore

/// The result of a cumulative statistics query: the de-duplicated sum and who contributed it.
public struct CumulativeStatistic: Sendable, Hashable {
    /// The de-duplicated sum (steps, or kcal for active energy).
    public var sum: Double
    /// The part of `sum` each source contributed.
    public var sumBySource: [DeviceRole: Double]
    /// How many samples overlapped the interval (before de-duplication).
    public var sampleCount: Int

    /// A result from its values.
    public init(sum: Double, sumBySource: [DeviceRole: Double], sampleCount: Int) {
        self.sum = sum
        self.sumBySource = sumBySource
        self.sampleCount = sampleCount
    }
}

/// Statistics over health samples the way `HKStatisticsQuery` computes them: sources are merged
/// before summing, so the same steps counted by the iPhone and the Apple Watch are not added.
///
/// ## The merge rule for cumulative kinds (steps, active energy)
/// 1. Each sample is a value spread evenly over `[startMs, endMs)`. Only the part inside the
///    query interval counts, pro-rata by time (a 10-minute sample half inside counts half).
/// 2. Sources are taken in `sourcePriority` order (default: watch, then phone). The first
///    source counts in full. Each later source counts, for each of its samples, only the
///    fraction of the sample's time that no higher-priority sample covers: it fills gaps.
///    Example: watch 0–10 min 1,000 steps, phone 5–15 min 600 steps → 1,000 + 600 × 5/10 = 1,300.
/// 3. Samples of one source are summed as they are, even when they overlap each other
///    (HealthKit does not de-duplicate a source against itself).
/// 4. An instantaneous sample (`startMs == endMs`) counts in full when its instant lies in the
///    interval and no higher-priority sample covers that instant; it covers no time itself.
/// 5. No overlapping sample at all → nil ("no data"), never 0. A sample whose value is 0 is
///    data: the sum is 0.
///
/// Roles missing from `sourcePriority` rank after the listed ones, in `DeviceRole.allCases` order.
public struct HealthStatistics: Sendable, Hashable {
    /// HealthKit's default for this app: the watch's sensors outrank the phone's.
    public static let defaultSourcePriority: [DeviceRole] = [.watch, .phone]

    /// Highest priority first.
    public var sourcePriority: [DeviceRole]

    /// Statistics with the given source order (highest first).
    public init(sourcePriority: [DeviceRole] = HealthStatistics.defaultSourcePriority) {
        self.sourcePriority = sourcePriority
    }

    /// Every role exactly once, highest priority first.
    public var effectivePriority: [DeviceRole] {
        var out: [DeviceRole] = []
        for role in sourcePriority + DeviceRole.allCases where !out.contains(role) { out.append(role) }
        return out
    }

    /// The priority rank of `role` (0 is highest).
    public func rank(of role: DeviceRole) -> Int { effectivePriority.firstIndex(of: role) ?? Int.max }

    // MARK: - Cumulative sums

    /// The de-duplicated sum of `kind` over `[fromMs, toMs)`; nil when `kind` is not cumulative,
    /// the interval is empty, or no sample of `kind` overlaps it.
    public func cumulativeSum(
        of kind: HealthSampleKind, in samples: [HealthSample], fromMs: EpochMs, toMs: EpochMs
    ) -> Double? {
        cumulativeStatistic(of: kind, in: samples, fromMs: fromMs, toMs: toMs)?.sum
    }

    /// The de-duplicated sum with its per-source breakdown; nil as for `cumulativeSum`.
    public func cumulativeStatistic(
        of kind: HealthSampleKind, in samples: [HealthSample], fromMs: EpochMs, toMs: EpochMs
    ) -> CumulativeStatistic? {
        guard kind.isCumulative, fromMs < toMs else { return nil }
        let window = EpochRange(startMs: fromMs, endMs: toMs)
        let relevant = samples.filter { $0.kind == kind && Self.overlaps($0, window) }
        guard !relevant.isEmpty else { return nil }

        var covered = EpochRangeSet()
        var total = 0.0
        var bySource: [DeviceRole: Double] = [:]
        for role in effectivePriority {
            let mine = relevant.filter { $0.source == role }
            guard !mine.isEmpty else { continue }
            var sourceSum = 0.0
            var spans: [EpochRange] = []
            for sample in mine {
                sourceSum += Self.countedValue(of: sample, window: window, covered: covered)
                if let span = EpochRange(startMs: sample.startMs, endMs: sample.endMs).clamped(to: window) {
                    spans.append(span)
                }
            }
            covered.formUnion(EpochRangeSet(spans))
            bySource[role] = sourceSum
            total += sourceSum
        }
        return CumulativeStatistic(sum: total, sumBySource: bySource, sampleCount: relevant.count)
    }

    // MARK: - Helpers

    /// True when `sample` has time (or, if instantaneous, its instant) inside `window`.
    static func overlaps(_ sample: HealthSample, _ window: EpochRange) -> Bool {
        guard sample.endMs >= sample.startMs else { return false }
        if sample.endMs == sample.startMs { return window.contains(sample.startMs) }
        return sample.startMs < window.endMs && window.startMs < sample.endMs
    }

    /// The part of `sample`'s value that counts: inside `window` and outside `covered`, pro-rata.
    static func countedValue(of sample: HealthSample, window: EpochRange, covered: EpochRangeSet) -> Double {
        if sample.endMs == sample.startMs {
            return covered.contains(sample.startMs) ? 0 : sample.value
        }
        let span = EpochRange(startMs: sample.startMs, endMs: sample.endMs)
        guard let inside = span.clamped(to: window) else { return 0 }
        let countedMs = inside.durationMs - covered.coveredMs(of: inside)
        guard countedMs > 0 else { return 0 }
        if countedMs == span.durationMs { return sample.value }
        return sample.value * Double(countedMs) / Double(span.durationMs)
    }
}
