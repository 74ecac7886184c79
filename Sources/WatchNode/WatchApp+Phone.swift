import PeerLinkCore
import FitnessDomain

/// What the phone sends the watch app: start requests and complication data (user info or
/// messages, one shape each), and the settings snapshot (application context).
extension WatchApp {
    // MARK: - Payloads

    /// Applies a payload from the phone (user info or message): nil when it is not one of the
    /// watch's, a failure (logged, nothing changed) when malformed, else the reply a message
    /// gets (`["ok": true]`, with what a start request did when it did more than start, or
    /// `["error": …]` when it did not start). `isComplication`: it came as complication user info.
    @discardableResult
    mutating func handlePhonePayload(_ payload: PlistValue, isComplication: Bool, _ ctx: inout NodeContext)
        -> Result<PlistValue, PhonePayloadError>?
    {
        switch PhonePayload.parse(payload, isComplication: isComplication) {
        case nil:
            ctx.log(.debug, "ignored a payload from the phone: \(payload.logSummary())")
            return nil
        case .failure(let e)?:
            ctx.log(.warning, e.description)
            noteError(LocalizedText(ja: "iPhoneからのデータが正しくありません: \(e.description)", en: e.description)(ctx.language))
            return .failure(e)
        case .success(.complication(let info))?:
            link.recordComplicationPush(isComplicationChannel: isComplication)
            receiveComplicationInfo(info, &ctx)
            return .success(["ok": true])
        case .success(.startWorkout(let request))?:
            return .success(startFromPhone(request, &ctx))
        }
    }

    /// The phone's traffic the watch app takes as its own: its start requests and complication
    /// data (well-formed or not), and its settings context. Anything else (sent by hand at the
    /// phone's prompt) is shown at the prompt.
    public func isOwnTraffic(_ event: LinkEvent, _ ctx: NodeContext) -> Bool {
        switch event {
        case .didReceiveMessage(let m):
            guard case .dictionary(let d) = m.payload else { return false }
            return PhonePayload.parse(.dictionary(d), isComplication: false) != nil
        case .didReceiveUserInfo(let info, let isComplication):
            return PhonePayload.parse(info, isComplication: isComplication) != nil
        case .didReceiveApplicationContext(let context):
            return context[Self.settingsContextKey] != nil
        default:
            return false
        }
    }

    /// Run detection accepted on the phone: start a running workout credited from the
    /// request's start (clamped to the last `maxStartCreditMs`, never in the future). Returns
    /// the reply for a message.
    ///
    /// - A workout running or paused is the user's: the request is refused
    ///   (`["error": "workout active", "workoutID", "state"]`), unless it is this request's.
    /// - A stopped workout (sensors off, not ended) is over for the user: it is ended and saved
    ///   as it is, and the request's workout starts, credited no earlier than that workout's
    ///   stop (`["ok": true, "saved": id]`).
    /// - The same request applied before is answered `["ok": true]` and changes nothing — so a
    ///   message and its user-info fallback start one workout, however late the second copy comes.
    ///
    /// The workout is named after the request (`phoneWorkoutID(for:)`), not after the clamped
    /// credit: a copy arriving more than an hour after the run began is clamped to a
    /// different start, but MUST find the workout the first copy started, running or saved.
    mutating func startFromPhone(_ request: StartWorkoutRequest, _ ctx: inout NodeContext) -> PlistValue {
        let id = Self.phoneWorkoutID(for: request)
        if let s = manager.session, s.state == .running || s.state == .paused {
            ctx.log(.info, "startWorkout from the phone ignored: workout \(s.id) is \(s.state.rawValue)")
            return s.id == id ? ["ok": true] : ["error": "workout active", "workoutID": .string(s.id), "state": .string(s.state.rawValue)]
        }
        if isWorkoutIDTaken(id, ctx) {
            ctx.log(.info, "startWorkout from the phone ignored: workout \(id) already exists")
            return ["ok": true]
        }
        var reply: [String: PlistValue] = ["ok": true]
        var earliestMs = ctx.now - Self.maxStartCreditMs
        if let s = manager.session, s.state == .stopped {
            earliestMs = max(earliestMs, s.stopMs ?? earliestMs)
            let ended = manager.end(at: workoutClockMs(&ctx))
            if let refusal = apply(ended, &ctx) {
                ctx.log(.warning, "startWorkout from the phone: the stopped workout \(s.id) did not end: \(refusal.description)")
                noteError(refusal.message(ctx.language, ctx.calendar))
                return ["error": "workout stopped", "workoutID": .string(s.id), "state": "stopped"]
            }
            ctx.log(.info, "startWorkout from the phone: the stopped workout \(s.id) ended and was saved first")
            reply["saved"] = .string(s.id)
        }
        let startMs = min(ctx.now, max(request.startMs, earliestMs))
        if startMs != request.startMs {
            ctx.log(.warning, "startWorkout from the phone: start \(ctx.calendar.dateTimeText(request.startMs)) clamped to \(ctx.calendar.dateTimeText(startMs))")
        }
        choose(request.activity, &ctx)
        let effects = manager.start(workoutID: id, configuration: picker.configuration, at: startMs)
        if let refusal = apply(effects, &ctx) {
            ctx.log(.warning, "startWorkout from the phone refused: \(refusal.description)")
            noteError(refusal.message(ctx.language, ctx.calendar))
            return ["error": "not started", "workoutID": .string(id)]
        }
        ctx.log(.info, "workout \(id) started from the phone, credited from \(ctx.calendar.dateTimeText(startMs))")
        return .dictionary(reply)
    }

    /// The id of the workout a phone's start request starts: `workout-<startMs>` of the
    /// request as sent (every copy of one request has it), whatever start it is credited from.
    static func phoneWorkoutID(for request: StartWorkoutRequest) -> String {
        "workout-\(request.startMs)"
    }

    // MARK: - Application context

    /// The context's key for the phone's settings snapshot.
    public static let settingsContextKey = PeerPayloadKeys.settings

    /// `context`, `context received`, `context settings [FIELD]`, `context language`: the
    /// phone's latest application context (`receivedApplicationContext`, which the session
    /// keeps across restarts). FIELD is a settings key (`stepGoal`) or its kebab-case name
    /// (`step-goal`, `energy-goal`, `weekly-summary`, `run-detection`). No value before the
    /// first context.
    func contextQuery(_ rest: ArraySlice<String>, _ ctx: NodeContext) -> PlistValue? {
        let context = ctx.receivedApplicationContext
        switch rest.first {
        case nil: return .dictionary(context)
        case "received": return .int(Int64(link.contextsReceived))
        case "settings":
            guard let settings = context[Self.settingsContextKey] else { return nil }
            guard rest.count > 1 else { return settings }
            let field = rest[rest.startIndex + 1]
            return settings[WatchCommandWords.camel(field)] ?? settings[field]
        default:
            return context[rest.first!]
        }
    }
}
