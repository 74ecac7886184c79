import PeerLinkCore

/// `show SCREEN --svg`: the watch's screens drawn from the view models of its text screens.
/// Read-only (the `readOnly` column of the `show` rows, WatchApp+Commands.swift, answered
/// through `NodeApp.readOnlyReply`): asking changes nothing.
extension WatchApp {
    /// The screens drawn as SVG.
    public static let svgScreens = ["workout", "rings", "complication", "activity-picker", "goals"]

    /// `show SCREEN --svg`; nil for any other command.
    func svgReply(_ command: NodeCommand, _ ctx: NodeContext) -> CommandReply? {
        let w = command.words
        guard w.count == 3, w.first == "show", w.last == "--svg" else { return nil }
        guard let svg = svgScreen(w[1], ctx) else {
            return .error(L10n.showSVGUsage(Self.svgScreens)(ctx.language))
        }
        return .ok(.string(svg), text: svg)
    }

    /// The screen `name` (one of `svgScreens`; `picker` is `activity-picker`) at `ctx.now`.
    public func svgScreen(_ name: String, _ ctx: NodeContext) -> String? {
        let l = ctx.language, now = ctx.now, cal = ctx.calendar
        switch name {
        case "workout":
            guard let screen = manager.screen(at: now) else {
                return WatchScreensSVG.picker(picker, nowMs: now, calendar: cal, language: l, view: "watch/workout")
            }
            return WatchScreensSVG.workout(screen, calendar: cal, language: l)
        case "rings":
            return WatchScreensSVG.rings(rings(ctx), nowMs: now, calendar: cal, language: l)
        case "complication":
            return ComplicationSVG.render(complication.displayed ?? ComplicationGauge(steps: 0, stepGoal: complication.latest.stepGoal))
        case "activity-picker", "picker":
            return WatchScreensSVG.picker(picker, nowMs: now, calendar: cal, language: l, view: "watch/activity-picker")
        case "goals":
            return WatchScreensSVG.goals(goals, entry: goalEntry, nowMs: now, calendar: cal, language: l)
        default:
            return nil
        }
    }
}
