import PeerLinkCore
import FitnessDomain
import CountdownDomain
import SVGKit

/// The home-screen widgets drawn at WidgetKit's sizes on a 390-point iPhone: small 170 × 170
/// (today's steps and the ring), medium 364 × 170 (steps, calories and heart rate side by
/// side), both in the fitness-green accent; and the countdown widget (small) with the top goal.
/// Values are the widgets' current entries, as the text screen shows them; before the first
/// timeline every value is "—".
public enum WidgetsSVG {
    static let smallSide = 170.0
    static let mediumWidth = 364.0
    static let corner = 22.0
    static let background = "#1C1C1E"

    /// The small fitness widget.
    public static func small(_ e: FitnessSmallWidgetEntry?, language l: AppLanguage) -> String {
        var doc = SVGDocument(width: smallSide, height: smallSide)
        doc.rect(x: 0, y: 0, width: smallSide, height: smallSide, fill: background, radius: corner)
        doc.raw(SVGSymbol.figureWalk.svg(x: 14, y: 14, size: 18, color: SVGTheme.accent))
        doc.text(L10n.fitnessTodaySteps(l), x: 36, y: 28, size: 12, fill: SVGTheme.accent, weight: 600)
        doc.ring(cx: 85, cy: 92, r: 40, lineWidth: 12, fraction: e?.ringFraction, color: SVGTheme.accent, label: "steps")
        doc.text(e?.steps.map(FitnessFormat.grouped) ?? L10n.fitnessPlaceholder(l), x: 85, y: 98, size: 18, fill: SVGTheme.text, weight: 700,
                 anchor: "middle", attributes: "data-value=\"steps\"")
        doc.text(e.map { "/ \(FitnessFormat.grouped($0.stepGoal))" } ?? "", x: 85, y: 154, size: 11, fill: SVGTheme.secondary, anchor: "middle")
        return doc.render(attributes: "data-view=\"phone/widget-small\" data-family=\"systemSmall\" data-url=\"\(FitnessWidgets.deepLink)\"")
    }

    /// The medium fitness widget.
    public static func medium(_ e: FitnessMediumWidgetEntry?, language l: AppLanguage) -> String {
        var doc = SVGDocument(width: mediumWidth, height: smallSide)
        doc.rect(x: 0, y: 0, width: mediumWidth, height: smallSide, fill: background, radius: corner)
        let columns: [(SVGSymbol, String, String, String, String)] = [
            (.figureWalk, L10n.fitnessSteps(l), e?.steps.map(FitnessFormat.grouped) ?? L10n.fitnessPlaceholder(l), SVGTheme.accent, "steps"),
            (.flame, L10n.fitnessActiveCalories(l), FitnessFormat.kcal(e?.caloriesKcal), SVGTheme.energy, "calories"),
            (.heart, L10n.fitnessHeartRate(l), FitnessFormat.bpm(e?.heartRateBpm), SVGTheme.heart, "heartRate"),
        ]
        let w = mediumWidth / 3
        for (i, (symbol, title, value, color, key)) in columns.enumerated() {
            let cx = w * Double(i) + w / 2
            doc.raw(symbol.svg(x: cx - 14, y: 26, size: 28, color: i == 0 ? SVGTheme.accent : color))
            doc.text(title, x: cx, y: 84, size: 11, fill: SVGTheme.secondary, anchor: "middle")
            doc.text(value, x: cx, y: 116, size: 17, fill: SVGTheme.text, weight: 700, anchor: "middle", attributes: "data-value=\"\(key)\"")
            if i > 0 { doc.line(x1: w * Double(i), y1: 30, x2: w * Double(i), y2: 140, stroke: SVGTheme.grid, width: 0.5) }
        }
        if let e, e.stepGoal > 0, let steps = e.steps {
            let f = min(1, Double(steps) / Double(e.stepGoal))
            doc.rect(x: 20, y: 140, width: w - 40, height: 5, fill: SVGTheme.accent + "40", radius: 2.5)
            doc.rect(x: 20, y: 140, width: (w - 40) * f, height: 5, fill: SVGTheme.accent, radius: 2.5, attributes: "data-fraction=\"\(SVGNumber.fraction(f))\"")
        }
        return doc.render(attributes: "data-view=\"phone/widget-medium\" data-family=\"systemMedium\" data-url=\"\(FitnessWidgets.deepLink)\"")
    }

    /// The countdown widget (small): the top goal's title and days left, or
    /// "目標を設定してください".
    public static func countdown(_ e: CountdownWidgetEntry?, language l: AppLanguage) -> String {
        var doc = SVGDocument(width: smallSide, height: smallSide)
        doc.rect(x: 0, y: 0, width: smallSide, height: smallSide, fill: background, radius: corner)
        doc.raw(SVGSymbol.calendar.svg(x: 14, y: 14, size: 20, color: SVGTheme.accent))
        guard let e else {
            doc.text(L10n.phoneWidgetNotLoaded(l), x: 85, y: 96, size: 14, fill: SVGTheme.secondary, anchor: "middle")
            return doc.render(attributes: "data-view=\"phone/widget-countdown\" data-family=\"systemSmall\"")
        }
        let headline = e.headline(l)
        for (i, line) in NotificationsSVG.wrap(headline, limit: l == .ja ? 8 : 16).prefix(2).enumerated() {
            doc.text(line, x: 16, y: 66 + Double(i) * 20, size: 16, fill: SVGTheme.text, weight: 600, attributes: "data-value=\"title\"")
        }
        if let days = e.goal?.daysLeft, days > 0 {
            doc.text("\(days)", x: 16, y: 130, size: 40, fill: SVGTheme.accent, weight: 700, attributes: "data-value=\"daysLeft\"")
        }
        if let detail = e.detail(l) {
            doc.text(detail, x: 16, y: 154, size: 13, fill: SVGTheme.secondary, weight: 600, attributes: "data-value=\"message\"")
        }
        return doc.render(attributes: "data-view=\"phone/widget-countdown\" data-family=\"systemSmall\" data-url=\"\(SVGText.escape(e.link.url))\"")
    }
}

/// The countdown goals list drawn (seed 000: タイトルと残り日数を明確に表示, リスト形式):
/// each goal's title and days left or status message, "目標を設定してください" when empty.
/// The watch draws the same list on its screen.
public enum GoalsListSVG {
    /// The phone's goals screen at `nowMs`, with the widget's line at the bottom.
    public static func render(_ list: CountdownDisplayList, widget: CountdownWidgetEntry?, nowMs: EpochMs, calendar: LocalCalendar,
                              language l: AppLanguage) -> String {
        typealias C = PhoneChromeSVG
        var doc = C.screen(title: L10n.phoneGoals(l), nowMs: nowMs, calendar: calendar)
        if list.items.isEmpty {
            doc.text(L10n.countdownNoGoal(l), x: C.width / 2, y: 300, size: 17, fill: SVGTheme.secondary, anchor: "middle",
                     attributes: "data-value=\"empty\"")
        }
        for (i, item) in list.items.prefix(9).enumerated() {
            let y = 112 + Double(i) * 72
            C.card(&doc, y: y, height: 62)
            doc.raw((item.isAgeGoal ? SVGSymbol.figureWalk : SVGSymbol.calendar).svg(x: C.margin + 14, y: y + 19, size: 24, color: SVGTheme.accent))
            doc.text(item.title, x: C.margin + 50, y: y + 27, size: 16, fill: SVGTheme.text, weight: 600, attributes: "data-goal=\"\(SVGText.escape(item.goalID))\"")
            doc.text(item.status.message(l), x: C.margin + 50, y: y + 48, size: 13, fill: SVGTheme.secondary)
            if let days = item.daysLeft {
                doc.text("\(days)", x: C.width - C.margin - 16, y: y + 40, size: 26, fill: SVGTheme.accent, weight: 700, anchor: "end")
            }
        }
        if let widget {
            doc.text("[widget] \(widget.text(l))", x: C.margin, y: C.height - 100, size: 12, fill: SVGTheme.secondary)
        }
        C.tabBar(&doc, selected: nil, language: l)
        return doc.render(attributes: "data-view=\"phone/goals\"")
    }
}
