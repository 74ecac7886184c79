import PeerLink
import Shared

/// What the phone sends the watch app: start requests and complication data (user info or
/// messages, one shape each), and the settings snapshot (application context).
extension WatchApp {
    // MARK: - Payloads

    /// Applies a payload from the phone (user info or message): nil when it is not one of the
    /// watch's, a failure (logged, nothing changed) when malformed. `isComplication`: it came
    /// as complication user info.
    @discardableResult
    mutating func handlePhonePayload(_ payload: PlistValue, isComplication: Bool, _ ctx: inout NodeContext)
        -> Result<Void, PhonePayloadError>?
    {
        switch PhonePayload.parse(payload, isComplication: isComplication) {
        case nil:
            ctx.log(.debug, "ignored a payload from the phone: \(payload.jsonString())")
            return nil
        case .failure(let e)?:
            ctx.log(.warning, e.description)
            noteError(e.description)
            return .failure(e)
        case .success(.complication(let info))?:
            link.recordComplicationPush(isComplicationChannel: isComplication)
            receiveComplicationInfo(info, &ctx)
            return .success(())
        case .success(.startWorkout(let request))?:
            startFromPhone(request, &ctx)
            return .success(())
        }
    }

    /// Run detection accepted on the phone: start a running workout credited from the
    /// request's start (clamped to the last `maxStartCreditMs`, never in the future). Ignored
    /// when a workout is already running, paused or stopped (the user is recording), and when
    /// the same request was already applied — so a message and its user-info fallback start
    /// one workout, however late the second copy comes.
    ///
    /// The workout is named after the request (`phoneWorkoutID(for:)`), not after the clamped
    /// credit: a copy arriving more than an hour after the run began is clamped to a
    /// different start, but MUST find the workout the first copy started, running or saved.
    mutating func startFromPhone(_ request: StartWorkoutRequest, _ ctx: inout NodeContext) {
        if let s = manager.session, s.state != .prepared, s.state != .notStarted {
            ctx.log(.info, "startWorkout from the phone ignored: workout \(s.id) is \(s.state.rawValue)")
            return
        }
        let id = Self.phoneWorkoutID(for: request)
        if isWorkoutIDTaken(id, ctx) {
            ctx.log(.info, "startWorkout from the phone ignored: workout \(id) already exists")
            return
        }
        let startMs = min(ctx.now, max(request.startMs, ctx.now - Self.maxStartCreditMs))
        if startMs != request.startMs {
            ctx.log(.warning, "startWorkout from the phone: start \(ctx.calendar.dateTimeText(request.startMs)) clamped to \(ctx.calendar.dateTimeText(startMs))")
        }
        choose(request.activity, &ctx)
        let effects = manager.start(workoutID: id, configuration: picker.configuration, at: startMs)
        if let refusal = apply(effects, &ctx) {
            ctx.log(.warning, "startWorkout from the phone refused: \(refusal.description)")
            noteError(refusal.description)
            return
        }
        ctx.log(.info, "workout \(id) started from the phone, credited from \(ctx.calendar.dateTimeText(startMs))")
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
