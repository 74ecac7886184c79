import PeerLinkCore

/// One bucket of a statistics collection: a local day or a Monday-anchored week.
public struct StatisticsBucket: Sendable, Hashable {
    /// The first local day of the bucket (the Monday, for weeks).
    public var firstDay: CivilDate
    /// Local midnight at the start of `firstDay`.
    public var startMs: EpochMs
    /// Local midnight after the bucket's last day (exclusive). Days are 23 or 25 hours long
    /// across a DST change, weeks 167 or 169 hours.
    public var endMs: EpochMs
    /// The de-duplicated sum; nil when no sample fell in the bucket.
    public var value: Double?

    /// A bucket from its values.
    public init(firstDay: CivilDate, startMs: EpochMs, endMs: EpochMs, value: Double?) {
        self.firstDay = firstDay
        self.startMs = startMs
        self.endMs = endMs
        self.value = value
    }

    /// The bucket's span.
    public var range: EpochRange { EpochRange(startMs: startMs, endMs: endMs) }
}

/// Daily and weekly buckets, like `HKStatisticsCollectionQuery` with an anchor at local
/// midnight (days) or at Monday 00:00 local (weeks). Bucket edges are computed per day in the
/// given `LocalCalendar`, so they follow DST: each bucket runs from one local midnight to the next.
extension HealthStatistics {
    /// Days in a week bucket.
    public static let daysPerWeek = 7

    /// The Monday of the ISO week containing `day` (the weekly anchor).
    public static func weekAnchor(containing day: CivilDate) -> CivilDate {
        day.adding(days: -(day.isoWeekday - 1))
    }

    /// The local day range `[startOfDay(firstDay), startOfDay(lastDay + 1))`.
    public static func localDaysRange(from firstDay: CivilDate, through lastDay: CivilDate, calendar: LocalCalendar) -> EpochRange {
        EpochRange(startMs: calendar.startOfDay(firstDay), endMs: calendar.startOfDay(lastDay.adding(days: 1)))
    }

    /// One bucket per local day from `firstDay` through `lastDay` (inclusive, oldest first);
    /// empty when `lastDay` is before `firstDay`.
    public func dailyBuckets(
        of kind: HealthSampleKind, in samples: [HealthSample],
        from firstDay: CivilDate, through lastDay: CivilDate, calendar: LocalCalendar
    ) -> [StatisticsBucket] {
        let count = firstDay.days(to: lastDay) + 1
        guard count > 0 else { return [] }
        let relevant = Self.samples(of: kind, in: samples, overlapping: Self.localDaysRange(from: firstDay, through: lastDay, calendar: calendar))
        return (0..<count).map { i in
            let day = firstDay.adding(days: i)
            return bucket(kind, relevant, firstDay: day, days: 1, calendar: calendar)
        }
    }

    /// One bucket per week (Monday 00:00 local to the next Monday 00:00), from the week that
    /// contains `firstDay` through the week that contains `lastDay`, oldest first.
    public func weeklyBuckets(
        of kind: HealthSampleKind, in samples: [HealthSample],
        from firstDay: CivilDate, through lastDay: CivilDate, calendar: LocalCalendar
    ) -> [StatisticsBucket] {
        let firstMonday = Self.weekAnchor(containing: firstDay)
        let lastMonday = Self.weekAnchor(containing: lastDay)
        let weeks = firstMonday.days(to: lastMonday) / Self.daysPerWeek + 1
        guard weeks > 0 else { return [] }
        let span = Self.localDaysRange(from: firstMonday, through: lastMonday.adding(days: Self.daysPerWeek - 1), calendar: calendar)
        let relevant = Self.samples(of: kind, in: samples, overlapping: span)
        return (0..<weeks).map { w in
            bucket(kind, relevant, firstDay: firstMonday.adding(days: w * Self.daysPerWeek), days: Self.daysPerWeek, calendar: calendar)
        }
    }

    /// The de-duplicated sum of `kind` over the local day `day`.
    public func dailySum(of kind: HealthSampleKind, in samples: [HealthSample], on day: CivilDate, calendar: LocalCalendar) -> Double? {
        let range = Self.localDaysRange(from: day, through: day, calendar: calendar)
        return cumulativeSum(of: kind, in: samples, fromMs: range.startMs, toMs: range.endMs)
    }

    // MARK: - Helpers

    private func bucket(
        _ kind: HealthSampleKind, _ samples: [HealthSample], firstDay: CivilDate, days: Int, calendar: LocalCalendar
    ) -> StatisticsBucket {
        let range = Self.localDaysRange(from: firstDay, through: firstDay.adding(days: days - 1), calendar: calendar)
        let value = cumulativeSum(of: kind, in: samples, fromMs: range.startMs, toMs: range.endMs)
        return StatisticsBucket(firstDay: firstDay, startMs: range.startMs, endMs: range.endMs, value: value)
    }

    /// The samples of `kind` that overlap `range` (a pre-filter so each bucket scans less).
    static func samples(of kind: HealthSampleKind, in samples: [HealthSample], overlapping range: EpochRange) -> [HealthSample] {
        samples.filter { $0.kind == kind && overlaps($0, range) }
    }
}

// MARK: - Heart rate

/// One heart-rate reading: when, how fast, from which device.
public struct HeartRateReading: Sendable, Hashable {
    /// The sample's start (heart-rate samples are instantaneous).
    public var atMs: EpochMs
    /// Beats per minute.
    public var bpm: Double
    public var source: DeviceRole

    /// A reading from its values.
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
