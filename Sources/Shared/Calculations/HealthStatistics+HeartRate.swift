/// One heart-rate reading: when, how fast, from which device.
public struct HeartRateReading: Sendable, Hashable {
    /// The sample's start (heart-rate samples are instantaneous).
    public var atMs: EpochMs
    /// Beats per minute.
    public var bpm: Double
    public var source: DeviceRole

    public init(atMs: EpochMs, bpm: Double, source: DeviceRole) {
        self.atMs = atMs
        self.bpm = bpm
        self.source = source
    }

    /// As a property list: `{"at": ms, "bpm": 72.0, "source": "watch"}`.
    public var plistValue: PlistValue {
        ["at": .int(atMs), "bpm": .double(bpm), "source": .string(source.rawValue)]
    }
}

/// Heart rate is a discrete kind: it is never summed. Readings from every source are kept
/// (HealthKit's chart shows them all); ties at one instant are ordered by source priority.
extension HealthStatistics {
    /// The span of the dashboard's heart-rate chart: the past 24 hours.
    public static let heartRateSeriesWindowMs: Int64 = 24 * 60 * 60 * 1000

    /// The most recent heart-rate reading at or before `nowMs`; nil when there is none.
    /// Between readings at the same instant, the higher-priority source wins, then the larger id.
    public func latestHeartRate(in samples: [HealthSample], atOrBeforeMs nowMs: EpochMs) -> HeartRateReading? {
        let candidates = samples.filter { $0.kind == .heartRate && $0.startMs <= nowMs }
        guard let best = candidates.max(by: { isOrderedBefore($0, $1) }) else { return nil }
        return HeartRateReading(atMs: best.startMs, bpm: best.value, source: best.source)
    }

    /// Every heart-rate reading from `nowMs − windowMs` to `nowMs` (both included), oldest first.
    public func heartRateSeries(
        in samples: [HealthSample], endingAtMs nowMs: EpochMs,
        windowMs: Int64 = HealthStatistics.heartRateSeriesWindowMs
    ) -> [HeartRateReading] {
        samples
            .filter { $0.kind == .heartRate && $0.startMs >= nowMs - windowMs && $0.startMs <= nowMs }
            .sorted { isOrderedBefore($0, $1) }
            .map { HeartRateReading(atMs: $0.startMs, bpm: $0.value, source: $0.source) }
    }

    /// The mean of the heart-rate readings that start in `[fromMs, toMs)`; nil when there are none.
    ///
    /// Each reading weighs the same (HealthKit's `discreteAverage` over instantaneous samples).
    public func averageHeartRate(in samples: [HealthSample], fromMs: EpochMs, toMs: EpochMs) -> Double? {
        let values = samples.filter { $0.kind == .heartRate && $0.startMs >= fromMs && $0.startMs < toMs }.map(\.value)
        guard !values.isEmpty else { return nil }
        return values.reduce(0, +) / Double(values.count)
    }

    // MARK: - Ordering

    /// Time order; at one instant the lower-priority source first, then by id, so `max` picks
    /// the preferred reading and sorting is deterministic.
    private func isOrderedBefore(_ a: HealthSample, _ b: HealthSample) -> Bool {
        if a.startMs != b.startMs { return a.startMs < b.startMs }
        let ra = rank(of: a.source), rb = rank(of: b.source)
        if ra != rb { return ra > rb }
        return a.id < b.id
    }
}
