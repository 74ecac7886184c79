import PeerLinkCore
import FitnessDomain

// MARK: - Statistics queries

extension LiveWorkoutBuilder {
    /// One statistic of `kind`: nil when there is no sample yet; an error when the statistic
    /// is not defined for the kind (the average of a cumulative type, the sum of a discrete
    /// one) or the builder does not collect the kind.
    public func statistic(_ statistic: WorkoutStatistic, of kind: HealthSampleKind) -> Result<Double?, WorkoutBuilderError> {
        switch kind {
        case .heartRate, .activeEnergy: break
        case .steps, .sleep: return .failure(.unsupportedKind(kind.name))
        }
        guard statistic.isDefined(forCumulative: kind.isCumulative) else {
            return .failure(.statisticNotDefined(statistic: statistic, kind: kind.name))
        }
        if kind == .activeEnergy {
            // A cumulative sum is 0, not unknown, before the first sample.
            return .success(activeEnergy.sum)
        }
        let value: Double? =
            switch statistic {
            case .mostRecent: heartRate.mostRecent
            case .average: heartRate.average
            case .minimum: heartRate.minimum
            case .maximum: heartRate.maximum
            case .sum: nil  // unreachable: refused above
            }
        return .success(value)
    }

    /// The average of `kind`; refused for cumulative kinds.
    public func average(of kind: HealthSampleKind) -> Result<Double?, WorkoutBuilderError> { statistic(.average, of: kind) }

    /// The sum of `kind`; refused for discrete kinds.
    public func sum(of kind: HealthSampleKind) -> Result<Double?, WorkoutBuilderError> { statistic(.sum, of: kind) }

    /// Active energy burned so far, kcal.
    public var totalEnergyKcal: Double { activeEnergy.sum }
}

// MARK: - Finishing

extension LiveWorkoutBuilder {
    /// The workout as it stands at `nowMs`, in the given session state (for live sync and the
    /// screen); `finishWorkout()` gives the final one.
    public func record(state: WorkoutSessionState, at nowMs: EpochMs) -> WorkoutRecord {
        WorkoutRecord(
            id: workoutID, activity: configuration.activity, location: configuration.location, state: state,
            startMs: collectionStartMs ?? nowMs, endMs: collectionEndMs, events: events,
            totalEnergyKcal: activeEnergy.sum, elapsedMs: elapsedMs(at: nowMs),
            heartRateAverage: heartRate.average, heartRateMin: heartRate.minimum, heartRateMax: heartRate.maximum,
            heartRateSampleCount: heartRate.count)
    }

    /// Saves the workout: a record in state `ended` with totals, events and elapsed time, and
    /// every sample at full resolution. Requires `endCollection(at:)`; works once.
    public mutating func finishWorkout() -> Result<FinishedWorkout, WorkoutBuilderError> {
        guard !isFinished else { return .failure(.alreadyFinished) }
        guard collectionStartMs != nil else { return .failure(.collectionNotBegun) }
        guard let end = collectionEndMs else { return .failure(.collectionNotEnded) }
        isFinished = true
        return .success(FinishedWorkout(record: record(state: .ended, at: end), samples: samples))
    }
}

// MARK: - Restoring

extension LiveWorkoutBuilder {
    /// Rebuilds a builder from recovered parts, re-validating every sample exactly as live
    /// collection would; nil when anything is inconsistent (a corrupt snapshot).
    init?(
        workoutID: String, configuration: WorkoutConfiguration, collectionStartMs: EpochMs?,
        collectionEndMs: EpochMs?, events: [WorkoutEvent], samples: [(HealthSampleKind, EpochMs, EpochMs, Double)]
    ) {
        self.init(workoutID: workoutID, configuration: configuration)
        if let start = collectionStartMs {
            guard case .success = beginCollection(at: start) else { return nil }
            for e in events { guard addEvent(e) else { return nil } }
        } else if !events.isEmpty {
            return nil
        }
        if let end = collectionEndMs {
            guard case .success = endCollection(at: end) else { return nil }
        }
        // Samples were admitted live against the window and pauses known at that time; a
        // later pause may cover an earlier sample, so only bounds and limits are re-checked.
        guard samples.count <= SampleLimits.maxSamplesPerWorkout else { return nil }
        for (kind, s, e, v) in samples {
            guard SampleRejectionReason.checkBounds(kind: kind, value: v, startMs: s, endMs: e) == nil else { return nil }
            keep(HealthSample(
                id: Self.sampleID(workoutID: workoutID, index: self.samples.count), kind: kind, source: .watch,
                startMs: s, endMs: e, value: v))
        }
    }
}
