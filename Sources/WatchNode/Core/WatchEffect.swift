import PeerLinkCore
import FitnessDomain

/// What the watch app asks the link to do beyond the replicated state: the WatchConnectivity
/// calls it would make. The app produces these as data; one adapter
/// (`WatchApp.perform`) turns them into `NodeContext` calls.
public enum WatchEffect: Sendable, Hashable {
    /// `sendMessage(_:replyHandler: nil, errorHandler:)`: a live message to the phone
    /// (mirrored workout metrics). Produced only while `isReachable`; dropped, not queued,
    /// when it cannot go (the next one carries newer values).
    case sendMessage(PlistValue)
    /// `transferFile(_:metadata:)`: background, guaranteed; the finished workout's
    /// full-resolution samples (`WorkoutSampleFile`).
    case transferFile(name: String, bytes: [UInt8], metadata: PlistValue)

    /// A short description for logs: `sendMessage workout.liveMetrics 212 B`.
    public var summary: String {
        switch self {
        case .sendMessage(let m):
            Self.messageSummary(type: m["type"]?.stringValue, bytes: CanonicalEncoding.encodedSize(m))
        case .transferFile(let name, let bytes, _):
            "transferFile \(name) \(bytes.count) B"
        }
    }

    /// `summary` of a `.sendMessage` given its `type` (nil when it has none) and canonical size.
    static func messageSummary(type: String?, bytes: Int) -> String {
        "sendMessage \(type ?? "?") \(bytes) B"
    }
}

/// The message the watch sends when mirroring of a workout stops (the workout ended).
public enum MirrorStoppedMessage {
    /// The message's `type`.
    public static let type = PeerPayloadKeys.mirroringStoppedType

    /// `["type": "workout.mirroringStopped", "workoutID": id]`.
    public static func make(workoutID: String) -> PlistValue {
        ["type": .string(type), "workoutID": .string(workoutID)]
    }
}

// MARK: - From the phone

/// The phone's request to start a workout on the watch (run detection accepted on the phone):
/// `["startWorkout": ["activity": "running", "startMs": int]]`, as user info or a message.
public struct StartWorkoutRequest: Sendable, Hashable {
    /// The payload's top-level key.
    public static let key = PeerPayloadKeys.startWorkout

    public var activity: WorkoutActivityType
    /// When the run began: the workout is credited from here.
    public var startMs: EpochMs

    /// A request to start `activity` credited from `startMs`.
    public init(activity: WorkoutActivityType, startMs: EpochMs) {
        self.activity = activity
        self.startMs = startMs
    }

    /// The payload as the phone sends it.
    public func plistValue() -> PlistValue {
        [Self.key: ["activity": .string(activity.rawValue), "startMs": .int(startMs)]]
    }
}

/// A payload from the phone that the watch app understands.
public enum PhonePayload: Sendable, Hashable {
    /// Start a workout credited from a past instant.
    case startWorkout(StartWorkoutRequest)
    /// Complication data (`transferCurrentComplicationUserInfo`, or ordinary user info once
    /// the phone's daily budget is spent).
    case complication(ComplicationUserInfo)

    /// Recognizes a payload: nil when it is none of the watch's (the caller ignores it), a
    /// failure when it is one of them but malformed.
    ///
    /// Complication data is recognized by its `complication` key whichever channel it came
    /// on: at a spent budget `transferCurrentComplicationUserInfo` degrades to an ordinary
    /// user-info transfer, which the receiver cannot tell apart otherwise. Complication user
    /// info (`isComplication`) without that key is malformed.
    public static func parse(_ payload: PlistValue, isComplication: Bool) -> Result<PhonePayload, PhonePayloadError>? {
        guard let d = payload.dictionaryValue else {
            return isComplication ? .failure(.init("complication user info is not a dictionary")) : nil
        }
        if let request = d[StartWorkoutRequest.key] {
            guard let name = request["activity"]?.stringValue, let activity = WorkoutActivityType(rawValue: name) else {
                return .failure(.init("startWorkout: missing or unknown activity"))
            }
            guard let startMs = request["startMs"]?.intValue else { return .failure(.init("startWorkout: missing integer startMs")) }
            return .success(.startWorkout(StartWorkoutRequest(activity: activity, startMs: startMs)))
        }
        guard let complication = d[ComplicationUserInfo.key] else {
            return isComplication ? .failure(.init("complication user info without a \"complication\" key")) : nil
        }
        switch ComplicationUserInfo.parse(complication) {
        case .success(let info): return .success(.complication(info))
        case .failure(let e): return .failure(.init(e.description))
        }
    }
}

/// Why a payload from the phone was refused (logged; nothing changes).
public struct PhonePayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    /// An error with a reason for people.
    public init(_ reason: String) { self.reason = reason }

    /// For people and logs.
    public var description: String { "payload from the phone: \(reason)" }
}
