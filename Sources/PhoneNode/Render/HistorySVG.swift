import PeerLinkCore
import FitnessDomain
import SVGKit

/// The history tab drawn (seed 001, タブ2): the 週間/月間 segmented control, the step trend
/// as daily bars with the goal as a dashed line, and the daily detail list (newest first).
/// Every value comes from `FitnessHistory`, the text screen's view model.
public enum HistorySVG {
    /// Rows of the detail list that fit under the chart.
    static let maxRows = 9

    /// The screen at `nowMs`.
    public static func render(_ h: FitnessHistory, nowMs: EpochMs, calendar: LocalCalendar, language l: AppLanguage) -> String {
        typealias C = PhoneChromeSVG
        var doc = C.screen(title: L10n.fitnessTabHistory(l), nowMs: nowMs, calendar: calendar)
        segments(&doc, selected: h.range, l)
        chart(&doc, h, l, y: 160)
        details(&doc, h, l, y: 450)
        C.tabBar(&doc, selected: .history, language: l)
        return doc.render(attributes: "data-view=\"phone/history-\(h.range.rawValue)\"")
    }

    static func segments(_ doc: inout SVGDocument, selected: FitnessHistoryRange, _ l: AppLanguage) {
        typealias C = PhoneChromeSVG
        let w = C.width - 2 * C.margin
        doc.rect(x: C.margin, y: 110, width: w, height: 34, fill: SVGTheme.card, radius: 9)
        for (i, range) in FitnessHistoryRange.allCases.enumerated() {
            let x = C.margin + 2 + Double(i) * (w / 2)
            if range == selected { doc.rect(x: x, y: 112, width: w / 2 - 4, height: 30, fill: SVGTheme.control, radius: 7) }
            doc.text(range.title(l), x: x + w / 4 - 2, y: 132, size: 14, fill: SVGTheme.text, weight: range == selected ? 600 : 400,
                     anchor: "middle")
        }
    }

    static func chart(_ doc: inout SVGDocument, _ h: FitnessHistory, _ l: AppLanguage, y: Double) {
        typealias C = PhoneChromeSVG
        doc.group("data-card=\"stepTrend\"") { doc in
            C.card(&doc, y: y, height: 276)
            C.cardTitle(&doc, "\(h.range.title(l)) \(L10n.fitnessStepTrend(l))", symbol: .chart, color: SVGTheme.accent, y: y)
            doc.text(L10n.fitnessAverage(FitnessFormat.steps(h.averageSteps))(l), x: C.margin + 16, y: y + 58, size: 20, fill: SVGTheme.text,
                     weight: 700, attributes: "data-value=\"average\"")
            let area = (x: C.margin + 16, y: y + 80, w: C.width - 2 * C.margin - 32, h: 160.0)
            let top = Double(max(h.stepGoal, h.days.compactMap(\.steps).max() ?? 0)) * 1.15
            func yOf(_ v: Double) -> Double { area.y + area.h - area.h * v / max(1, top) }
            doc.line(x1: area.x, y1: area.y + area.h, x2: area.x + area.w, y2: area.y + area.h, stroke: SVGTheme.grid)
            let slot = area.w / Double(max(1, h.days.count))
            for (i, day) in h.days.enumerated() {
                let x = area.x + slot * Double(i)
                if let steps = day.steps {
                    let met = steps >= h.stepGoal
                    doc.rect(x: x + slot * 0.15, y: yOf(Double(steps)), width: slot * 0.7, height: area.y + area.h - yOf(Double(steps)),
                             fill: met ? SVGTheme.accent : SVGTheme.accent + "99", radius: min(4, slot * 0.2),
                             attributes: "data-bar=\"\(day.day)\" data-steps=\"\(steps)\"")
                }
                if h.days.count <= 7 || i % 5 == 4 {
                    doc.text(h.days.count <= 7 ? "\(day.day.month)/\(day.day.day)" : "\(day.day.day)", x: x + slot / 2, y: area.y + area.h + 16,
                             size: 10, fill: SVGTheme.secondary, anchor: "middle")
                }
            }
            let gy = yOf(Double(h.stepGoal))
            doc.line(x1: area.x, y1: gy, x2: area.x + area.w, y2: gy, stroke: SVGTheme.goal, width: 1.5, dash: "5 4",
                     attributes: "data-goal-line=\"\(h.stepGoal)\"")
            doc.text(L10n.screenGoal(FitnessFormat.steps(h.stepGoal)(l))(l), x: area.x + area.w, y: gy - 5, size: 11, fill: SVGTheme.goal,
                     anchor: "end")
        }
    }

    static func details(_ doc: inout SVGDocument, _ h: FitnessHistory, _ l: AppLanguage, y: Double) {
        typealias C = PhoneChromeSVG
        doc.text(L10n.fitnessDailyDetails(l), x: C.margin, y: y, size: 17, fill: SVGTheme.text, weight: 600)
        let rows = h.detailRows.prefix(maxRows)
        C.card(&doc, y: y + 10, height: Double(rows.count) * 32 + 8)
        for (i, row) in rows.enumerated() {
            let ry = y + 36 + Double(i) * 32
            doc.text(row.day.description, x: C.margin + 16, y: ry, size: 14, fill: SVGTheme.text)
            doc.text(FitnessFormat.steps(row.steps)(l), x: C.margin + 230, y: ry, size: 14, fill: SVGTheme.accent, anchor: "end")
            doc.text(FitnessFormat.kcal(row.caloriesKcal), x: C.width - C.margin - 16, y: ry, size: 14, fill: SVGTheme.energy, anchor: "end")
        }
    }
}
