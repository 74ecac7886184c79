import PeerLink
import Shared

/// `show SCREEN`: what the watch displays, as text for people with JSON as the reply value.
extension WatchApp {
    /// The app's commands, for `show help`.
    public static let helpText = """
        workout:      crown +1|-1 · location indoor|outdoor · workout prepare [TYPE]|start [TYPE]|pause|resume|stop|end|discard
        samples:      hr BPM · energy KCAL [--over DURATION] · steps N [--over DURATION]
        settings:     settings step-goal N (1,000–100,000)
        lifecycle:    app foreground|background|wrist-down|wrist-up · runtime start self-care|mindfulness|physical-therapy|smart-alarm · runtime stop
        screens:      show workout|picker|rings|complication|goals|app|link|help
        queries:      query workouts [last …] · workout state|id|elapsed|activity|location|samples|energy · workout hr latest|avg|min|max|count
                      rings steps|energy value|goal|fraction|closed · steps today · settings step-goal|energy-goal
                      complication value|max|fraction|label|reloads|total-reloads|pending|entries · goal top title|days|status · goal count|reloads
                      reachable · app state|running|reachable · runtime state|kind|expiresAtMs|last-end · mirror sent|skipped|bytes|last-skip|active
                      files sent · files last name|bytes|samples · errors last|count
        (TYPE: running, walking, cycling; DURATION: 30s, 5m, 1h30m)
        """

    /// `show workout|picker|rings|complication|goals|app|link|help`.
    func showCommand(_ w: [String], _ ctx: NodeContext) -> CommandReply {
        guard w.count == 2 else { return .error("usage: show workout|picker|rings|complication|goals|app|link|help") }
        switch w[1] {
        case "workout":
            guard let screen = manager.screen(at: ctx.now) else { return .ok(picker.jsonValue(), text: picker.text(ctx.language)) }
            return .ok(screen.jsonValue(), text: screen.text(ctx.language))
        case "picker":
            return .ok(picker.jsonValue(), text: picker.text(ctx.language))
        case "rings":
            let r = rings(ctx)
            return .ok(r.jsonValue(), text: r.text(ctx.language))
        case "complication":
            return .ok(complicationValue(ctx), text: complication.text(ctx.language))
        case "goals":
            return .ok(goalsValue(ctx), text: goalsText(ctx))
        case "app":
            return .ok(appValue(ctx), text: appText(ctx))
        case "link":
            return .ok(link.jsonValue(), text: link.text())
        case "help":
            return .ok(.string(Self.helpText), text: Self.helpText)
        default:
            return .error("usage: show workout|picker|rings|complication|goals|app|link|help")
        }
    }
}
