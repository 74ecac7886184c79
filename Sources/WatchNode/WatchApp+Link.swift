import PeerLink
import Shared

/// The watch app and WatchConnectivity: live mirroring, the finished workout's file, and the
/// phone's payloads (complication data, start requests).
///
/// Everything the app asks of the link beyond the replicated state goes through ONE function,
/// `performLinkEffects`; everything the phone sends goes through `handlePhonePayload`.
extension WatchApp {
    // MARK: - LINK ADAPTER (the one place to wire to the new NodeContext API)

    /// Hands the app's link effects to the link. THE ADAPTER: today `NodeContext` has no
    /// `sendMessage` or `transferFile`, so the effects are only recorded (`link`) and
    /// nothing is lost: the workout and its samples also travel in the replicated state.
    ///
    /// LEAD — wire here, in this order, inside the current event (so the batch that made them
    /// commits with them):
    /// - `.sendMessage(m)` → `ctx.sendMessage(m)` with no reply handler; on `notReachable`
    ///   (or any error) drop it: live metrics are not queued, the next tick carries newer ones.
    /// - `.transferFile(name, bytes, metadata)` → `ctx.transferFile(bytes, name:, metadata:)`;
    ///   log a failure to queue it (the replicated records still carry the samples).
    mutating func performLinkEffects(_ effects: [WatchLinkEffect], _ ctx: inout NodeContext) {
        for effect in effects {
            link.record(effect)
            switch effect {
            case .sendMessage:
                break  // LEAD: ctx.sendMessage(message) — not available yet.
            case .transferFile:
                ctx.log(.info, "link: \(effect.summary)")  // LEAD: ctx.transferFile(bytes, name:, metadata:) — not available yet.
            }
        }
    }

    /// A message from the phone (`didReceiveMessage`), answered with a reply. LEAD: call this
    /// from the future message event; the reply is `["ok": true]` or `["error": text]`.
    public mutating func onMessage(_ message: PlistValue, _ ctx: inout NodeContext) -> PlistValue {
        switch handlePhonePayload(message, isComplication: false, &ctx) {
        case nil: ["error": "unknown message"]
        case .failure(let e)?: ["error": .string(e.description)]
        case .success?: ["ok": true]
        }
    }

    // MARK: - Mirroring

    /// The live-metrics message for the active, started workout, if reachability and the
    /// mirroring budget allow one now; otherwise the skip is counted.
    mutating func mirrorLiveMetrics(_ ctx: inout NodeContext) -> [WatchLinkEffect] {
        guard let s = manager.session, s.startMs != nil else { return [] }
        guard ctx.session.isReachable else {
            link.recordSkip("phone not reachable")
            return []
        }
        var out: [WatchLinkEffect] = []
        for e in manager.onMirrorTick(at: ctx.now) {
            switch e {
            case .mirror(let payload, _): out.append(.sendMessage(payload))
            case .mirrorSkipped(let reason): link.recordSkip(reason.description)
            default: break
            }
        }
        return out
    }

    // MARK: - From the phone

    /// Applies a payload from the phone (user info or message): nil when it is not one of the
    /// watch's, a failure (logged, nothing changed) when malformed.
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
    /// the same request was already applied (the id `workout-<startMs>` exists).
    mutating func startFromPhone(_ request: StartWorkoutRequest, _ ctx: inout NodeContext) {
        let startMs = min(ctx.now, max(request.startMs, ctx.now - Self.maxStartCreditMs))
        if startMs != request.startMs {
            ctx.log(.warning, "startWorkout from the phone: start \(request.startMs) clamped to \(startMs)")
        }
        if let s = manager.session, s.state != .prepared, s.state != .notStarted {
            ctx.log(.info, "startWorkout from the phone ignored: workout \(s.id) is \(s.state.rawValue)")
            return
        }
        let id = "workout-\(startMs)"
        if isWorkoutIDTaken(id, ctx) {
            ctx.log(.info, "startWorkout from the phone ignored: workout \(id) already exists")
            return
        }
        choose(request.activity, &ctx)
        let effects = manager.start(workoutID: id, configuration: picker.configuration, at: startMs)
        if let refusal = apply(effects, &ctx) {
            ctx.log(.warning, "startWorkout from the phone refused: \(refusal.description)")
            noteError(refusal.description)
            return
        }
        ctx.log(.info, "workout \(id) started from the phone, credited from \(startMs)")
    }
}
