import PeerLinkCore
import FitnessDomain

/// The bounds a live sample must respect to be collected.
public enum SampleLimits {
    /// Heart rate above this (bpm) is not physiological: rejected. Exactly 250 is accepted.
    public static let maxHeartRateBpm: Double = 250
    /// Heart rate at or below this (bpm) is a sensor dropout: rejected.
    public static let minExclusiveHeartRateBpm: Double = 0
    /// One active-energy sample above this (kcal) is not physiological: rejected.
    /// (A sprint burns about 1 kcal/s; live samples cover seconds to a minute.)
    public static let maxEnergyKcalPerSample: Double = 10_000
    /// The most samples one workout collects (a day of heart rate every 5 s is 17,280).
    public static let maxSamplesPerWorkout = 50_000
}

/// Why the live builder refused a sample; the builder is unchanged.
public enum SampleRejectionReason: Sendable, Hashable {
    /// Heart rate ≤ 0 or > 250 bpm.
    case heartRateOutOfRange(bpm: Double)
    /// Energy below zero (or absurdly large for one sample).
    case energyOutOfRange(kcal: Double)
    /// NaN or infinite value.
    case notFinite
    /// The sample ends before it starts.
    case endsBeforeStart(startMs: EpochMs, endMs: EpochMs)
    /// The builder collects heart rate and active energy only.
    case unsupportedKind(String)
    /// `beginCollection(at:)` has not been called.
    case collectionNotBegun
    /// The sample starts before the collection began.
    case beforeCollection(collectionStartMs: EpochMs)
    /// The collection has ended (or the session stopped: sensors off).
    case collectionEnded(collectionEndMs: EpochMs)
    /// The sample starts while the workout is paused.
    case duringPause
    /// `SampleLimits.maxSamplesPerWorkout` reached.
    case tooManySamples(limit: Int)

    /// For people: what is wrong, with the bound it broke.
    public var description: String {
        switch self {
        case .heartRateOutOfRange(let bpm):
            "heart rate \(bpm) bpm is outside 0 < bpm ≤ \(Int(SampleLimits.maxHeartRateBpm))"
        case .energyOutOfRange(let kcal):
            "active energy \(kcal) kcal is outside 0 ≤ kcal ≤ \(Int(SampleLimits.maxEnergyKcalPerSample))"
        case .notFinite: "value is not a finite number"
        case .endsBeforeStart(let s, let e): "sample ends at \(e), before it starts at \(s)"
        case .unsupportedKind(let k): "the workout builder does not collect \(k)"
        case .collectionNotBegun: "collection has not begun"
        case .beforeCollection(let s): "sample is before the collection began at \(s)"
        case .collectionEnded(let e): "collection ended at \(e) (sensors off)"
        case .duringPause: "workout is paused"
        case .tooManySamples(let n): "workout already holds \(n) samples"
        }
    }
}

/// A refused sample: what it was and why, as data, plus the log line a shell prints.
public struct SampleRejection: Error, Sendable, Hashable {
    public var workoutID: String
    public var kind: HealthSampleKind
    public var startMs: EpochMs
    public var value: Double
    public var reason: SampleRejectionReason

    /// A rejection of one sample.
    public init(workoutID: String, kind: HealthSampleKind, startMs: EpochMs, value: Double, reason: SampleRejectionReason) {
        self.workoutID = workoutID
        self.kind = kind
        self.startMs = startMs
        self.value = value
        self.reason = reason
    }

    /// One line for the node's log: `workout w1: rejected heartRate sample at 1000: heart rate 0.0 bpm is outside …`.
    public var logLine: String {
        "workout \(workoutID): rejected \(kind.name) sample at \(startMs): \(reason.description)"
    }
}

// MARK: - Validation

extension SampleRejectionReason {
    /// Checks a value against the physiological bounds of its kind; nil when acceptable.
    public static func checkBounds(kind: HealthSampleKind, value: Double, startMs: EpochMs, endMs: EpochMs) -> SampleRejectionReason? {
        guard value.isFinite else { return .notFinite }
        guard endMs >= startMs else { return .endsBeforeStart(startMs: startMs, endMs: endMs) }
        switch kind {
        case .heartRate:
            if value <= SampleLimits.minExclusiveHeartRateBpm || value > SampleLimits.maxHeartRateBpm {
                return .heartRateOutOfRange(bpm: value)
            }
        case .activeEnergy:
            if value < 0 || value > SampleLimits.maxEnergyKcalPerSample { return .energyOutOfRange(kcal: value) }
        case .steps, .sleep:
            return .unsupportedKind(kind.name)
        }
        return nil
    }
}
