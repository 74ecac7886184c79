import PeerLinkCore

/// Keeping the app alive: presence (foreground, background, wrist down), the workout's
/// keep-alive and extended runtime sessions, reported to the link as the `AppState` that
/// decides reachability.
///
/// Rules (from `WatchAppState`): the app runs — and the phone can reach it — while it is in
/// the foreground, while a workout is prepared, running or paused, or while an extended
/// runtime session runs; otherwise background or wrist-down suspends it. Raising the wrist
/// brings back a dimmed (wrist-down) app; it does not bring back an app the user left.
/// The presence is stored (local key `presence`) so a restarted app comes back where it was
/// (a first launch is in the foreground); an extended runtime session does not survive a
/// restart (watchOS invalidates it when the app is terminated).
extension WatchApp {
    // MARK: - Commands

    /// `app foreground|background|wrist-down|wrist-up`.
    mutating func appCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        let usage = L10n.usage("app foreground|background|wrist-down|wrist-up")(ctx.language)
        guard w.count == 2 else { return .error(usage) }
        let target: WatchAppPresence
        switch w[1] {
        case "foreground": target = .foreground
        case "background": target = .background
        case "wrist-down": target = lifecycle.presence == .background ? .background : .wristDown
        case "wrist-up": target = lifecycle.presence == .wristDown ? .foreground : lifecycle.presence
        default: return .error(usage)
        }
        let wasForeground = lifecycle.presence == .foreground
        applyLifecycle(lifecycle.onPresenceChanged(target, at: ctx.now), &ctx)
        if ctx.local[Self.presenceKey]?.stringValue != target.rawValue { ctx.setLocal(Self.presenceKey, .string(target.rawValue)) }
        // Back in the foreground: reloads are free again, so a deferred value shows at once.
        if !wasForeground, target == .foreground { refreshComplication(&ctx) }
        return .ok(appValue(ctx), text: appText(ctx))
    }

    /// `runtime start KIND|stop` (KIND: self-care, mindfulness, physical-therapy, smart-alarm).
    mutating func runtimeCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        let usage = L10n.usage("runtime start self-care|mindfulness|physical-therapy|smart-alarm | runtime stop")(ctx.language)
        let events: [WatchAppEvent]
        switch (w.count, w.dropFirst().first) {
        case (3, "start"):
            guard let kind = WatchCommandWords.runtimeKind(w[2]) else { return .error(usage) }
            events = lifecycle.startExtendedRuntime(kind, at: ctx.now)
        case (2, "stop"):
            events = lifecycle.stopExtendedRuntime(at: ctx.now)
        default:
            return .error(usage)
        }
        if let refusal = applyLifecycle(events, &ctx) { return .error(refusal.message(ctx.language)) }
        return .ok(appValue(ctx), text: appText(ctx))
    }

    // MARK: - Events

    /// Carries out the lifecycle's events and reports the app state to the link. Returns the
    /// refusal, if the request was refused.
    @discardableResult
    mutating func applyLifecycle(_ events: [WatchAppEvent], _ ctx: inout NodeContext) -> WatchAppRefusal? {
        var refusal: WatchAppRefusal?
        for e in events {
            switch e {
            case .reachabilityInputChanged(let up):
                ctx.log(.info, "app \(up ? "running" : "suspended") (\(lifecycle.presence.rawValue))")
            case .extendedRuntimeStarted(let kind, let expires):
                ctx.log(.info, "extended runtime \(kind.rawValue) started; expires at \(expires)")
            case .extendedRuntimeEnded(let kind, let reason, let at):
                ctx.log(.info, "extended runtime \(kind.rawValue) ended at \(at): \(reason.rawValue)")
                lastRuntimeEnd = e
            case .scheduleTick:
                break  // `nextDeadline` reports the lifecycle's deadline.
            case .refused(let why):
                refusal = why
            }
        }
        syncAppState(&ctx)
        return refusal
    }

    /// Tells the link what keeps the app running. An extended runtime session is reported as
    /// `workoutActive` (the one "running at high priority in the background" flag `AppState`
    /// has).
    mutating func syncAppState(_ ctx: inout NodeContext) {
        let runtime = lifecycle.extendedRuntime?.isRunning == true
        ctx.setAppState(AppState(
            isRunning: lifecycle.isReachableInput, isForeground: lifecycle.presence == .foreground,
            workoutActive: lifecycle.workoutKeepsAppRunning || runtime))
    }

    // MARK: - Rendering

    /// `show app`: presence, whether the app runs, reachability and the runtime session.
    func appValue(_ ctx: NodeContext) -> PlistValue {
        var d: [String: PlistValue] = [
            "state": .string(presenceName), "running": .bool(lifecycle.isReachableInput),
            "workoutKeepsAlive": .bool(lifecycle.workoutKeepsAppRunning), "reachable": .bool(ctx.session.isReachable),
            "runtime": runtimeValue,
        ]
        if case .extendedRuntimeEnded(let kind, let reason, let at)? = lastRuntimeEnd {
            d["lastRuntimeEnd"] = ["kind": .string(WatchCommandWords.kebab(kind.rawValue)), "reason": .string(reason.rawValue), "atMs": .int(at)]
        }
        return .dictionary(d)
    }

    /// One line: `foreground, running, reachable; runtime mindfulness until 2026-06-01 08:00:00`.
    func appText(_ ctx: NodeContext) -> String {
        let runtime = lifecycle.extendedRuntime.map { ($0.kind, ctx.calendar.dateTimeText($0.expiresAtMs)) }
        return L10n.watchAppLine(lifecycle.presence, running: lifecycle.isReachableInput, reachable: ctx.session.isReachable,
                                 runtime: runtime)(ctx.language)
    }

    /// The presence as commands name it: foreground, background, wrist-down.
    var presenceName: String { WatchCommandWords.kebab(lifecycle.presence.rawValue) }

    /// The running extended session: `["state": "running", "kind": …, "expiresAtMs": …]` or
    /// `["state": "none"]`.
    var runtimeValue: PlistValue {
        guard let ext = lifecycle.extendedRuntime, ext.isRunning else { return ["state": "none"] }
        return ["state": "running", "kind": .string(WatchCommandWords.kebab(ext.kind.rawValue)), "expiresAtMs": .int(ext.expiresAtMs),
                "startMs": .int(ext.startMs)]
    }
}
