import PeerLinkCore

/// The activity types this app offers, in the order the Digital Crown scrolls them.
public enum WorkoutActivityType: String, Sendable, Hashable, CaseIterable, Codable {
    case running, walking, cycling
}

/// Where the workout happens.
public enum WorkoutLocation: String, Sendable, Hashable, CaseIterable, Codable {
    case indoor, outdoor
}

/// HKWorkoutSessionState, by name.
public enum WorkoutSessionState: String, Sendable, Hashable, CaseIterable, Codable {
    case notStarted, prepared, running, paused, stopped, ended
}

/// A pause or resume event of a workout.
public struct WorkoutEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable { case pause, resume }
    public var kind: Kind
    public var atMs: EpochMs
    public init(kind: Kind, atMs: EpochMs) {
        self.kind = kind
        self.atMs = atMs
    }
}

/// A workout as saved by `finishWorkout()` (and, while running, its latest known state).
public struct WorkoutRecord: Sendable, Hashable {
    public var id: String
    public var activity: WorkoutActivityType
    public var location: WorkoutLocation
    public var state: WorkoutSessionState
    public var startMs: EpochMs
    public var endMs: EpochMs?
    public var events: [WorkoutEvent]
    /// Active energy burned, kcal.
    public var totalEnergyKcal: Double
    /// Elapsed time excluding pauses, ms.
    public var elapsedMs: Int64
    public var heartRateAverage: Double?
    public var heartRateMin: Double?
    public var heartRateMax: Double?
    public var heartRateSampleCount: Int

    public init(
        id: String, activity: WorkoutActivityType, location: WorkoutLocation, state: WorkoutSessionState,
        startMs: EpochMs, endMs: EpochMs? = nil, events: [WorkoutEvent] = [], totalEnergyKcal: Double = 0,
        elapsedMs: Int64 = 0, heartRateAverage: Double? = nil, heartRateMin: Double? = nil,
        heartRateMax: Double? = nil, heartRateSampleCount: Int = 0
    ) {
        self.id = id
        self.activity = activity
        self.location = location
        self.state = state
        self.startMs = startMs
        self.endMs = endMs
        self.events = events
        self.totalEnergyKcal = totalEnergyKcal
        self.elapsedMs = elapsedMs
        self.heartRateAverage = heartRateAverage
        self.heartRateMin = heartRateMin
        self.heartRateMax = heartRateMax
        self.heartRateSampleCount = heartRateSampleCount
    }
}

extension WorkoutRecord: ReplicatedRecord {
    public static let collection = "workout"

    public var fields: [String: PlistValue] {
        var f: [String: PlistValue] = [
            "activity": .string(activity.rawValue), "location": .string(location.rawValue),
            "state": .string(state.rawValue), "start": .int(startMs),
            "events": .array(events.map { ["kind": .string($0.kind.rawValue), "at": .int($0.atMs)] }),
            "energy": .double(totalEnergyKcal), "elapsed": .int(elapsedMs), "hrCount": .int(Int64(heartRateSampleCount)),
        ]
        if let endMs { f["end"] = .int(endMs) }
        if let heartRateAverage { f["hrAvg"] = .double(heartRateAverage) }
        if let heartRateMin { f["hrMin"] = .double(heartRateMin) }
        if let heartRateMax { f["hrMax"] = .double(heartRateMax) }
        return f
    }

    public init?(id: String, fields f: [String: PlistValue]) {
        guard let a = f["activity"]?.stringValue.flatMap(WorkoutActivityType.init(rawValue:)),
              let l = f["location"]?.stringValue.flatMap(WorkoutLocation.init(rawValue:)),
              let s = f["state"]?.stringValue.flatMap(WorkoutSessionState.init(rawValue:)),
              let start = f["start"]?.intValue
        else { return nil }
        let events: [WorkoutEvent] = (f["events"]?.arrayValue ?? []).compactMap { e in
            guard let k = e["kind"]?.stringValue.flatMap(WorkoutEvent.Kind.init(rawValue:)), let at = e["at"]?.intValue else { return nil }
            return WorkoutEvent(kind: k, atMs: at)
        }
        self.init(
            id: id, activity: a, location: l, state: s, startMs: start, endMs: f["end"]?.intValue, events: events,
            totalEnergyKcal: f["energy"]?.doubleValue ?? 0, elapsedMs: f["elapsed"]?.intValue ?? 0,
            heartRateAverage: f["hrAvg"]?.doubleValue, heartRateMin: f["hrMin"]?.doubleValue,
            heartRateMax: f["hrMax"]?.doubleValue, heartRateSampleCount: Int(f["hrCount"]?.intValue ?? 0))
    }
}
