import PeerLinkCore
import CountdownDomain

/// `show SCREEN --svg`: the phone's screens drawn, from the same view models as the text
/// screens (`show SCREEN`). Read-only: it is the `readOnly` column of the `show` rows
/// (PhoneApp+Commands.swift), answered through `NodeApp.readOnlyReply`, so a running node,
/// `phone-node show … --svg` and the report's captures change nothing.
extension PhoneApp {
    /// The screens drawn as SVG.
    public static let svgScreens = [
        "dashboard", "history-weekly", "history-monthly", "settings", "widget-small", "widget-medium", "widget-countdown", "goals",
        "notifications",
    ]

    /// `show SCREEN --svg` (also `show history weekly --svg`); nil for any other command.
    func svgReply(_ command: NodeCommand, _ ctx: NodeContext) -> CommandReply? {
        let w = command.words
        guard w.count >= 3, w.first == "show", w.last == "--svg" else { return nil }
        let name = w.dropFirst().dropLast().joined(separator: "-")
        guard let svg = svgScreen(name, ctx) else {
            return .error(L10n.showSVGUsage(Self.svgScreens)(ctx.language))
        }
        return .ok(.string(svg), text: svg)
    }

    /// The screen `name` (one of `svgScreens`) as SVG at `ctx.now`; nil for an unknown name.
    public func svgScreen(_ name: String, _ ctx: NodeContext) -> String? {
        let l = ctx.language, now = ctx.now, cal = ctx.calendar
        switch name {
        case "dashboard":
            return DashboardSVG.render(dashboard(ctx), nowMs: now, calendar: cal, language: l)
        case "history-weekly", "history":
            return HistorySVG.render(history(.weekly, ctx), nowMs: now, calendar: cal, language: l)
        case "history-monthly":
            return HistorySVG.render(history(.monthly, ctx), nowMs: now, calendar: cal, language: l)
        case "settings":
            return SettingsSVG.render(settings(ctx), authorization: state.auth.authorization, lastExport: state.exports.last?.path,
                                      nowMs: now, calendar: cal, language: l)
        case "widget-small":
            return WidgetsSVG.small(smallWidgetEntry(ctx), language: l)
        case "widget-medium":
            return WidgetsSVG.medium(mediumWidgetEntry(ctx), language: l)
        case "widget-countdown":
            return WidgetsSVG.countdown(countdownWidgetTimeline()?.current, language: l)
        case "goals":
            let list = CountdownDisplayList.recompute(goals: goals(ctx), profile: profile(ctx), nowMs: now, calendar: cal)
            return GoalsListSVG.render(list, widget: countdownWidgetTimeline()?.current, nowMs: now, calendar: cal, language: l)
        case "notifications":
            let n = state.notifications
            return NotificationsSVG.render(
                pending: n.pending.items.map { .init(atMs: $0.fireMs, title: $0.title, body: $0.body) },
                delivered: n.delivered.suffix(10).map { .init(atMs: $0.deliveredMs, title: $0.notification.title, body: $0.notification.body, response: $0.response) },
                deliveredTotal: n.deliveredTotal, nowMs: now, calendar: cal, language: l)
        default:
            return nil
        }
    }
}
