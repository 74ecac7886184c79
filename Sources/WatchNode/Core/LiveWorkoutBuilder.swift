import PeerLinkCore
import FitnessDomain

/// The HKLiveWorkoutBuilder model: collects heart rate (discrete) and active energy
/// (cumulative) between `beginCollection(at:)` and `endCollection(at:)`, keeps pause and
/// resume events, computes elapsed time, and saves the workout with `finishWorkout()`.
///
/// Invariants:
/// - `events` alternate pause, resume, pause… and are ordered by time; a pause while paused
///   or a resume while running is ignored (not recorded).
/// - Samples are validated before they are kept (`SampleRejectionReason`); a refused sample
///   changes nothing. Accepted samples get the id `<workoutID>.<index>` (index in acceptance
///   order), so replaying the same inputs yields the same ids.
public struct LiveWorkoutBuilder: Sendable, Hashable {
    public let workoutID: String
    public let configuration: WorkoutConfiguration
    public internal(set) var collectionStartMs: EpochMs?
    public internal(set) var collectionEndMs: EpochMs?
    /// Effective pause/resume events (ignored ones are not kept).
    public internal(set) var events: [WorkoutEvent] = []
    /// Accepted samples, in acceptance order.
    public internal(set) var samples: [HealthSample] = []
    /// Heart-rate statistics so far.
    public internal(set) var heartRate = DiscreteStatistics()
    /// Active-energy statistics so far.
    public internal(set) var activeEnergy = CumulativeStatistics()
    /// The latest end of any accepted sample, nil before the first.
    public internal(set) var latestSampleEndMs: EpochMs?
    /// True once `finishWorkout()` has saved the workout.
    public internal(set) var isFinished = false

    /// A builder for `workoutID` that has not begun collecting.
    public init(workoutID: String, configuration: WorkoutConfiguration) {
        self.workoutID = workoutID
        self.configuration = configuration
    }

    // MARK: - Collection

    /// Starts collecting at `ms`; elapsed time counts from here.
    public mutating func beginCollection(at ms: EpochMs) -> Result<Void, WorkoutBuilderError> {
        guard collectionStartMs == nil else { return .failure(.collectionAlreadyBegun) }
        collectionStartMs = ms
        return .success(())
    }

    /// Stops collecting at `ms`; elapsed time freezes here and later samples are refused.
    public mutating func endCollection(at ms: EpochMs) -> Result<Void, WorkoutBuilderError> {
        guard let start = collectionStartMs else { return .failure(.collectionNotBegun) }
        guard collectionEndMs == nil else { return .failure(.collectionAlreadyEnded) }
        let last = max(start, events.last?.atMs ?? start)
        guard ms >= last else { return .failure(.endBeforeLastEvent(endMs: ms, lastMs: last)) }
        collectionEndMs = ms
        return .success(())
    }

    /// True while collecting (begun, not ended).
    public var isCollecting: Bool { collectionStartMs != nil && collectionEndMs == nil }

    /// The latest time the builder recorded: the collection's start or end, the last event,
    /// the latest sample end; nil before collection begins.
    public var latestRecordedMs: EpochMs? {
        later(later(collectionStartMs, collectionEndMs), later(events.last?.atMs, latestSampleEndMs))
    }

    // MARK: - Events

    /// True when the last effective event is a pause.
    public var isPaused: Bool { events.last?.kind == .pause }

    /// Records a pause or resume event; false when it is ignored: a pause while paused, a
    /// resume while running, an event outside the collection or earlier than the last event.
    @discardableResult
    public mutating func addEvent(_ event: WorkoutEvent) -> Bool {
        guard let start = collectionStartMs, collectionEndMs == nil, event.atMs >= start else { return false }
        if let last = events.last, event.atMs < last.atMs { return false }
        switch event.kind {
        case .pause: guard !isPaused else { return false }
        case .resume: guard isPaused else { return false }
        }
        events.append(event)
        return true
    }

    /// Whether the workout was paused at `ms` (a pause at p and resume at r cover p ≤ t < r).
    public func wasPaused(at ms: EpochMs) -> Bool {
        var paused = false
        for e in events where e.atMs <= ms { paused = e.kind == .pause }
        return paused
    }

    // MARK: - Elapsed time

    /// Time collected up to `nowMs`, excluding paused intervals: 0 before collection begins,
    /// frozen at `collectionEndMs` once collection has ended.
    public func elapsedMs(at nowMs: EpochMs) -> Int64 {
        guard let start = collectionStartMs else { return 0 }
        let end = min(nowMs, collectionEndMs ?? nowMs)
        guard end > start else { return 0 }
        var total: Int64 = 0
        var runningSince: EpochMs? = start
        for e in events {
            if e.atMs >= end { break }
            switch e.kind {
            case .pause:
                if let s = runningSince { total += e.atMs - s; runningSince = nil }
            case .resume:
                if runningSince == nil { runningSince = e.atMs }
            }
        }
        if let s = runningSince { total += end - s }
        return total
    }

    // MARK: - Samples

    /// Adds a heart-rate reading (bpm) taken at `atMs`.
    public mutating func addHeartRate(bpm: Double, atMs: EpochMs) -> Result<HealthSample, SampleRejection> {
        add(kind: .heartRate, value: bpm, startMs: atMs, endMs: atMs)
    }

    /// Adds active energy (kcal) burned over `fromMs...toMs`.
    public mutating func addActiveEnergy(kcal: Double, fromMs: EpochMs, toMs: EpochMs) -> Result<HealthSample, SampleRejection> {
        add(kind: .activeEnergy, value: kcal, startMs: fromMs, endMs: toMs)
    }

    /// Validates and keeps one sample; a refusal says why and changes nothing.
    public mutating func add(kind: HealthSampleKind, value: Double, startMs: EpochMs, endMs: EpochMs) -> Result<HealthSample, SampleRejection> {
        if let reason = admissionProblem(kind: kind, value: value, startMs: startMs, endMs: endMs) {
            return .failure(SampleRejection(workoutID: workoutID, kind: kind, startMs: startMs, value: value, reason: reason))
        }
        let sample = HealthSample(
            id: Self.sampleID(workoutID: workoutID, index: samples.count), kind: kind, source: .watch,
            startMs: startMs, endMs: endMs, value: value)
        keep(sample)
        return .success(sample)
    }

    /// The id of the `index`th accepted sample of `workoutID`: `w42.0007` (at least 4 digits,
    /// so ids of one workout sort in acceptance order up to 10,000 samples). The same rule as
    /// `WorkoutSampleFile.sampleID`, which the phone uses to name the file's samples.
    public static func sampleID(workoutID: String, index: Int) -> String {
        WorkoutSampleFile.sampleID(workoutID: workoutID, index: index)
    }

    /// The first reason to refuse a sample, nil to accept it.
    func admissionProblem(kind: HealthSampleKind, value: Double, startMs: EpochMs, endMs: EpochMs) -> SampleRejectionReason? {
        if let bad = SampleRejectionReason.checkBounds(kind: kind, value: value, startMs: startMs, endMs: endMs) { return bad }
        guard let start = collectionStartMs else { return .collectionNotBegun }
        if startMs < start { return .beforeCollection(collectionStartMs: start) }
        if let end = collectionEndMs, endMs > end { return .collectionEnded(collectionEndMs: end) }
        if wasPaused(at: startMs) { return .duringPause }
        if samples.count >= SampleLimits.maxSamplesPerWorkout { return .tooManySamples(limit: SampleLimits.maxSamplesPerWorkout) }
        return nil
    }

    /// Appends an already validated sample and updates the statistics.
    mutating func keep(_ sample: HealthSample) {
        samples.append(sample)
        latestSampleEndMs = max(latestSampleEndMs ?? sample.endMs, sample.endMs)
        switch sample.kind {
        case .heartRate: heartRate.add(sample.value, atMs: sample.startMs)
        case .activeEnergy: activeEnergy.add(sample.value)
        case .steps, .sleep: break
        }
    }
}
