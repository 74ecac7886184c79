import PeerLinkCore

/// What both sides of the water log keep in their replica: drinks (a grow-only collection:
/// a drink is never undone, so two devices logging at once both count) and the daily goal
/// (one last-writer-wins register).
public enum WaterLog {
    public static let drinks = "drink"
    public static let settings = RecordKey("settings", "goal")
    public static let schema = ReplicaSchema(growOnly: [drinks])
    public static let defaultGoalMl: Int64 = 2_000

    /// `drink ML`, the command both devices take.
    public static func drink(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        guard command.words.count == 2, let ml = Int64(command.words[1]) else { return .error("usage: drink ML") }
        return logDrink(ml, &ctx)
    }

    /// Logs `ml` at the device's current time, under an id no other write of either device uses.
    public static func logDrink(_ ml: Int64, _ ctx: inout NodeContext) -> CommandReply {
        guard ml > 0, ml <= 5_000 else { return .error("usage: drink ML (1…5000)") }
        let n = (ctx.local["water.nextDrink"]?.intValue ?? 0) + 1
        ctx.setLocal("water.nextDrink", .int(n))
        let key = RecordKey(drinks, "\(ctx.role.rawValue)-\(ctx.storeIncarnation)-\(n)")
        switch ctx.set(key, ["ml": .int(ml), "atMs": .int(ctx.now)]) {
        case .success: return .ok(.int(totalToday(ctx)), text: "\(totalToday(ctx)) ml today")
        case .failure(let refusal): return .error("not logged: \(refusal)")
        }
    }

    /// The sum of today's drinks (the device's local day).
    public static func totalToday(_ ctx: NodeContext) -> Int64 {
        let today = ctx.calendar.civilDate(ctx.now)
        return ctx.replica.records(in: drinks).reduce(0) { sum, r in
            guard let at = r.fields["atMs"]?.intValue, ctx.calendar.civilDate(at) == today else { return sum }
            return sum + (r.fields["ml"]?.intValue ?? 0)
        }
    }

    public static func goal(_ ctx: NodeContext) -> Int64 {
        ctx.replica.fields(settings)?["ml"]?.intValue ?? defaultGoalMl
    }

    /// `query total`, `query goal`, `query drinks`: what a scenario's expectations read.
    public static func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        switch path {
        case ["total"]: .int(totalToday(ctx))
        case ["goal"]: .int(goal(ctx))
        case ["drinks"]: .int(Int64(ctx.replica.count(in: drinks)))
        case ["met"]: .bool(totalToday(ctx) >= goal(ctx))
        default: nil
        }
    }
}

/// The watch: logs drinks.
public struct WaterWatch: NodeApp {
    public static var replicaSchema: ReplicaSchema { WaterLog.schema }
    public init() {}

    public mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        switch command.words.first {
        case "drink":
            return WaterLog.drink(command, &ctx)
        case "total":
            return .ok(.int(WaterLog.totalToday(ctx)), text: "\(WaterLog.totalToday(ctx)) / \(WaterLog.goal(ctx)) ml")
        default:
            return .error("unknown command: \(command.raw)")
        }
    }

    public func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? { WaterLog.query(path, ctx) }
}

/// The phone: logs drinks too, and sets the daily goal.
public struct WaterPhone: NodeApp {
    public static var replicaSchema: ReplicaSchema { WaterLog.schema }
    public init() {}

    public mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        switch command.words.first {
        case "drink":
            return WaterLog.drink(command, &ctx)
        case "goal":
            guard command.words.count == 2, let ml = Int64(command.words[1]), ml > 0 else { return .error("usage: goal ML") }
            if case .failure(let r) = ctx.set(WaterLog.settings, ["ml": .int(ml)]) { return .error("not set: \(r)") }
            return .ok(.int(ml), text: "goal \(ml) ml")
        case "total":
            return .ok(.int(WaterLog.totalToday(ctx)), text: "\(WaterLog.totalToday(ctx)) / \(WaterLog.goal(ctx)) ml")
        default:
            return .error("unknown command: \(command.raw)")
        }
    }

    public func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? { WaterLog.query(path, ctx) }
}
