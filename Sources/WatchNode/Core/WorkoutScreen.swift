import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The workout recording screen (seed: ワークアウト記録画面): live heart rate, calories and
/// elapsed time, the activity, and the buttons the current state offers.
///
/// A value computed from the session and builder at an instant: "updated live" means the
/// shell renders a new one after every sample, state change or display tick.
public struct WorkoutScreen: Sendable, Hashable {
    /// A button on the screen (seed: 開始/一時停止/停止).
    public enum Button: String, Sendable, Hashable, CaseIterable {
        case start, pause, resume, stop, end

        /// The button's label.
        public var title: LocalizedText {
            switch self {
            case .start: L10n.watchButtonStart
            case .pause: L10n.watchButtonPause
            case .resume: L10n.watchButtonResume
            case .stop: L10n.watchButtonStop
            case .end: L10n.watchButtonEnd
            }
        }

        /// The session call the button makes (`workout start|pause|resume|stop|end`).
        public var call: WorkoutSessionCall.Name {
            switch self {
            case .start: .start
            case .pause: .pause
            case .resume: .resume
            case .stop: .stop
            case .end: .end
            }
        }
    }

    public var workoutID: String
    public var activity: WorkoutActivityType
    public var location: WorkoutLocation
    public var state: WorkoutSessionState
    /// The most recent heart rate, nil before the first sample (shown as `--`).
    public var heartRateBpm: Double?
    public var energyKcal: Double
    public var elapsedMs: Int64
    /// The instant the screen shows.
    public var atMs: EpochMs

    /// The screen for `session` and its `builder` at `nowMs`.
    public init(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs) {
        workoutID = session.id
        activity = session.configuration.activity
        location = session.configuration.location
        state = session.state
        heartRateBpm = builder.heartRate.mostRecent
        energyKcal = builder.totalEnergyKcal
        elapsedMs = builder.elapsedMs(at: nowMs)
        atMs = nowMs
    }

    /// The buttons the state offers, each a call the session allows in it: start before
    /// running; pause and stop while running; only resume while paused (a paused session is
    /// resumed before it stops or ends, `WorkoutSession`); end once stopped; none once ended.
    public var buttons: [Button] {
        switch state {
        case .notStarted, .prepared: [.start]
        case .running: [.pause, .stop]
        case .paused: [.resume]
        case .stopped: [.end]
        case .ended: []
        }
    }

    // MARK: - Rendering

    /// The screen as text, e.g.
    /// ```
    /// ワークアウト記録 — ランニング（屋外）: 記録中
    /// 心拍数: 142 bpm
    /// 消費カロリー: 87.3 kcal
    /// 経過時間: 20:00
    /// [一時停止] [停止]
    /// ```
    public func text(_ language: AppLanguage) -> String {
        let heart = heartRateBpm.map { "\(WatchFormat.whole($0)) bpm" } ?? L10n.watchNoValue(language)
        let place = language == .ja ? "（\(location.watchTitle(language))）" : " (\(location.watchTitle(language)))"
        var lines = [
            "\(L10n.watchWorkoutTitle(language)) — \(activity.watchTitle(language))\(place): \(state.watchTitle(language))",
            "\(L10n.watchHeartRate(language)): \(heart)",
            "\(L10n.watchCalories(language)): \(WatchFormat.oneDecimal(energyKcal)) kcal",
            "\(L10n.watchElapsedTime(language)): \(WatchFormat.elapsed(elapsedMs))",
        ]
        if !buttons.isEmpty { lines.append(buttons.map { "[\($0.title(language))]" }.joined(separator: " ")) }
        return lines.joined(separator: "\n")
    }

    /// The screen as JSON: `heartRateBpm` is absent before the first sample.
    public func jsonValue() -> PlistValue {
        var d: [String: PlistValue] = [
            "screen": "workout", "workoutID": .string(workoutID), "activity": .string(activity.rawValue),
            "location": .string(location.rawValue), "state": .string(state.rawValue),
            "energyKcal": .double(energyKcal), "elapsedMs": .int(elapsedMs),
            "elapsed": .string(WatchFormat.elapsed(elapsedMs)), "atMs": .int(atMs),
            "buttons": .array(buttons.map { .string($0.rawValue) }),
        ]
        if let heartRateBpm { d["heartRateBpm"] = .double(heartRateBpm) }
        return .dictionary(d)
    }
}

// MARK: - Mirroring payload

/// The live metrics the watch mirrors to the phone during a workout.
public enum MirrorPayload {
    /// The payload's `type` value, so the phone can tell it from other messages.
    public static let type = PeerPayloadKeys.liveMetricsType

    /// A dictionary of the live metrics: type, workoutID, activity, location, state,
    /// energyKcal, elapsedMs, atMs, hrCount and, once known, heartRateBpm and startMs (when
    /// the workout started, ms).
    public static func make(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs) -> PlistValue {
        var d: [String: PlistValue] = [
            "type": .string(type), "workoutID": .string(session.id),
            "activity": .string(session.configuration.activity.rawValue),
            "location": .string(session.configuration.location.rawValue), "state": .string(session.state.rawValue),
            "energyKcal": .double(builder.totalEnergyKcal), "elapsedMs": .int(builder.elapsedMs(at: nowMs)),
            "atMs": .int(nowMs), "hrCount": .int(Int64(builder.heartRate.count)),
        ]
        if let hr = builder.heartRate.mostRecent { d["heartRateBpm"] = .double(hr) }
        if let start = session.startMs { d["startMs"] = .int(start) }
        return .dictionary(d)
    }

    /// The size the mirroring budget charges: the canonical encoding's byte count (counted,
    /// not encoded).
    public static func canonicalSize(_ payload: PlistValue) -> Int { CanonicalEncoding.encodedSize(payload) }
}
