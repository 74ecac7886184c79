import PeerLinkCore
import FitnessDomain

/// Something the phone asks the link to do for it: a directive, as data.
///
/// The core produces these and hands each to `PhoneApp.perform(_:_:)`, the one adapter
/// between the app and the link's channels (PhoneApp+Link.swift), which records each with
/// what it did (`show effects`, query `effects …`).
public enum PhoneEffect: Sendable, Equatable {
    /// Ask the watch to start a workout credited from `startMs`
    /// (`HKHealthStore.startWatchApp(with:)`). Payload:
    /// `["startWorkout": ["activity": "running", "startMs": ms]]`.
    case startWatchWorkout(activity: WorkoutActivityType, startMs: EpochMs)
    /// Push today's activity to the watch's step complication
    /// (`transferCurrentComplicationUserInfo`; the link owns the 50-a-day budget). Payload:
    /// `["complication": App Group snapshot + stepGoalStamp]` (`todaySteps`, `stepGoal`,
    /// `todayCalories`, `latestHeartRate`, `savedAt`, and `stepGoalStamp`: the stamp of the
    /// replicated write the goal came from; missing values absent). The watch shows the pushed
    /// goal only while its own replica holds no newer write of the goal.
    case pushComplication(FitnessWidgetSnapshot, stepGoalStamp: HLCTimestamp?)

    /// The payload key of `startWatchWorkout`.
    public static let startWorkoutKey = PeerPayloadKeys.startWorkout
    /// The payload key of `pushComplication`.
    public static let complicationKey = PeerPayloadKeys.complication

    /// `startWorkout` or `complication`.
    public var kind: String {
        switch self {
        case .startWatchWorkout: Self.startWorkoutKey
        case .pushComplication: Self.complicationKey
        }
    }

    /// The user-info / message dictionary the link carries to the watch.
    public var payload: PlistValue {
        switch self {
        case .startWatchWorkout(let activity, let startMs):
            [Self.startWorkoutKey: ["activity": .string(activity.rawValue), "startMs": .int(startMs)]]
        case .pushComplication(let snapshot, let stamp):
            [Self.complicationKey: Self.complicationPayload(snapshot, stepGoalStamp: stamp)]
        }
    }

    /// The App Group snapshot's dictionary with the goal's stamp added; the bounds of the
    /// snapshot's day stay on the phone (the watch dates a push by its `savedAt`).
    static func complicationPayload(_ snapshot: FitnessWidgetSnapshot, stepGoalStamp: HLCTimestamp?) -> PlistValue {
        guard var d = snapshot.plistValue.dictionaryValue else { return snapshot.plistValue }
        d[FitnessWidgetSnapshot.dayStartKey] = nil
        d[FitnessWidgetSnapshot.dayEndKey] = nil
        if let stepGoalStamp { d[PeerPayloadKeys.stepGoalStamp] = stepGoalStamp.plistValue }
        return .dictionary(d)
    }

    /// Rebuilds an effect from its payload; nil for anything else.
    public init?(payload p: PlistValue) {
        if let s = p[Self.startWorkoutKey] {
            guard let a = s["activity"]?.stringValue.flatMap(WorkoutActivityType.init(rawValue:)), let at = s["startMs"]?.intValue else { return nil }
            self = .startWatchWorkout(activity: a, startMs: at)
        } else if let c = p[Self.complicationKey], let snapshot = FitnessWidgetSnapshot(plistValue: c) {
            self = .pushComplication(snapshot, stepGoalStamp: c[PeerPayloadKeys.stepGoalStamp].flatMap(HLCTimestamp.init(plistValue:)))
        } else {
            return nil
        }
    }
}

/// A workout running on the watch, as mirrored to the phone (live metrics).
///
/// Wire shape: the watch's `sendMessage` (no reply expected), one dictionary —
/// `["type": "workout.liveMetrics", "workoutID": "workout-…", "activity": "running",
/// "location": "outdoor", "state": "running", "startMs": ms, "elapsedMs": ms,
/// "energyKcal": kcal, "heartRateBpm": bpm, "hrCount": n, "atMs": ms]`; only `type` and
/// `state` (`WorkoutSessionState` names) are required, `activity` defaults to running.
/// `["type": "workout.mirroringStopped", "workoutID": id]` ends it.
public struct LiveWorkout: Sendable, Equatable {
    /// The `type` of a live-metrics message.
    public static let metricsType = PeerPayloadKeys.liveMetricsType
    /// The `type` of the message that ends mirroring (the workout ended).
    public static let stoppedType = PeerPayloadKeys.mirroringStoppedType

    /// The session state on the watch.
    public var state: WorkoutSessionState
    /// The activity type (running when the payload omits it).
    public var activity: WorkoutActivityType
    /// `indoor` / `outdoor`, if sent.
    public var location: String?
    /// The watch's workout id, if sent.
    public var workoutID: String?
    /// When the workout began on the watch.
    public var startMs: EpochMs?
    /// Elapsed time excluding pauses.
    public var elapsedMs: Int64?
    /// The latest heart rate, bpm.
    public var heartRateBpm: Double?
    /// Heart-rate samples so far.
    public var heartRateCount: Int?
    /// Active energy so far, kcal.
    public var energyKcal: Double?
    /// The watch's time of the metrics.
    public var atMs: EpochMs?
    /// When the phone received them.
    public var receivedMs: EpochMs

    /// Reads a live-metrics message (or the stored form, which adds `receivedMs`); nil when
    /// `state` is missing or unknown. `type` is not checked here.
    public init?(fields p: PlistValue, receivedMs: EpochMs) {
        var fields = Fields()
        if case .dictionary(let d) = p, fields.read(d) {
            guard let live = fields.workout(receivedMs: receivedMs) else { return nil }
            self = live
        } else {
            self.init(byName: p, receivedMs: receivedMs)
        }
    }

    /// `init(fields:receivedMs:)` looking each field up by its name.
    private init?(byName p: PlistValue, receivedMs: EpochMs) {
        guard let s = p["state"]?.stringValue.flatMap(WorkoutSessionState.init(rawValue:)) else { return nil }
        state = s
        activity = p["activity"]?.stringValue.flatMap(WorkoutActivityType.init(rawValue:)) ?? .running
        location = p["location"]?.stringValue
        workoutID = p["workoutID"]?.stringValue
        startMs = p["startMs"]?.intValue
        elapsedMs = p["elapsedMs"]?.intValue
        heartRateBpm = p["heartRateBpm"]?.doubleValue
        heartRateCount = p["hrCount"]?.intValue.map { Int($0) }
        energyKcal = p["energyKcal"]?.doubleValue
        atMs = p["atMs"]?.intValue
        self.receivedMs = receivedMs
    }

    /// A live workout in `state` with only the required fields.
    init(state: WorkoutSessionState, activity: WorkoutActivityType, receivedMs: EpochMs) {
        self.state = state
        self.activity = activity
        self.receivedMs = receivedMs
    }

    /// The fields of a live-metrics message (or of its stored form) read in one pass over the
    /// dictionary, typed as `init(fields:receivedMs:)` reads them: a key is told by its
    /// length and then compared with at most two names, where looking each name up hashed it
    /// (ten lookups a message, ~400 instructions each). They are read straight into a
    /// `LiveWorkout` that `workout(receivedMs:)` hands over without copying.
    struct Fields {
        /// `type` as a string.
        var type: String?
        /// nil when missing or not a state's name.
        var state: WorkoutSessionState?
        /// The other fields (its `state` and `receivedMs` are set by `workout(receivedMs:)`).
        var live = LiveWorkout(state: .notStarted, activity: .running, receivedMs: 0)

        /// `init(fields:receivedMs:)` of the fields read; nil without a known state.
        consuming func workout(receivedMs: EpochMs) -> LiveWorkout? {
            guard let s = state else { return nil }
            live.state = s
            live.receivedMs = receivedMs
            return live
        }

        /// Reads `d` into the fields (a mutating read, not a failable init: returning the
        /// struct in an optional copied it). False when a key is none of the wire shape's
        /// (nor `receivedMs`): the caller then reads the dictionary by name, so every key
        /// equal to a name (`==`, as the dictionary's lookup) is found whatever its bytes.
        mutating func read(_ d: [String: PlistValue]) -> Bool {
            for (key, value) in d {
                switch key.utf8.count {
                case 4:
                    if key == "type" { type = value.stringValue } else if key == "atMs" { live.atMs = value.intValue } else { return false }
                case 5:
                    guard key == "state" else { return false }
                    state = value.stringValue.flatMap(LiveWorkout.sessionState)
                case 7:
                    if key == "startMs" {
                        live.startMs = value.intValue
                    } else if key == "hrCount" {
                        live.heartRateCount = value.intValue.map { Int($0) }
                    } else {
                        return false
                    }
                case 8:
                    if key == "activity" {
                        live.activity = value.stringValue.flatMap(LiveWorkout.activityType) ?? .running
                    } else if key == "location" {
                        live.location = value.stringValue
                    } else {
                        return false
                    }
                case 9:
                    if key == "workoutID" {
                        live.workoutID = value.stringValue
                    } else if key == "elapsedMs" {
                        live.elapsedMs = value.intValue
                    } else {
                        return false
                    }
                case 10:
                    if key == "energyKcal" { live.energyKcal = value.doubleValue } else if key != "receivedMs" { return false }
                case 12:
                    guard key == "heartRateBpm" else { return false }
                    live.heartRateBpm = value.doubleValue
                default:
                    return false
                }
            }
            return true
        }
    }

    /// `WorkoutSessionState(rawValue:)`, the state of nearly every message tried first.
    static func sessionState(_ s: String) -> WorkoutSessionState? {
        s == WorkoutSessionState.running.rawValue ? .running : WorkoutSessionState(rawValue: s)
    }

    /// `WorkoutActivityType(rawValue:)`, running tried first.
    static func activityType(_ s: String) -> WorkoutActivityType? {
        s == WorkoutActivityType.running.rawValue ? .running : WorkoutActivityType(rawValue: s)
    }

    /// True while the workout keeps the watch busy (prepared, running or paused).
    public var isActive: Bool { state == .prepared || state == .running || state == .paused }

    /// The message's dictionary (the wire shape), plus `receivedMs`.
    public var plistValue: PlistValue {
        // Room for every key at once (built from a four-key literal, it was rehashed twice).
        var d = [String: PlistValue](minimumCapacity: 12)
        d["type"] = .string(Self.metricsType)
        d["state"] = .string(state.rawValue)
        d["activity"] = .string(activity.rawValue)
        d["receivedMs"] = .int(receivedMs)
        if let location { d["location"] = .string(location) }
        if let workoutID { d["workoutID"] = .string(workoutID) }
        if let startMs { d["startMs"] = .int(startMs) }
        if let elapsedMs { d["elapsedMs"] = .int(elapsedMs) }
        if let heartRateBpm { d["heartRateBpm"] = .double(heartRateBpm) }
        if let heartRateCount { d["hrCount"] = .int(Int64(heartRateCount)) }
        if let energyKcal { d["energyKcal"] = .double(energyKcal) }
        if let atMs { d["atMs"] = .int(atMs) }
        return .dictionary(d)
    }
}
