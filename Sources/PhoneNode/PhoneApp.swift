import PeerLink
import Shared

/// The phone app: health store, screens, widgets, notifications (later).
///
/// Walking-skeleton version: it receives what the watch syncs and lists workouts.
public struct PhoneApp: NodeApp {
    public init() {}

    public mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        switch command.words.first {
        case "workouts":
            let all = ctx.replica.all(WorkoutRecord.self)
            let v = PlistValue.array(all.map { .dictionary($0.fields.merging(["id": .string($0.id)]) { a, _ in a }) })
            return .ok(v, text: all.map { "\($0.id) \($0.activity.rawValue) \($0.state.rawValue) \($0.heartRateSampleCount) HR samples" }.joined(separator: "\n"))
        default:
            return .error("unknown command '\(command.raw)'")
        }
    }

    public func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        switch path.first {
        case "workouts": .int(Int64(ctx.replica.count(in: WorkoutRecord.collection)))
        default: nil
        }
    }
}
