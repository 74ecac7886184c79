import PeerLinkCore

/// "The user started running": the run's first sample time, so a workout can be credited
/// from when the run began.
public struct RunStartEvent: Sendable, Hashable {
    /// The first of the consecutive running samples.
    public var runStartMs: EpochMs
    /// The sample that completed the streak.
    public var detectedAtMs: EpochMs

    /// An event from its times.
    public init(runStartMs: EpochMs, detectedAtMs: EpochMs) {
        self.runStartMs = runStartMs
        self.detectedAtMs = detectedAtMs
    }

    /// The notification id (one prompt per run; a new run replaces an old unanswered prompt).
    public static let notificationID = "fitness.runDetected"

    /// The prompt (ワークアウトを開始しますか？), delivered at once.
    public func makeNotification(language: AppLanguage) -> PendingNotification {
        PendingNotification(
            id: Self.notificationID, kind: .runDetected, title: L10n.fitnessRunDetectedTitle(language),
            body: L10n.fitnessRunDetectedBody(language), trigger: .at(detectedAtMs), fireMs: detectedAtMs)
    }

    /// As a property list: `{"runStart": ms, "detectedAt": ms}`.
    public var plistValue: PlistValue { ["runStart": .int(runStartMs), "detectedAt": .int(detectedAtMs)] }
}

/// Detects the start of a run from Core Motion activity samples, fed in time order.
///
/// ## Rules
/// - A sample *qualifies* when it has the `running` flag, no `automotive` flag, and medium
///   confidence or better.
/// - `requiredConsecutive` (default 3) qualifying samples in a row start a run. Any other sample
///   breaks the streak (a low-confidence running sample too, and anything automotive: a
///   bumpy car ride never fires).
/// - The detector fires once per run, with the streak's first sample as the run start, unless a
///   workout is already running then: the run is still marked as seen, so it does not fire
///   later in the same run (the user already records it).
/// - A run ends at the first sample without `running`, or with `automotive`; only then can
///   the next run fire. Running samples of any confidence keep a run going.
/// - A sample older than the last one accepted is ignored (`.outOfOrder`).
public struct RunDetector: Sendable, Hashable {
    /// Consecutive qualifying samples needed to say "running".
    public static let defaultRequiredConsecutive = 3
    /// The lowest confidence that counts.
    public static let minimumConfidence = MotionConfidence.medium

    /// What one sample did.
    public enum Outcome: Sendable, Hashable {
        /// A run started: prompt the user.
        case runStarted(RunStartEvent)
        /// Nothing to report.
        case none
        /// Older than the previous sample: ignored.
        case outOfOrder
    }

    public let requiredConsecutive: Int
    /// The time of the first sample in the current streak of qualifying samples.
    public private(set) var streakStartMs: EpochMs?
    /// Qualifying samples in a row so far.
    public private(set) var streakCount = 0
    /// True from the moment a run is recognized until a sample ends it.
    public private(set) var isInRun = false
    /// The last accepted sample's time.
    public private(set) var lastSampleMs: EpochMs?

    /// A detector needing `requiredConsecutive` qualifying samples (at least 1).
    public init(requiredConsecutive: Int = RunDetector.defaultRequiredConsecutive) {
        self.requiredConsecutive = max(1, requiredConsecutive)
    }

    /// True when `sample` counts toward a streak.
    public static func qualifies(_ sample: MotionActivitySample) -> Bool {
        sample.isRunning && !sample.isAutomotive && sample.confidence >= minimumConfidence
    }

    // MARK: - Input

    /// Feeds the next sample; `workoutActive` says whether a workout session is running now.
    public mutating func onMotionSample(_ sample: MotionActivitySample, workoutActive: Bool) -> Outcome {
        if let last = lastSampleMs, sample.atMs < last { return .outOfOrder }
        lastSampleMs = sample.atMs

        guard sample.isRunning, !sample.isAutomotive else {
            resetStreak()
            isInRun = false
            return .none
        }
        if isInRun { return .none }
        guard Self.qualifies(sample) else {
            resetStreak()
            return .none
        }
        if streakStartMs == nil { streakStartMs = sample.atMs }
        streakCount += 1
        guard streakCount >= requiredConsecutive, let start = streakStartMs else { return .none }
        isInRun = true
        resetStreak()
        if workoutActive { return .none }
        return .runStarted(RunStartEvent(runStartMs: start, detectedAtMs: sample.atMs))
    }

    /// Feeds samples in order and returns every run start they produced.
    public mutating func onMotionSamples(_ samples: [MotionActivitySample], workoutActive: Bool) -> [RunStartEvent] {
        samples.compactMap {
            if case .runStarted(let e) = onMotionSample($0, workoutActive: workoutActive) { return e }
            return nil
        }
    }

    private mutating func resetStreak() {
        streakStartMs = nil
        streakCount = 0
    }
}
