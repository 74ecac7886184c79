import PeerLinkCore
import FitnessDomain

/// Where the watch app is, as the user sees it.
public enum WatchAppPresence: String, Sendable, Hashable, CaseIterable {
    /// Frontmost with the screen on.
    case foreground
    /// The user left the app (another app or the watch face is frontmost).
    case background
    /// Still frontmost, but the wrist is down and the screen dimmed (inactive).
    case wristDown
}

/// What the app-state machine tells its shell.
public enum WatchAppEvent: Sendable, Hashable {
    /// The "app can take live messages" input to WCSession reachability changed.
    case reachabilityInputChanged(Bool)
    /// An extended runtime session started; it expires at `expiresAtMs`.
    case extendedRuntimeStarted(kind: ExtendedRuntimeKind, expiresAtMs: EpochMs)
    /// An extended runtime session ended.
    case extendedRuntimeEnded(kind: ExtendedRuntimeKind, reason: ExtendedRuntimeEndReason, atMs: EpochMs)
    /// Call `onTick(at:)` at this time (the running extended session's expiry).
    case scheduleTick(atMs: EpochMs)
    /// A request was refused; nothing changed.
    case refused(WatchAppRefusal)
}

/// Why the lifecycle refused a request.
public enum WatchAppRefusal: Sendable, Hashable, CustomStringConvertible {
    /// An extended runtime session of `running` is already running.
    case runtimeAlreadyRunning(kind: ExtendedRuntimeKind, running: ExtendedRuntimeKind)
    /// watchOS starts extended runtime sessions only from an app in the foreground.
    case notInForeground(kind: ExtendedRuntimeKind)
    /// `runtime stop` with no session.
    case noRuntimeSession

    /// For the log: `cannot start selfCare: the app is not in the foreground`.
    public var description: String {
        switch self {
        case .runtimeAlreadyRunning(let kind, let running): "cannot start \(kind.rawValue): a \(running.rawValue) session is running"
        case .notInForeground(let kind): "cannot start \(kind.rawValue): the app is not in the foreground"
        case .noRuntimeSession: "no extended runtime session is running"
        }
    }

    /// For people, in `language`.
    public func message(_ language: AppLanguage) -> String {
        switch self {
        case .runtimeAlreadyRunning(let kind, let running):
            LocalizedText(ja: "\(L10n.watchRuntimeKind(kind).ja)を開始できません: \(L10n.watchRuntimeKind(running).ja)のセッションが実行中です",
                          en: "cannot start \(L10n.watchRuntimeKind(kind).en): a \(L10n.watchRuntimeKind(running).en) session is running")(language)
        case .notInForeground(let kind):
            LocalizedText(ja: "\(L10n.watchRuntimeKind(kind).ja)を開始できません: アプリがフォアグラウンドにありません",
                          en: "cannot start \(L10n.watchRuntimeKind(kind).en): the app is not in the foreground")(language)
        case .noRuntimeSession:
            LocalizedText(ja: "実行中の延長ランタイムセッションはありません", en: "no extended runtime session is running")(language)
        }
    }
}

/// The watch app's lifecycle: presence, the workout session's state and any extended
/// runtime session, giving whether the app keeps running and the reachability input.
///
/// Keeping the app running (so the phone can reach it):
/// - foreground: always;
/// - a workout session that is prepared, running or **paused** (choice: a paused workout is
///   still an active session to watchOS, which keeps the app alive so the user can resume;
///   a stopped one has its sensors off and is about to end, so it does not count);
/// - a running extended runtime session (choice: it exists to keep the app alive in the
///   background, as the seed's "Extended Runtime Session でバックグラウンドワークアウトを維持");
/// - otherwise background or wrist-down leaves the app suspended: not reachable.
///
/// The shell ANDs `isReachableInput` with "phone in range" to get WCSession's `isReachable`.
public struct WatchAppState: Sendable, Hashable {
    public private(set) var presence: WatchAppPresence
    /// The active workout session's state, nil when there is none.
    public private(set) var workoutState: WorkoutSessionState?
    /// The running extended runtime session, if any (at most one).
    public private(set) var extendedRuntime: ExtendedRuntimeSession?

    /// An app in `presence` with no sessions.
    public init(presence: WatchAppPresence = .foreground) {
        self.presence = presence
    }

    // MARK: - Derived

    /// True when the workout state keeps the app running in the background.
    public var workoutKeepsAppRunning: Bool {
        switch workoutState {
        case .prepared, .running, .paused: true
        case .notStarted, .stopped, .ended, nil: false
        }
    }

    /// True when the app is running (not suspended), so it can take live messages.
    public var isReachableInput: Bool {
        presence == .foreground || workoutKeepsAppRunning || extendedRuntime?.isRunning == true
    }

    /// The next time `onTick(at:)` must be called, nil when nothing is pending.
    public var nextDeadlineMs: EpochMs? { extendedRuntime.map(\.expiresAtMs) }

    // MARK: - Inputs

    /// The app moved to `newPresence`. Leaving the app (background) ends a foreground-kind
    /// extended runtime session; the wrist going down does not.
    public mutating func onPresenceChanged(_ newPresence: WatchAppPresence, at nowMs: EpochMs) -> [WatchAppEvent] {
        track { me in
            var events = me.expireIfDue(at: nowMs)
            me.presence = newPresence
            if newPresence == .background, var ext = me.extendedRuntime,
               let reason = ext.onAppLeftForeground(at: nowMs)
            {
                me.extendedRuntime = nil
                events.append(.extendedRuntimeEnded(kind: ext.kind, reason: reason, atMs: ext.endMs ?? nowMs))
            }
            return events
        }
    }

    /// The workout session changed state (nil: no session any more).
    public mutating func onWorkoutStateChanged(_ state: WorkoutSessionState?) -> [WatchAppEvent] {
        track { me in
            me.workoutState = state == .ended ? nil : state
            return []
        }
    }

    /// Starts an extended runtime session of `kind`. Refused unless the app is in the
    /// foreground (watchOS starts them only from an active app) and none is running.
    public mutating func startExtendedRuntime(_ kind: ExtendedRuntimeKind, at nowMs: EpochMs) -> [WatchAppEvent] {
        track { me in
            var events = me.expireIfDue(at: nowMs)
            if let running = me.extendedRuntime {
                events.append(.refused(.runtimeAlreadyRunning(kind: kind, running: running.kind)))
                return events
            }
            guard me.presence == .foreground else {
                events.append(.refused(.notInForeground(kind: kind)))
                return events
            }
            let session = ExtendedRuntimeSession(kind: kind, startMs: nowMs)
            me.extendedRuntime = session
            events.append(.extendedRuntimeStarted(kind: kind, expiresAtMs: session.expiresAtMs))
            events.append(.scheduleTick(atMs: session.expiresAtMs))
            return events
        }
    }

    /// The app stops its extended runtime session.
    public mutating func stopExtendedRuntime(at nowMs: EpochMs) -> [WatchAppEvent] {
        track { me in
            guard var ext = me.extendedRuntime else { return [.refused(.noRuntimeSession)] }
            let reason = ext.stop(at: nowMs) ?? .stoppedByApp
            me.extendedRuntime = nil
            return [.extendedRuntimeEnded(kind: ext.kind, reason: reason, atMs: ext.endMs ?? nowMs)]
        }
    }

    /// Time passes: an extended runtime session at its limit expires.
    public mutating func onTick(at nowMs: EpochMs) -> [WatchAppEvent] {
        track { me in me.expireIfDue(at: nowMs) }
    }

    // MARK: - Internals

    mutating func expireIfDue(at nowMs: EpochMs) -> [WatchAppEvent] {
        guard var ext = extendedRuntime, let reason = ext.onTick(at: nowMs) else { return [] }
        extendedRuntime = nil
        return [.extendedRuntimeEnded(kind: ext.kind, reason: reason, atMs: ext.expiresAtMs)]
    }

    /// Runs `change` and appends a reachability event when the input flipped.
    mutating func track(_ change: (inout WatchAppState) -> [WatchAppEvent]) -> [WatchAppEvent] {
        let before = isReachableInput
        var events = change(&self)
        if isReachableInput != before { events.append(.reachabilityInputChanged(isReachableInput)) }
        return events
    }
}
