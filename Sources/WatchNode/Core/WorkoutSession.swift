import PeerLinkCore
import FitnessDomain

/// What a workout is: its activity type and location (HKWorkoutConfiguration).
public struct WorkoutConfiguration: Sendable, Hashable {
    public var activity: WorkoutActivityType
    public var location: WorkoutLocation

    /// A configuration of `activity` at `location`.
    public init(activity: WorkoutActivityType, location: WorkoutLocation) {
        self.activity = activity
        self.location = location
    }
}

/// The HKWorkoutSession state machine: six states and exactly the legal transitions.
///
/// | call                | legal from             | to       |
/// |---------------------|------------------------|----------|
/// | `prepare()`         | notStarted             | prepared |
/// | `startActivity(at:)`| notStarted, prepared   | running  |
/// | `pause(at:)`        | running                | paused   |
/// | `resume(at:)`       | paused                 | running  |
/// | `stopActivity(at:)` | running                | stopped  |
/// | `end(at:)`          | running, stopped       | ended    |
///
/// Every other call returns a `WorkoutSessionError` naming the state and changes nothing.
/// `ended` is final: an ended session cannot be restarted.
///
/// These are APPLE-SEMANTICS' transitions exactly: a paused session must be resumed (or the
/// user ends it from running) before it can stop or end. `end` from notStarted or prepared is
/// refused too: nothing ran, and the manager discards such a session instead.
///
/// Times MUST NOT go backwards: a call earlier than the session's last recorded time is
/// refused with `.timeWentBackwards` and changes nothing. The app dates its calls with
/// `WorkoutManager.clockMs(at:)`, which never goes back, so a wall clock that stepped back
/// does not make them fail.
public struct WorkoutSession: Sendable, Hashable {
    /// The workout id; the builder's samples and the saved record carry it.
    public let id: String
    public let configuration: WorkoutConfiguration
    public private(set) var state: WorkoutSessionState
    /// When `startActivity(at:)` succeeded.
    public private(set) var startMs: EpochMs?
    /// When `stopActivity(at:)` succeeded (sensors off from then on).
    public private(set) var stopMs: EpochMs?
    /// When `end(at:)` succeeded.
    public private(set) var endMs: EpochMs?
    /// Pause and resume events, in order.
    public private(set) var events: [WorkoutEvent]

    /// A new session in `notStarted`.
    public init(id: String, configuration: WorkoutConfiguration) {
        self.init(id: id, configuration: configuration, state: .notStarted, startMs: nil, stopMs: nil, endMs: nil, events: [])
    }

    /// Restores a session exactly as it was (crash recovery); no validation beyond the types.
    init(
        id: String, configuration: WorkoutConfiguration, state: WorkoutSessionState, startMs: EpochMs?,
        stopMs: EpochMs?, endMs: EpochMs?, events: [WorkoutEvent]
    ) {
        self.id = id
        self.configuration = configuration
        self.state = state
        self.startMs = startMs
        self.stopMs = stopMs
        self.endMs = endMs
        self.events = events
    }

    // MARK: - Queries

    /// True until the session has ended.
    public var isActive: Bool { state != .ended }

    /// True while sensors collect data: running or paused (a prepared session warms sensors
    /// up but records nothing; a stopped one has them off).
    public var areSensorsOn: Bool { state == .running || state == .paused }

    /// The latest time any call recorded, the floor for the next call's time.
    /// (Without building an array: the workout clock asks for it on every sample.)
    public var lastEventMs: EpochMs? { later(later(startMs, events.last?.atMs), later(stopMs, endMs)) }

    /// The states from which `call` is legal.
    public static func legalStates(for call: WorkoutSessionCall.Name) -> Set<WorkoutSessionState> {
        switch call {
        case .prepare: [.notStarted]
        case .start: [.notStarted, .prepared]
        case .pause: [.running]
        case .resume: [.paused]
        case .stop: [.running]
        case .end: [.running, .stopped]
        }
    }

    /// The state a legal `call` leads to.
    public static func target(of call: WorkoutSessionCall.Name) -> WorkoutSessionState {
        switch call {
        case .prepare: .prepared
        case .start, .resume: .running
        case .pause: .paused
        case .stop: .stopped
        case .end: .ended
        }
    }

    // MARK: - Calls

    /// Applies one call: the transition it made, or why it was refused (nothing changed).
    public mutating func apply(_ call: WorkoutSessionCall) -> Result<WorkoutSessionTransition, WorkoutSessionError> {
        guard Self.legalStates(for: call.name).contains(state) else {
            return .failure(.illegalTransition(call: call.name, state: state))
        }
        if let at = call.atMs, let last = lastEventMs, at < last {
            return .failure(.timeWentBackwards(call: call.name, atMs: at, lastMs: last))
        }
        let from = state
        state = Self.target(of: call.name)
        switch call {
        case .prepare: break
        case .startActivity(let at): startMs = at
        case .pause(let at): events.append(WorkoutEvent(kind: .pause, atMs: at))
        case .resume(let at): events.append(WorkoutEvent(kind: .resume, atMs: at))
        case .stopActivity(let at): stopMs = at
        case .end(let at):
            if stopMs == nil { stopMs = at }
            endMs = at
        }
        return .success(WorkoutSessionTransition(workoutID: id, from: from, to: state, atMs: call.atMs))
    }

    /// `prepare()`: notStarted → prepared (the app is kept running; no data yet).
    public mutating func prepare() -> Result<WorkoutSessionTransition, WorkoutSessionError> { apply(.prepare) }

    /// `startActivity(with:)`: notStarted or prepared → running.
    public mutating func startActivity(at ms: EpochMs) -> Result<WorkoutSessionTransition, WorkoutSessionError> {
        apply(.startActivity(atMs: ms))
    }

    /// `pause()`: running → paused, recording a pause event.
    public mutating func pause(at ms: EpochMs) -> Result<WorkoutSessionTransition, WorkoutSessionError> { apply(.pause(atMs: ms)) }

    /// `resume()`: paused → running, recording a resume event.
    public mutating func resume(at ms: EpochMs) -> Result<WorkoutSessionTransition, WorkoutSessionError> { apply(.resume(atMs: ms)) }

    /// `stopActivity(with:)`: running or paused → stopped; sensors turn off.
    public mutating func stopActivity(at ms: EpochMs) -> Result<WorkoutSessionTransition, WorkoutSessionError> {
        apply(.stopActivity(atMs: ms))
    }

    /// `end()`: running, paused or stopped → ended, for good.
    public mutating func end(at ms: EpochMs) -> Result<WorkoutSessionTransition, WorkoutSessionError> { apply(.end(atMs: ms)) }

    /// Ends the session whatever its state, as HealthKit does when it fails it (another
    /// session started). Nil when it had already ended.
    mutating func forceEnd(at ms: EpochMs) -> WorkoutSessionTransition? {
        guard isActive else { return nil }
        let from = state
        let at = max(ms, lastEventMs ?? ms)
        if startMs != nil, stopMs == nil { stopMs = at }
        endMs = at
        state = .ended
        return WorkoutSessionTransition(workoutID: id, from: from, to: .ended, atMs: at)
    }
}
