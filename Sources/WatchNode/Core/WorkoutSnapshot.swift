import PeerLinkCore
import FitnessDomain

/// A compact, persistable picture of the active workout session and its builder, from which
/// `WorkoutManager.recover(from:at:)` restores both after a crash
/// (`recoverActiveWorkoutSession`).
///
/// It holds every collected sample (so the saved workout keeps full resolution after a
/// crash) in columns: kinds as one byte each, start times as deltas from the previous
/// sample, durations, and values; event times likewise as deltas. Running totals are stored
/// too and MUST match the samples on decode, which catches a truncated or mixed-up store.
public struct WorkoutSnapshot: Sendable, Hashable {
    /// The layout version written under key `v`; decoding refuses any other.
    public static let formatVersion: Int64 = 1

    /// One collected sample without its id (ids are re-derived from the index).
    public struct Sample: Sendable, Hashable {
        public var kind: HealthSampleKind
        public var startMs: EpochMs
        public var endMs: EpochMs
        public var value: Double

        /// A sample as the snapshot keeps it.
        public init(kind: HealthSampleKind, startMs: EpochMs, endMs: EpochMs, value: Double) {
            self.kind = kind
            self.startMs = startMs
            self.endMs = endMs
            self.value = value
        }

        /// A collected sample as the snapshot keeps it (its id is dropped).
        init(_ sample: HealthSample) {
            self.init(kind: sample.kind, startMs: sample.startMs, endMs: sample.endMs, value: sample.value)
        }
    }

    /// When the snapshot was taken.
    public var savedAtMs: EpochMs
    public var workoutID: String
    public var configuration: WorkoutConfiguration
    public var state: WorkoutSessionState
    public var startMs: EpochMs?
    public var stopMs: EpochMs?
    public var events: [WorkoutEvent]
    public var collectionStartMs: EpochMs?
    public var collectionEndMs: EpochMs?
    public var samples: [Sample]
    /// Running totals when the snapshot was taken.
    public var heartRateCount: Int
    public var heartRateSumBpm: Double
    public var energyKcal: Double

    /// The snapshot of `session` and `builder` at `nowMs`.
    public init(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs) {
        self.init(headOf: session, builder: builder, at: nowMs)
        samples = builder.samples.map(Sample.init)
    }

    /// The snapshot of `session` and `builder` at `nowMs` without its samples (`samples` is
    /// empty; the running totals still cover every sample): the store's head.
    init(headOf session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs) {
        savedAtMs = nowMs
        workoutID = session.id
        configuration = session.configuration
        state = session.state
        startMs = session.startMs
        stopMs = session.stopMs
        events = session.events
        collectionStartMs = builder.collectionStartMs
        collectionEndMs = builder.collectionEndMs
        samples = []
        heartRateCount = builder.heartRate.count
        heartRateSumBpm = builder.heartRate.sum
        energyKcal = builder.activeEnergy.sum
    }

    /// A snapshot from its parts (decoding, tests).
    public init(
        savedAtMs: EpochMs, workoutID: String, configuration: WorkoutConfiguration, state: WorkoutSessionState,
        startMs: EpochMs?, stopMs: EpochMs?, events: [WorkoutEvent], collectionStartMs: EpochMs?,
        collectionEndMs: EpochMs?, samples: [Sample], heartRateCount: Int, heartRateSumBpm: Double, energyKcal: Double
    ) {
        self.savedAtMs = savedAtMs
        self.workoutID = workoutID
        self.configuration = configuration
        self.state = state
        self.startMs = startMs
        self.stopMs = stopMs
        self.events = events
        self.collectionStartMs = collectionStartMs
        self.collectionEndMs = collectionEndMs
        self.samples = samples
        self.heartRateCount = heartRateCount
        self.heartRateSumBpm = heartRateSumBpm
        self.energyKcal = energyKcal
    }

    // MARK: - Restoring

    /// The session and builder this snapshot describes, or why it is inconsistent.
    public func restore() -> Result<(WorkoutSession, LiveWorkoutBuilder), WorkoutSnapshotError> {
        guard state != .ended else { return .failure(.init("an ended session is not recovered")) }
        let started = startMs != nil
        switch state {
        case .notStarted, .prepared:
            guard !started, collectionStartMs == nil, samples.isEmpty, events.isEmpty else {
                return .failure(.init("a \(state.rawValue) session has no start, events or samples"))
            }
        case .running, .paused, .stopped:
            guard started, collectionStartMs != nil else { return .failure(.init("a \(state.rawValue) session has a start")) }
        case .ended: break
        }
        if (state == .stopped) != (stopMs != nil) || (state == .stopped) != (collectionEndMs != nil) {
            return .failure(.init("only a stopped session has a stop time and a collection end"))
        }
        // A stopped session may have stopped while paused, so only running and paused are checked.
        let endsPaused = events.last?.kind == .pause
        if (state == .paused && !endsPaused) || (state == .running && endsPaused) {
            return .failure(.init("the last event does not match state \(state.rawValue)"))
        }
        let session = WorkoutSession(
            id: workoutID, configuration: configuration, state: state, startMs: startMs, stopMs: stopMs, endMs: nil,
            events: events)
        guard
            let builder = LiveWorkoutBuilder(
                workoutID: workoutID, configuration: configuration, collectionStartMs: collectionStartMs,
                collectionEndMs: collectionEndMs, events: events,
                samples: samples.map { ($0.kind, $0.startMs, $0.endMs, $0.value) })
        else { return .failure(.init("events or samples are inconsistent")) }
        guard builder.events == events else { return .failure(.init("events are not alternating pause/resume")) }
        guard builder.heartRate.count == heartRateCount, builder.heartRate.sum == heartRateSumBpm,
              builder.activeEnergy.sum == energyKcal
        else { return .failure(.init("running totals do not match the samples")) }
        return .success((session, builder))
    }
}

/// Why a snapshot could not be decoded or restored.
public struct WorkoutSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    /// An error with a reason for people.
    public init(_ reason: String) { self.reason = reason }

    /// For people and logs.
    public var description: String { "workout snapshot: \(reason)" }
}

// MARK: - Recovery in the manager

extension WorkoutManager {
    /// The snapshot to persist now, nil without an active session.
    public func snapshot(at nowMs: EpochMs) -> WorkoutSnapshot? {
        guard let session, let builder else { return nil }
        return WorkoutSnapshot(session: session, builder: builder, at: nowMs)
    }

    /// The writes that bring a stored snapshot up to the active session at `nowMs`, given
    /// that its first `persistedSampleCount` samples are stored (nil without a session).
    /// Unlike `snapshot(at:)` it copies only the samples of the chunks it rewrites, so
    /// persisting after every sample does not copy the whole series each time.
    public func snapshotWrites(at nowMs: EpochMs, persistedSampleCount: Int) -> (workoutID: String, sampleCount: Int, writes: [WorkoutSnapshotStore.Write])? {
        guard let session, let builder else { return nil }
        let head = WorkoutSnapshot(headOf: session, builder: builder, at: nowMs)
        let writes = WorkoutSnapshotStore.writes(head: head, sampleCount: builder.samples.count, persistedSampleCount: persistedSampleCount) {
            builder.samples[$0].map(WorkoutSnapshot.Sample.init)
        }
        return (session.id, builder.samples.count, writes)
    }

    /// Restores the session and builder of `snapshot` after a crash: same id, same state.
    /// An inconsistent snapshot is refused (`.snapshotUnusable`) and changes nothing.
    ///
    /// Elapsed time needs no adjustment: it is derived from the collection start and the
    /// pause/resume events, so the time the process was dead counts as running when the
    /// session was running, and as paused when it was paused — as HealthKit's session keeps
    /// running while the app is gone. Mirroring resumes for a started session.
    public mutating func recover(from snapshot: WorkoutSnapshot, at nowMs: EpochMs) -> [WorkoutEffect] {
        if let s = session { return [.refused(.sessionAlreadyActive(workoutID: s.id))] }
        switch snapshot.restore() {
        case .failure(let e):
            return [.refused(.snapshotUnusable(e)), .log("workout \(snapshot.workoutID): not recovered: \(e.description)")]
        case .success(let (s, b)):
            session = s
            builder = b
            if s.startMs != nil { mirror.startMirroring() }
            return [
                .recovered(workoutID: s.id, state: s.state),
                .log(
                    "workout \(s.id): recovered in state \(s.state.rawValue) at \(nowMs) "
                        + "(snapshot of \(snapshot.savedAtMs), \(b.samples.count) samples)"),
            ]
        }
    }
}
