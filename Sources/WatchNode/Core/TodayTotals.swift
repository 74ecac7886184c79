import PeerLinkCore
import FitnessDomain

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
///   a day, so the watch shows the larger of its own total and the pushed one when the push
///   was saved today — the local day in the watch's current zone that contains the push's
///   `savedAt` — (`PhoneStepsPush`); a push from another day is ignored.
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

    /// The live samples of `kinds` in `replica` that overlap `window` (`sample` records and the
    /// samples of `series` records), ordered by id (so sums add in the same order on every
    /// run). Only matching `sample` records, and series whose span overlaps the window, are decoded.
    public static func samples(in replica: ReplicaState, kinds: Set<String>, overlapping window: EpochRange) -> [HealthSample] {
        var out: [HealthSample] = []
        for (key, entry) in replica.records where entry.tombstone == nil {
            switch key.collection {
            case HealthSample.collection:
                guard let kind = entry.fields["kind"]?.value.stringValue, kinds.contains(kind),
                      let start = entry.fields["start"]?.value.intValue, let end = entry.fields["end"]?.value.intValue,
                      overlaps(startMs: start, endMs: end, window)
                else { continue }
                if let s = HealthSample(id: key.id, fields: entry.fields.mapValues(\.value)) { out.append(s) }
            case HealthSampleSeries.collection:
                // A saved workout's series whose span meets the window: each of its samples that matches.
                guard let span = HealthSampleSeries.span(of: { entry.fields[$0]?.value }),
                      span.startMs <= span.endMs, span.startMs < window.endMs, window.startMs <= span.endMs,
                      let series = HealthSampleSeries(id: key.id, fields: entry.fields.mapValues(\.value))
                else { continue }
                for sample in series.samples where kinds.contains(sample.kind.name) && overlaps(startMs: sample.startMs, endMs: sample.endMs, window) {
                    out.append(sample)
                }
            default:
                continue
            }
        }
        return out.sorted { CanonicalEncoding.utf8Less($0.id, $1.id) }
    }

    static func overlaps(startMs: EpochMs, endMs: EpochMs, _ window: EpochRange) -> Bool {
        guard endMs >= startMs else { return false }
        if endMs == startMs { return window.contains(startMs) }
        return startMs < window.endMs && window.startMs < endMs
    }
}

/// The newest complication data the phone pushed: its step count, when its snapshot was saved,
/// and, when it sent one, a step goal with the stamp of the replicated write it came from.
///
/// The count belongs to the local day that contains `savedAtMs` in the watch's current
/// calendar, decided each time it is read (`isSaved(on:calendar:)`), so a time-zone change
/// re-evaluates it: after a flight west the previous evening's count is not today's.
///
/// The pushed goal stands while it is newer than the watch's replicated goal: the push jumps
/// the queue, so it may show the phone's goal before the settings record arrives, but a push
/// that left before a later write of the goal (on either device) must not hide that write. Both
/// are ordered by their hybrid-logical-clock stamps, the order the replica's last-writer-wins
/// merge uses, so the gauge shows the goal the replica keeps whatever the devices' clocks say.
public struct PhoneStepsPush: Sendable, Hashable {
    /// The phone's wall time of the snapshot (the arrival time when the push did not say). Nil
    /// only for a push stored before this was kept; `day` decides for it.
    public var savedAtMs: EpochMs?
    /// The watch's local day of `savedAtMs` when the push arrived; used only without `savedAtMs`.
    public var day: CivilDate
    public var steps: Int
    /// The pushed goal, nil when the push carried none or the replica holds a newer one.
    public var stepGoal: Int?
    /// The stamp of the phone's write of `stepGoal`; nil when it did not say (then the goal is
    /// older than every write).
    public var stepGoalStamp: HLCTimestamp?

    /// A push of `steps` (and maybe `stepGoal`, written at `stepGoalStamp`) saved at
    /// `savedAtMs`, which fell on `day` when it arrived.
    public init(day: CivilDate, savedAtMs: EpochMs? = nil, steps: Int, stepGoal: Int?, stepGoalStamp: HLCTimestamp? = nil) {
        self.savedAtMs = savedAtMs
        self.day = day
        self.steps = steps
        self.stepGoal = stepGoal
        self.stepGoalStamp = stepGoalStamp
    }

    /// A push saved at `savedAtMs`, its `day` taken in `calendar`.
    public init(savedAtMs: EpochMs, calendar: LocalCalendar, steps: Int, stepGoal: Int?, stepGoalStamp: HLCTimestamp? = nil) {
        self.init(
            day: calendar.civilDate(savedAtMs), savedAtMs: savedAtMs, steps: steps, stepGoal: stepGoal, stepGoalStamp: stepGoalStamp)
    }

    /// True when the push was saved on `day` of `calendar`: the local day containing
    /// `savedAtMs` in `calendar` (the current zone) is `day`; without `savedAtMs`, the stored day.
    public func isSaved(on day: CivilDate, calendar: LocalCalendar) -> Bool {
        guard let savedAtMs else { return day == self.day }
        return calendar.civilDate(savedAtMs) == day
    }

    /// The steps to show on `day` of `calendar`: the larger of the watch's own total and this
    /// push's, when the push was saved on that day.
    public func steps(on day: CivilDate, calendar: LocalCalendar, computed: Int?) -> Int {
        let own = computed ?? 0
        return isSaved(on: day, calendar: calendar) ? max(own, steps) : own
    }

    /// True when the pushed goal is newer than the replicated goal written at
    /// `replicatedStamp` (nil: nothing written, the default): it stands when the replica holds
    /// no write of the goal, or an older one than the push's. Once false it stays false (a
    /// register's stamp only grows).
    public func isStepGoalNewer(thanReplicated replicatedStamp: HLCTimestamp?) -> Bool {
        guard stepGoal != nil else { return false }
        guard let replicatedStamp else { return true }
        guard let stepGoalStamp else { return false }
        return stepGoalStamp > replicatedStamp
    }

    // MARK: - Durable form

    /// `["day": "YYYY-MM-DD", "savedAt": ms?, "steps": int, "stepGoal": int?, "stepGoalStamp": stamp?]`.
    public func plistValue() -> PlistValue {
        var d: [String: PlistValue] = ["day": .string(day.description), "steps": .int(Int64(steps))]
        if let savedAtMs { d["savedAt"] = .int(savedAtMs) }
        if let stepGoal { d["stepGoal"] = .int(Int64(stepGoal)) }
        if let stepGoalStamp { d["stepGoalStamp"] = stepGoalStamp.plistValue }
        return .dictionary(d)
    }

    /// Restores a push written by `plistValue()` (one stored without `savedAt` keeps its day);
    /// nil when malformed.
    public init?(restoring value: PlistValue) {
        guard let dayText = value["day"]?.stringValue, let day = CivilDate(iso: dayText),
              let steps = value["steps"]?.intValue, steps >= 0, steps <= Int64(Int32.max)
        else { return nil }
        let goal = value["stepGoal"]?.intValue.map { Int(clamping: $0) }
        self.init(
            day: day, savedAtMs: value["savedAt"]?.intValue, steps: Int(steps), stepGoal: goal.flatMap { AppSettings.stepGoalRange.contains($0) ? $0 : nil },
            stepGoalStamp: value["stepGoalStamp"].flatMap(HLCTimestamp.init(plistValue:)))
    }
}
