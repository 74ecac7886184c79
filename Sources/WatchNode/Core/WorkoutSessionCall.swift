import PeerLinkCore
import FitnessDomain

/// One call on a workout session, with the time it happens (prepare takes none).
public enum WorkoutSessionCall: Sendable, Hashable {
    /// `prepare()`.
    case prepare
    /// `startActivity(with:)`.
    case startActivity(atMs: EpochMs)
    /// `pause()`.
    case pause(atMs: EpochMs)
    /// `resume()`.
    case resume(atMs: EpochMs)
    /// `stopActivity(with:)`.
    case stopActivity(atMs: EpochMs)
    /// `end()`.
    case end(atMs: EpochMs)

    /// A call without its time, as error messages and tables name it.
    public enum Name: String, Sendable, Hashable, CaseIterable {
        case prepare, start, pause, resume, stop, end
    }

    /// The call's name.
    public var name: Name {
        switch self {
        case .prepare: .prepare
        case .startActivity: .start
        case .pause: .pause
        case .resume: .resume
        case .stopActivity: .stop
        case .end: .end
        }
    }

    /// The call's time, nil for `prepare`.
    public var atMs: EpochMs? {
        switch self {
        case .prepare: nil
        case .startActivity(let t), .pause(let t), .resume(let t), .stopActivity(let t), .end(let t): t
        }
    }

    /// Builds the call named `name` at `atMs` (ignored for prepare).
    public static func make(_ name: Name, atMs: EpochMs) -> WorkoutSessionCall {
        switch name {
        case .prepare: .prepare
        case .start: .startActivity(atMs: atMs)
        case .pause: .pause(atMs: atMs)
        case .resume: .resume(atMs: atMs)
        case .stop: .stopActivity(atMs: atMs)
        case .end: .end(atMs: atMs)
        }
    }
}

/// A state change a call made (HKWorkoutSessionDelegate's `didChangeTo:from:date:`).
public struct WorkoutSessionTransition: Sendable, Hashable {
    public var workoutID: String
    public var from: WorkoutSessionState
    public var to: WorkoutSessionState
    /// Nil for `prepare`, which takes no time.
    public var atMs: EpochMs?

    /// A transition of `workoutID` from one state to another.
    public init(workoutID: String, from: WorkoutSessionState, to: WorkoutSessionState, atMs: EpochMs?) {
        self.workoutID = workoutID
        self.from = from
        self.to = to
        self.atMs = atMs
    }
}

/// Why a session call was refused; the session is unchanged.
public enum WorkoutSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call is not legal in the current state, e.g. pause while paused.
    case illegalTransition(call: WorkoutSessionCall.Name, state: WorkoutSessionState)
    /// The call's time is earlier than the last time the session recorded.
    case timeWentBackwards(call: WorkoutSessionCall.Name, atMs: EpochMs, lastMs: EpochMs)

    /// For people: `cannot pause: session is paused`.
    public var description: String {
        switch self {
        case .illegalTransition(let call, let state):
            state == .ended
                ? "cannot \(call.rawValue): session is ended (an ended session cannot be restarted)"
                : "cannot \(call.rawValue): session is \(state.rawValue)"
        case .timeWentBackwards(let call, let at, let last):
            "cannot \(call.rawValue) at \(at): before the session's last event at \(last)"
        }
    }
}

/// How HealthKit failed a session that was running (HKError codes).
public enum WorkoutSessionFailure: String, Sendable, Hashable {
    /// `HKErrorAnotherWorkoutSession`: a second session started and ended this one.
    case anotherWorkoutSession

    /// The HealthKit error code name.
    public var errorCodeName: String {
        switch self {
        case .anotherWorkoutSession: "HKErrorAnotherWorkoutSession"
        }
    }

    /// For people and logs.
    public var description: String {
        switch self {
        case .anotherWorkoutSession: "another workout session started (HKErrorAnotherWorkoutSession)"
        }
    }
}
