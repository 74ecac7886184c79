import PeerLinkCore
import FitnessDomain

/// The watch's workout manager (the seed's `WorkoutManager`): owns at most one active
/// session and its live builder, keeps them in step, and says what to do as effects.
///
/// - Starting or preparing a session while another one is active fails the old one with
///   `HKErrorAnotherWorkoutSession` (effect `sessionFailed`), ends it, saves what its builder
///   collected, and stops its mirroring; then the new session proceeds.
/// - `start` begins collection at the start time; `stop` ends collection at the stop time
///   (sensors off); `end` ends collection if needed, finishes the workout (effect
///   `workoutSaved`) and stops mirroring. The ended session leaves the manager; its id is
///   remembered (the last `maxRememberedEndedIDs`) so it cannot be started again.
/// - A refused call returns `[.refused(…)]` and changes nothing.
public struct WorkoutManager: Sendable, Hashable {
    /// The longest workout id accepted, in UTF-8 bytes.
    public static let maxWorkoutIDLength = 128
    /// How many ended workout ids are remembered to refuse restarting them.
    public static let maxRememberedEndedIDs = 16

    /// The active session, nil when there is none.
    public internal(set) var session: WorkoutSession?
    /// The active session's builder.
    public internal(set) var builder: LiveWorkoutBuilder?
    /// The mirroring rate limit (history kept across workouts).
    public internal(set) var mirror = MirrorBudget(isMirroring: false)
    /// Ids of recently ended sessions, oldest first.
    public internal(set) var endedWorkoutIDs: [String] = []

    /// A manager with no session, not mirroring.
    public init() {}

    /// The active session's state, nil when there is none.
    public var activeState: WorkoutSessionState? { session?.state }

    // MARK: - Workout clock

    /// The time at which to date the active workout's next call or sample when the wall
    /// clock says `nowMs`: `nowMs`, held at the latest time the workout recorded
    /// (`latestRecordedMs`) while the wall clock is behind it.
    ///
    /// The session refuses a call dated before its last event (`.timeWentBackwards`) and the
    /// builder a sample before its collection start; a wall clock that steps back (a fault)
    /// MUST NOT make the user's pause, resume or end fail, or lose what was recorded. Dated
    /// with this clock, the workout's inputs stand still until the wall clock catches up, so
    /// the saved elapsed time is never negative and the collection never ends before its
    /// last sample.
    public func clockMs(at nowMs: EpochMs) -> EpochMs {
        max(nowMs, latestRecordedMs ?? nowMs)
    }

    /// The latest time the active workout recorded (its start, last event, stop, latest
    /// sample), nil without an active session.
    public var latestRecordedMs: EpochMs? {
        later(session?.lastEventMs, builder?.latestRecordedMs)
    }

    // MARK: - Session calls

    /// Prepares a new session (notStarted → prepared); `atMs` dates the failure of any
    /// session it replaces.
    public mutating func prepare(workoutID: String, configuration: WorkoutConfiguration, at atMs: EpochMs) -> [WorkoutEffect] {
        if let refusal = checkNew(workoutID: workoutID, call: .prepare) { return [.refused(refusal)] }
        var effects = failActive(at: atMs)
        var s = WorkoutSession(id: workoutID, configuration: configuration)
        guard case .success(let t) = s.prepare() else { preconditionFailure("a new session is notStarted") }
        session = s
        builder = LiveWorkoutBuilder(workoutID: workoutID, configuration: configuration)
        effects.append(.stateChanged(t))
        return effects
    }

    /// Starts the workout at `atMs`: the prepared session with this id (keeping the
    /// configuration it was prepared with), or a new one. Collection begins and mirroring starts at the same instant.
    public mutating func start(workoutID: String, configuration: WorkoutConfiguration, at atMs: EpochMs) -> [WorkoutEffect] {
        var effects: [WorkoutEffect] = []
        if session?.id != workoutID {
            if let refusal = checkNew(workoutID: workoutID, call: .start) { return [.refused(refusal)] }
            effects = failActive(at: atMs)
            session = WorkoutSession(id: workoutID, configuration: configuration)
            builder = LiveWorkoutBuilder(workoutID: workoutID, configuration: configuration)
        }
        guard var s = session, var b = builder else { preconditionFailure("session and builder go together") }
        switch s.startActivity(at: atMs) {
        case .failure(let e): return [.refused(.session(e))]
        case .success(let t):
            _ = b.beginCollection(at: atMs)
            session = s
            builder = b
            mirror.startMirroring()
            effects.append(.stateChanged(t))
            return effects
        }
    }

    /// Pauses the running workout; elapsed time stops counting.
    public mutating func pause(at atMs: EpochMs) -> [WorkoutEffect] { applyActive(.pause(atMs: atMs)) }

    /// Resumes the paused workout.
    public mutating func resume(at atMs: EpochMs) -> [WorkoutEffect] { applyActive(.resume(atMs: atMs)) }

    /// Stops the workout (sensors off); collection ends at `atMs`.
    public mutating func stop(at atMs: EpochMs) -> [WorkoutEffect] { applyActive(.stopActivity(atMs: atMs)) }

    /// Ends the workout: collection ends, the workout is saved, mirroring stops.
    public mutating func end(at atMs: EpochMs) -> [WorkoutEffect] { applyActive(.end(atMs: atMs)) }

    /// Drops a prepared session that never started (the user backed out); nothing is saved.
    public mutating func discardPrepared() -> [WorkoutEffect] {
        guard let s = session else { return [.refused(.noActiveSession(call: "discard"))] }
        guard s.state == .prepared || s.state == .notStarted else {
            return [.refused(.session(.illegalTransition(call: .end, state: s.state)))]
        }
        clearActive(id: s.id)
        return [.stateChanged(WorkoutSessionTransition(workoutID: s.id, from: s.state, to: .ended, atMs: nil))]
    }

    /// Drops the active session `workoutID` without saving anything, because its workout is
    /// already saved: a store rollback restored the snapshot of a workout that had ended, and
    /// the resync brought its record back. Ending it again would save a second, shorter copy
    /// over the record and send its file again. Mirroring stops; the id is remembered as
    /// ended. No effects when `workoutID` is not the active session.
    public mutating func dropAlreadySaved(workoutID: String) -> [WorkoutEffect] {
        guard let s = session, s.id == workoutID else { return [] }
        clearActive(id: s.id)
        var effects: [WorkoutEffect] = [
            .dropped(workoutID: s.id), .log("workout \(s.id): dropped in state \(s.state.rawValue), it is already saved"),
        ]
        if s.startMs != nil {
            mirror.stopMirroring()
            effects.append(.mirroringStopped(workoutID: s.id))
        }
        return effects
    }

    // MARK: - Samples

    /// Collects a heart-rate reading.
    public mutating func addHeartRate(bpm: Double, at atMs: EpochMs) -> [WorkoutEffect] {
        addSample { $0.addHeartRate(bpm: bpm, atMs: atMs) }
    }

    /// `addHeartRate(bpm:at:)` without building an array for its usual effect: nil when the
    /// sample was accepted (the effects would be `[.sampleAccepted(sample)]`), else the effects.
    mutating func addHeartRateUnlessAccepted(bpm: Double, at atMs: EpochMs) -> [WorkoutEffect]? {
        guard case .some = builder else { return [.refused(.noActiveSession(call: "add sample"))] }
        switch builder!.addHeartRate(bpm: bpm, atMs: atMs) {
        case .success: return nil
        case .failure(let r): return [.sampleRejected(r), .log(r.logLine)]
        }
    }

    /// Collects active energy burned over `fromMs...toMs`.
    public mutating func addActiveEnergy(kcal: Double, fromMs: EpochMs, toMs: EpochMs) -> [WorkoutEffect] {
        addSample { $0.addActiveEnergy(kcal: kcal, fromMs: fromMs, toMs: toMs) }
    }

    mutating func addSample(_ add: (inout LiveWorkoutBuilder) -> Result<HealthSample, SampleRejection>) -> [WorkoutEffect] {
        // (A tag test: `builder != nil` copied the builder on every sample.)
        guard case .some = builder else { return [.refused(.noActiveSession(call: "add sample"))] }
        switch add(&builder!) {
        case .success(let sample): return [.sampleAccepted(sample)]
        case .failure(let r): return [.sampleRejected(r), .log(r.logLine)]
        }
    }

    // MARK: - Live views

    /// The workout screen at `nowMs`, nil without an active session.
    public func screen(at nowMs: EpochMs) -> WorkoutScreen? {
        guard let session, let builder else { return nil }
        return WorkoutScreen(session: session, builder: builder, at: nowMs)
    }

    /// The active workout's record as it stands (for live sync), nil without a session.
    public func liveRecord(at nowMs: EpochMs) -> WorkoutRecord? {
        guard let session, let builder else { return nil }
        return builder.record(state: session.state, at: nowMs)
    }

    /// A mirroring tick: builds the live-metrics payload and sends it if the budget allows.
    public mutating func onMirrorTick(at nowMs: EpochMs) -> [WorkoutEffect] {
        guard let session, let builder, session.startMs != nil else { return [.mirrorSkipped(.notMirroring)] }
        let payload = MirrorPayload.make(session: session, builder: builder, at: nowMs)
        let bytes = MirrorPayload.canonicalSize(payload)
        switch mirror.consider(bytes: bytes, now: nowMs) {
        case .send: return [.mirror(payload: payload, bytes: bytes)]
        case .skip(let reason): return [.mirrorSkipped(reason)]
        }
    }
}

// MARK: - Internals

extension WorkoutManager {
    /// Refusal for a new session id: malformed, or the id of a session that already ended.
    func checkNew(workoutID: String, call: WorkoutSessionCall.Name) -> WorkoutRefusal? {
        guard !workoutID.isEmpty, workoutID.utf8.count <= Self.maxWorkoutIDLength else { return .invalidWorkoutID(workoutID) }
        if endedWorkoutIDs.contains(workoutID) { return .session(.illegalTransition(call: call, state: .ended)) }
        if let s = session, s.id == workoutID { return .session(.illegalTransition(call: call, state: s.state)) }
        return nil
    }

    /// Applies a call to the active session and keeps the builder and mirroring in step.
    mutating func applyActive(_ call: WorkoutSessionCall) -> [WorkoutEffect] {
        guard var s = session, var b = builder else { return [.refused(.noActiveSession(call: call.name.rawValue))] }
        let t: WorkoutSessionTransition
        switch s.apply(call) {
        case .failure(let e): return [.refused(.session(e))]
        case .success(let transition): t = transition
        }
        var effects: [WorkoutEffect] = [.stateChanged(t)]
        switch call {
        case .pause(let at): b.addEvent(WorkoutEvent(kind: .pause, atMs: at))
        case .resume(let at): b.addEvent(WorkoutEvent(kind: .resume, atMs: at))
        case .stopActivity(let at): _ = b.endCollection(at: at)
        case .end(let at):
            if b.isCollecting { _ = b.endCollection(at: at) }
            if case .success(let saved) = b.finishWorkout() { effects.append(.workoutSaved(saved)) }
        case .prepare, .startActivity: break
        }
        session = s
        builder = b
        if !s.isActive {
            mirror.stopMirroring()
            effects.append(.mirroringStopped(workoutID: s.id))
            clearActive(id: s.id)
        }
        return effects
    }

    /// Fails and ends the active session because another one is starting (HealthKit's
    /// `HKErrorAnotherWorkoutSession`), saving what it collected. No effects when none.
    mutating func failActive(at atMs: EpochMs) -> [WorkoutEffect] {
        guard var s = session, var b = builder else { return [] }
        let failure = WorkoutSessionFailure.anotherWorkoutSession
        var effects: [WorkoutEffect] = [
            .sessionFailed(workoutID: s.id, failure: failure), .log("workout \(s.id): \(failure.description)"),
        ]
        let wasStarted = s.startMs != nil
        if let t = s.forceEnd(at: atMs) {
            effects.append(.stateChanged(t))
            if b.isCollecting { _ = b.endCollection(at: max(t.atMs ?? atMs, b.events.last?.atMs ?? atMs)) }
            if case .success(let saved) = b.finishWorkout() { effects.append(.workoutSaved(saved)) }
        }
        if wasStarted {
            mirror.stopMirroring()
            effects.append(.mirroringStopped(workoutID: s.id))
        }
        clearActive(id: s.id)
        return effects
    }

    /// Forgets the active session, remembering its id as ended.
    mutating func clearActive(id: String) {
        session = nil
        builder = nil
        endedWorkoutIDs.append(id)
        if endedWorkoutIDs.count > Self.maxRememberedEndedIDs { endedWorkoutIDs.removeFirst() }
    }
}

/// The later of two optional times (nil when both are), without building an array: the
/// workout clock asks for it on every sample.
func later(_ a: EpochMs?, _ b: EpochMs?) -> EpochMs? {
    guard let a else { return b }
    guard let b else { return a }
    return max(a, b)
}
