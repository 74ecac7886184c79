import PeerLinkCore
import FitnessDomain

/// Statistics of a discrete quantity (heart rate): most recent, average, minimum, maximum.
///
/// The average is the time-unweighted arithmetic mean of the accepted samples: every sample
/// weighs the same however long the gap before it. HealthKit's live builder reports the same
/// for samples taken at the sensor's regular rate; a time-weighted mean would need sample
/// durations that instantaneous heart-rate readings do not have.
public struct DiscreteStatistics: Sendable, Hashable {
    /// Accepted samples.
    public private(set) var count: Int = 0
    /// Sum of the values, for the mean.
    public private(set) var sum: Double = 0
    public private(set) var minimum: Double?
    public private(set) var maximum: Double?
    /// The value of the sample with the latest start; on a tie, the one added last.
    public private(set) var mostRecent: Double?
    /// When `mostRecent` was measured.
    public private(set) var mostRecentAtMs: EpochMs?

    /// Empty statistics.
    public init() {}

    /// The mean of the samples, nil when there are none.
    public var average: Double? { count == 0 ? nil : sum / Double(count) }

    /// Adds one sample taken at `atMs`.
    public mutating func add(_ value: Double, atMs: EpochMs) {
        count += 1
        sum += value
        minimum = Swift.min(minimum ?? value, value)
        maximum = Swift.max(maximum ?? value, value)
        if mostRecentAtMs.map({ atMs >= $0 }) ?? true {
            mostRecent = value
            mostRecentAtMs = atMs
        }
    }
}

/// Statistics of a cumulative quantity (active energy): the sum.
public struct CumulativeStatistics: Sendable, Hashable {
    /// Accepted samples.
    public private(set) var count: Int = 0
    /// The total.
    public private(set) var sum: Double = 0

    /// Empty statistics.
    public init() {}

    /// Adds one sample.
    public mutating func add(_ value: Double) {
        count += 1
        sum += value
    }
}

/// A statistic one may ask a builder for (HKStatisticsOptions).
public enum WorkoutStatistic: String, Sendable, Hashable, CaseIterable {
    case mostRecent, average, minimum, maximum, sum

    /// Whether the statistic is defined for discrete (heart rate) or cumulative (energy) kinds:
    /// discrete kinds have no sum; cumulative kinds have only the sum.
    public func isDefined(forCumulative cumulative: Bool) -> Bool {
        cumulative ? self == .sum : self != .sum
    }
}

/// Why a builder call was refused; the builder is unchanged.
public enum WorkoutBuilderError: Error, Sendable, Hashable, CustomStringConvertible {
    case collectionAlreadyBegun
    case collectionNotBegun
    case collectionAlreadyEnded
    /// `finishWorkout()` before `endCollection(at:)`.
    case collectionNotEnded
    case alreadyFinished
    /// `endCollection(at:)` earlier than the collection's begin or its last event.
    case endBeforeLastEvent(endMs: EpochMs, lastMs: EpochMs)
    /// e.g. the average of a cumulative type, or the sum of a discrete one.
    case statisticNotDefined(statistic: WorkoutStatistic, kind: String)
    /// The builder collects heart rate and active energy only.
    case unsupportedKind(String)

    /// For people.
    public var description: String {
        switch self {
        case .collectionAlreadyBegun: "collection has already begun"
        case .collectionNotBegun: "collection has not begun"
        case .collectionAlreadyEnded: "collection has already ended"
        case .collectionNotEnded: "cannot finish: collection has not ended"
        case .alreadyFinished: "workout already finished"
        case .endBeforeLastEvent(let e, let l): "cannot end collection at \(e): before \(l)"
        case .statisticNotDefined(let s, let k):
            "\(s.rawValue) is not defined for \(k) (\(s == .sum ? "discrete" : "cumulative") type)"
        case .unsupportedKind(let k): "the workout builder does not collect \(k)"
        }
    }
}

/// What `finishWorkout()` saves: the record with totals and events, and every sample at full
/// resolution (source `.watch`, ids `<workoutID>.<index>` in acceptance order).
public struct FinishedWorkout: Sendable, Hashable {
    public var record: WorkoutRecord
    public var samples: [HealthSample]

    /// A saved workout with its samples.
    public init(record: WorkoutRecord, samples: [HealthSample]) {
        self.record = record
        self.samples = samples
    }
}

extension WorkoutSampleFile {
    /// The file of a saved workout (what the watch sends with `transferFile`).
    public init(_ finished: FinishedWorkout) {
        self.init(record: finished.record, samples: finished.samples)
    }
}
