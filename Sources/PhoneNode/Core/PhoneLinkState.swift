import PeerLinkCore
import FitnessDomain

/// What the phone app did with WatchConnectivity and what it heard back: counters for
/// queries and reports, the start requests awaiting the watch's answer, and the last workout
/// sample file received. Durable (local key `phone.link`), so a restarted phone still knows
/// what it received and which start requests to send again.
struct PhoneLinkState: Sendable, Equatable {
    /// A `startWorkout` message sent and not yet answered: if it fails (or the phone restarts
    /// before the answer) the request goes again as user info, which the watch applies once.
    struct PendingStart: Sendable, Equatable {
        var messageID: UInt64
        var activity: WorkoutActivityType
        var startMs: EpochMs
    }

    /// A workout sample file received from the watch (`WorkoutSampleFile`).
    struct ReceivedWorkoutFile: Sendable, Equatable {
        /// The name the watch gave (`<workoutID>.samples.plist`).
        var name: String
        /// Where the phone keeps it, relative to its file root.
        var path: String
        var bytes: Int64
        var atMs: EpochMs
        /// From the decoded file; nil when it did not decode.
        var workoutID: String?
        var sampleCount: Int?
        /// Why it did not decode (or did not match its metadata); nil when it did.
        var error: String?
    }

    // MARK: - Messages

    var messagesSent = 0
    var messagesFailed = 0
    var messagesReceived = 0
    /// `WCErrorDomain` errors the app saw, and the code name of the last one.
    var linkErrors = 0
    var lastLinkError: String?

    // MARK: - Start requests

    var pendingStarts: [PendingStart] = []
    /// Start requests sent, by message and by user info (a fallback counts in both).
    var startsByMessage = 0
    var startsByUserInfo = 0
    /// How the last request went (`message` or `userInfo`) and its result: `pending` (a
    /// message awaiting its reply), `ok` (the watch answered), `error: …` (the watch refused
    /// it), `queued` (user info, delivered when the watch app runs) or `failed:CODE`.
    var lastStartVia: String?
    var lastStartResult: String?

    // MARK: - Complication pushes

    /// `transferCurrentComplicationUserInfo` calls that went as complication transfers, as
    /// ordinary user info (budget spent), or failed (complication not on the face…).
    var complicationSent = 0
    var complicationFallback = 0
    var complicationFailed = 0

    // MARK: - Files and context

    var filesReceived = 0
    var lastFile: ReceivedWorkoutFile?
    /// Application contexts set (settings snapshots).
    var contextsSent = 0

    /// Records a `WCErrorDomain` error by its code name.
    mutating func recordLinkError(_ codeName: String) {
        linkErrors += 1
        lastLinkError = codeName
    }
}

// MARK: - Durable form

extension PhoneLinkState {
    /// The state as a property list (the local key `phone.link`).
    var plistValue: PlistValue {
        func n(_ v: Int) -> PlistValue { .int(Int64(v)) }
        var d: [String: PlistValue] = [
            "messagesSent": n(messagesSent), "messagesFailed": n(messagesFailed), "messagesReceived": n(messagesReceived),
            "linkErrors": n(linkErrors), "startsByMessage": n(startsByMessage), "startsByUserInfo": n(startsByUserInfo),
            "complicationSent": n(complicationSent), "complicationFallback": n(complicationFallback),
            "complicationFailed": n(complicationFailed), "filesReceived": n(filesReceived), "contextsSent": n(contextsSent),
            "pendingStarts": .array(pendingStarts.map {
                ["messageID": .int(Int64(bitPattern: $0.messageID)), "activity": .string($0.activity.rawValue), "startMs": .int($0.startMs)]
            }),
        ]
        if let lastLinkError { d["lastLinkError"] = .string(lastLinkError) }
        if let lastStartVia { d["lastStartVia"] = .string(lastStartVia) }
        if let lastStartResult { d["lastStartResult"] = .string(lastStartResult) }
        if let f = lastFile { d["lastFile"] = f.plistValue }
        return .dictionary(d)
    }

    /// Restores `plistValue`'s form; nil when it is not a dictionary or a part is malformed.
    init?(plistValue v: PlistValue) {
        guard v.dictionaryValue != nil else { return nil }
        func n(_ key: String) -> Int { Int(v[key]?.intValue ?? 0) }
        messagesSent = n("messagesSent")
        messagesFailed = n("messagesFailed")
        messagesReceived = n("messagesReceived")
        linkErrors = n("linkErrors")
        startsByMessage = n("startsByMessage")
        startsByUserInfo = n("startsByUserInfo")
        complicationSent = n("complicationSent")
        complicationFallback = n("complicationFallback")
        complicationFailed = n("complicationFailed")
        filesReceived = n("filesReceived")
        contextsSent = n("contextsSent")
        lastLinkError = v["lastLinkError"]?.stringValue
        lastStartVia = v["lastStartVia"]?.stringValue
        lastStartResult = v["lastStartResult"]?.stringValue
        var starts: [PendingStart] = []
        for p in v["pendingStarts"]?.arrayValue ?? [] {
            guard let id = p["messageID"]?.intValue, let a = p["activity"]?.stringValue.flatMap(WorkoutActivityType.init(rawValue:)),
                  let at = p["startMs"]?.intValue else { return nil }
            starts.append(PendingStart(messageID: UInt64(bitPattern: id), activity: a, startMs: at))
        }
        pendingStarts = starts
        if let f = v["lastFile"] {
            guard let file = ReceivedWorkoutFile(plistValue: f) else { return nil }
            lastFile = file
        }
    }
}

extension PhoneLinkState.ReceivedWorkoutFile {
    /// The record as a property list (also the `files last` query's value).
    var plistValue: PlistValue {
        var d: [String: PlistValue] = ["name": .string(name), "path": .string(path), "bytes": .int(bytes), "at": .int(atMs)]
        if let workoutID { d["workout"] = .string(workoutID) }
        if let sampleCount { d["samples"] = .int(Int64(sampleCount)) }
        if let error { d["error"] = .string(error) }
        return .dictionary(d)
    }

    /// Restores `plistValue`'s form.
    init?(plistValue v: PlistValue) {
        guard let name = v["name"]?.stringValue, let path = v["path"]?.stringValue, let bytes = v["bytes"]?.intValue,
              let at = v["at"]?.intValue else { return nil }
        self.init(name: name, path: path, bytes: bytes, atMs: at, workoutID: v["workout"]?.stringValue,
                  sampleCount: v["samples"]?.intValue.map { Int($0) }, error: v["error"]?.stringValue)
    }
}
