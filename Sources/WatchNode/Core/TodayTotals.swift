import Shared

/// Today's activity totals on the watch: steps and active energy for one local day, merged
/// across the phone's and the watch's samples the way HealthKit's statistics merge them
/// (`HealthStatistics`, watch first: overlapping phone samples only fill the watch's gaps, so
/// the same steps are never counted twice).
///
/// Rules chosen:
/// - Steps are rounded to the nearest whole step (`FitnessFormat.roundedCount`), as the
///   phone's dashboard rounds them, so both devices show the same number.
/// - "No data" (no sample overlaps the day) is nil, shown as 0 on the rings and the gauge.
/// - The phone may push a newer step count for the complication (`ComplicationUserInfo`)
///   before its samples reach the watch through the replicated state. Steps only grow within
///   a day, so the watch shows the larger of its own total and the pushed one for the same
///   local day (`PhoneStepsPush`); a push for another day is ignored.
public struct TodayTotals: Sendable, Hashable {
    /// The local day.
    public var day: CivilDate
    /// Today's steps, nil without data.
    public var steps: Int?
    /// Today's active energy, kcal, nil without data.
    public var energyKcal: Double?

    /// Totals from their parts.
    public init(day: CivilDate, steps: Int?, energyKcal: Double?) {
        self.day = day
        self.steps = steps
        self.energyKcal = energyKcal
    }

    /// The totals of `day` in `calendar` over `samples` (any kinds; others are ignored).
    public static func compute(
        samples: [HealthSample], day: CivilDate, calendar: LocalCalendar, statistics: HealthStatistics = HealthStatistics()
    ) -> TodayTotals {
        TodayTotals(
            day: day,
            steps: statistics.dailySum(of: .steps, in: samples, on: day, calendar: calendar).map(FitnessFormat.roundedCount),
            energyKcal: statistics.dailySum(of: .activeEnergy, in: samples, on: day, calendar: calendar))
    }

    /// The local day's bounds `[start, next start)`.
    public static func window(of day: CivilDate, calendar: LocalCalendar) -> EpochRange {
        HealthStatistics.localDaysRange(from: day, through: day, calendar: calendar)
    }

    // MARK: - Reading the replicated state

    /// The live samples of `kinds` in `replica` that overlap `window`, ordered by id (so sums
    /// add in the same order on every run). Only matching records are decoded.
    public static func samples(in replica: ReplicaState, kinds: Set<String>, overlapping window: EpochRange) -> [HealthSample] {
        var out: [HealthSample] = []
        for (key, entry) in replica.records where key.collection == HealthSample.collection && entry.tombstone == nil {
            guard let kind = entry.fields["kind"]?.value.stringValue, kinds.contains(kind),
                  let start = entry.fields["start"]?.value.intValue, let end = entry.fields["end"]?.value.intValue,
                  overlaps(startMs: start, endMs: end, window)
            else { continue }
            if let s = HealthSample(id: key.id, fields: entry.fields.mapValues(\.value)) { out.append(s) }
        }
        return out.sorted { CanonicalEncoding.utf8Less($0.id, $1.id) }
    }

    static func overlaps(startMs: EpochMs, endMs: EpochMs, _ window: EpochRange) -> Bool {
        guard endMs >= startMs else { return false }
        if endMs == startMs { return window.contains(startMs) }
        return startMs < window.endMs && window.startMs < endMs
    }
}

/// The newest complication data the phone pushed: its step count for a local day and, when it
/// sent one, a step goal that stands until the replicated settings change.
public struct PhoneStepsPush: Sendable, Hashable {
    /// The watch's local day when the push arrived.
    public var day: CivilDate
    public var steps: Int
    /// The pushed goal, nil when the push carried none or the settings changed since.
    public var stepGoal: Int?

    /// A push of `steps` (and maybe `stepGoal`) received on `day`.
    public init(day: CivilDate, steps: Int, stepGoal: Int?) {
        self.day = day
        self.steps = steps
        self.stepGoal = stepGoal
    }

    /// The steps to show on `day`: the larger of the watch's own total and this push's, when
    /// the push is for the same day.
    public func steps(on day: CivilDate, computed: Int?) -> Int {
        let own = computed ?? 0
        return day == self.day ? max(own, steps) : own
    }

    // MARK: - Durable form

    /// `["day": "YYYY-MM-DD", "steps": int, "stepGoal": int?]`.
    public func plistValue() -> PlistValue {
        var d: [String: PlistValue] = ["day": .string(day.description), "steps": .int(Int64(steps))]
        if let stepGoal { d["stepGoal"] = .int(Int64(stepGoal)) }
        return .dictionary(d)
    }

    /// Restores a push written by `plistValue()`; nil when malformed.
    public init?(restoring value: PlistValue) {
        guard let dayText = value["day"]?.stringValue, let day = CivilDate(iso: dayText),
              let steps = value["steps"]?.intValue, steps >= 0, steps <= Int64(Int32.max)
        else { return nil }
        let goal = value["stepGoal"]?.intValue.map { Int(clamping: $0) }
        self.init(day: day, steps: Int(steps), stepGoal: goal.flatMap { AppSettings.stepGoalRange.contains($0) ? $0 : nil })
    }
}
