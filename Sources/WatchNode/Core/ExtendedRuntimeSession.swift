import PeerLinkCore

/// The kinds of WKExtendedRuntimeSession, with their time limits.
public enum ExtendedRuntimeKind: String, Sendable, Hashable, CaseIterable {
    case selfCare, mindfulness, physicalTherapy, smartAlarm

    /// How long a session of this kind may run before it expires, ms
    /// (self care 10 min, mindfulness 1 h, physical therapy 1 h, smart alarm 30 min).
    public var limitMs: Int64 {
        switch self {
        case .selfCare: 10 * 60_000
        case .mindfulness: 60 * 60_000
        case .physicalTherapy: 60 * 60_000
        case .smartAlarm: 30 * 60_000
        }
    }

    /// Foreground kinds run only while the app stays frontmost: self care and mindfulness.
    /// They survive the wrist going down (the screen dims, the app stays frontmost) but end
    /// when the user leaves the app. Physical therapy and smart alarm run in the background.
    public var isForeground: Bool {
        switch self {
        case .selfCare, .mindfulness: true
        case .physicalTherapy, .smartAlarm: false
        }
    }
}

/// Why an extended runtime session stopped (WKExtendedRuntimeSessionInvalidationReason).
public enum ExtendedRuntimeEndReason: String, Sendable, Hashable {
    /// It reached its kind's limit.
    case expired
    /// The user left the app during a foreground kind (`resignedFrontmost`).
    case userLeftApp
    /// The app invalidated it.
    case stoppedByApp
}

/// One extended runtime session: started at `startMs`, running until it expires at its
/// kind's limit, is stopped, or (foreground kinds) the user leaves the app.
public struct ExtendedRuntimeSession: Sendable, Hashable {
    public let kind: ExtendedRuntimeKind
    public let startMs: EpochMs
    /// Nil while running.
    public private(set) var endReason: ExtendedRuntimeEndReason?
    public private(set) var endMs: EpochMs?

    /// A session of `kind` started at `startMs`.
    public init(kind: ExtendedRuntimeKind, startMs: EpochMs) {
        self.kind = kind
        self.startMs = startMs
    }

    /// When the session expires if nothing ends it first.
    public var expiresAtMs: EpochMs { startMs + kind.limitMs }

    /// True until it has ended.
    public var isRunning: Bool { endReason == nil }

    // MARK: - Inputs

    /// Time passes: the session expires once `nowMs` reaches `expiresAtMs`. Returns the end
    /// reason when this call ended it.
    public mutating func onTick(at nowMs: EpochMs) -> ExtendedRuntimeEndReason? {
        guard isRunning, nowMs >= expiresAtMs else { return nil }
        return finish(.expired, at: expiresAtMs)
    }

    /// The user left the app: a foreground kind ends; a background kind keeps running.
    public mutating func onAppLeftForeground(at nowMs: EpochMs) -> ExtendedRuntimeEndReason? {
        // An expiry that fell due first wins: it happened earlier.
        if let expired = onTick(at: nowMs) { return expired }
        guard isRunning, kind.isForeground else { return nil }
        return finish(.userLeftApp, at: nowMs)
    }

    /// The app stops the session (`invalidate()`).
    public mutating func stop(at nowMs: EpochMs) -> ExtendedRuntimeEndReason? {
        if let expired = onTick(at: nowMs) { return expired }
        guard isRunning else { return nil }
        return finish(.stoppedByApp, at: nowMs)
    }

    mutating func finish(_ reason: ExtendedRuntimeEndReason, at ms: EpochMs) -> ExtendedRuntimeEndReason {
        endReason = reason
        endMs = ms
        return reason
    }
}
