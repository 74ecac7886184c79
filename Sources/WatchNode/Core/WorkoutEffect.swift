import PeerLinkCore
import FitnessDomain

/// What the workout manager asks its shell to do or tell, in order.
///
/// The shell persists `WorkoutManager.snapshot(at:)` after any call that returned a
/// `stateChanged`, `sampleAccepted`, `recovered` or `dropped` effect, so a crash loses at most
/// the call in flight.
public enum WorkoutEffect: Sendable, Hashable {
    /// The session changed state (delegate `didChangeTo:from:date:`).
    case stateChanged(WorkoutSessionTransition)
    /// HealthKit failed a session (delegate `didFailWithError:`), e.g. another session started.
    case sessionFailed(workoutID: String, failure: WorkoutSessionFailure)
    /// The call was refused and changed nothing.
    case refused(WorkoutRefusal)
    /// A sample was collected; replicate it.
    case sampleAccepted(HealthSample)
    /// A sample was refused (paired with a `.log` line).
    case sampleRejected(SampleRejection)
    /// Send these live metrics to the phone's mirrored session.
    case mirror(payload: PlistValue, bytes: Int)
    /// The mirroring budget skipped this tick's payload.
    case mirrorSkipped(MirrorBudget.SkipReason)
    /// The workout ended: mirroring to the phone stops.
    case mirroringStopped(workoutID: String)
    /// `finishWorkout()` saved the workout: replicate the record and its samples.
    case workoutSaved(FinishedWorkout)
    /// A session was restored from a snapshot after a crash.
    case recovered(workoutID: String, state: WorkoutSessionState)
    /// The active session was dropped without saving: its workout is already saved.
    case dropped(workoutID: String)
    /// A line for the node's log.
    case log(String)
}

/// Why a workout-manager call was refused.
public enum WorkoutRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The session refused the call (illegal transition, time going backwards).
    case session(WorkoutSessionError)
    /// The builder refused the call.
    case builder(WorkoutBuilderError)
    /// The call needs an active session and there is none.
    case noActiveSession(call: String)
    /// Workout ids are 1…`WorkoutManager.maxWorkoutIDLength` bytes of UTF-8.
    case invalidWorkoutID(String)
    /// Recovery needs a manager with no active session.
    case sessionAlreadyActive(workoutID: String)
    /// The snapshot is inconsistent; the shell should quarantine it, not overwrite it.
    case snapshotUnusable(WorkoutSnapshotError)

    /// For people.
    public var description: String {
        switch self {
        case .session(let e): e.description
        case .builder(let e): e.description
        case .noActiveSession(let call): "cannot \(call): no active workout session"
        case .invalidWorkoutID(let id): "invalid workout id \"\(id)\" (1…\(WorkoutManager.maxWorkoutIDLength) bytes)"
        case .sessionAlreadyActive(let id): "cannot recover: workout \(id) is already active"
        case .snapshotUnusable(let e): "cannot recover: \(e.description)"
        }
    }
}

extension [WorkoutEffect] {
    /// The first refusal among the effects, if any.
    public var refusal: WorkoutRefusal? {
        for e in self { if case .refused(let r) = e { return r } }
        return nil
    }

    /// The transitions among the effects, in order.
    public var transitions: [WorkoutSessionTransition] {
        compactMap { if case .stateChanged(let t) = $0 { t } else { nil } }
    }

    /// The saved workout among the effects, if any.
    public var savedWorkout: FinishedWorkout? {
        for e in self { if case .workoutSaved(let w) = e { return w } }
        return nil
    }

    /// The log lines among the effects, in order.
    public var logLines: [String] {
        compactMap { if case .log(let l) = $0 { l } else { nil } }
    }
}
