import PeerLink
import Shared

/// The watch app: workouts, heart-rate samples, and (later) rings and complication.
///
/// Walking-skeleton version: one workout at a time, started, fed heart-rate samples and
/// ended; on end the workout and its samples are written to the replicated state, which
/// the sync layer sends to the phone with `transferUserInfo`.
public struct WatchApp: NodeApp {
    struct ActiveWorkout: Sendable {
        var id: String
        var activity: WorkoutActivityType
        var startMs: EpochMs
        var heartRates: [(atMs: EpochMs, bpm: Double)] = []
    }

    var active: ActiveWorkout?

    public init() {}

    public mutating func onLaunch(_ ctx: inout NodeContext) {
        ctx.setAppState(AppState(isRunning: true, isForeground: true, workoutActive: false))
    }

    public mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let w = command.words
        switch (w.first, w.dropFirst().first) {
        case ("workout", "start"):
            guard active == nil else { return .error("a workout is already running") }
            let type = w.count > 2 ? w[2] : "running"
            guard let activity = WorkoutActivityType(rawValue: type) else { return .error("unknown activity type '\(type)' (running, walking, cycling)") }
            active = ActiveWorkout(id: "workout-\(ctx.now)", activity: activity, startMs: ctx.now)
            ctx.setAppState(AppState(isRunning: true, isForeground: true, workoutActive: true))
            return .ok(["id": .string(active!.id)], text: "workout \(active!.id) running (\(activity.rawValue))")
        case ("workout", "end"):
            guard let a = active else { return .error("no workout is running") }
            let record = finish(a, endMs: ctx.now)
            ctx.put(record)
            for (i, s) in a.heartRates.enumerated() {
                ctx.put(HealthSample(id: "\(a.id)-hr-\(i)", kind: .heartRate, source: .watch, startMs: s.atMs, endMs: s.atMs, value: s.bpm))
            }
            active = nil
            ctx.setAppState(AppState(isRunning: true, isForeground: true, workoutActive: false))
            return .ok(.dictionary(record.fields.merging(["id": .string(record.id)]) { a, _ in a }), text: "workout \(record.id) ended")
        case ("hr", _):
            guard w.count == 2, let bpm = Double(w[1]) else { return .error("usage: hr BPM") }
            guard var a = active else { return .error("no workout is running") }
            a.heartRates.append((ctx.now, bpm))
            active = a
            return .ok(.double(bpm), text: "\(bpm) bpm")
        default:
            return .error("unknown command '\(command.raw)'")
        }
    }

    func finish(_ a: ActiveWorkout, endMs: EpochMs) -> WorkoutRecord {
        let bpms = a.heartRates.map(\.bpm)
        return WorkoutRecord(
            id: a.id, activity: a.activity, location: .outdoor, state: .ended, startMs: a.startMs, endMs: endMs,
            elapsedMs: endMs - a.startMs, heartRateAverage: bpms.isEmpty ? nil : bpms.reduce(0, +) / Double(bpms.count),
            heartRateMin: bpms.min(), heartRateMax: bpms.max(), heartRateSampleCount: bpms.count)
    }

    public func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        switch path.first {
        case "workouts": .int(Int64(ctx.replica.count(in: WorkoutRecord.collection)))
        case "workout": active.map { ["id": .string($0.id), "samples": .int(Int64($0.heartRates.count))] } ?? .string("none")
        default: nil
        }
    }
}
