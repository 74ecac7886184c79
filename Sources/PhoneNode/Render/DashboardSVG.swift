import PeerLinkCore
import FitnessDomain
import SVGKit

/// The dashboard tab drawn (seed 001, タブ1): today's steps as a large number with its ring,
/// the calorie ring, the latest heart rate over a line chart of the past 24 hours, and last
/// night's sleep as bars per stage with the score and its evaluation. Every value comes from
/// `FitnessDashboard`, the view model of the text screen; a missing value shows "—".
public enum DashboardSVG {
    /// The screen at `nowMs` (the status-bar clock and the chart's 24-hour window).
    public static func render(_ d: FitnessDashboard, nowMs: EpochMs, calendar: LocalCalendar, language l: AppLanguage) -> String {
        typealias C = PhoneChromeSVG
        var doc = C.screen(title: L10n.fitnessTabDashboard(l), nowMs: nowMs, calendar: calendar)
        steps(&doc, d, l, y: 110)
        calories(&doc, d, l, y: 300)
        heartRate(&doc, d, nowMs: nowMs, l, y: 418)
        sleep(&doc, d, l, y: 578)
        C.tabBar(&doc, selected: .dashboard, language: l)
        return doc.render(attributes: "data-view=\"phone/dashboard\"")
    }

    static func steps(_ doc: inout SVGDocument, _ d: FitnessDashboard, _ l: AppLanguage, y: Double) {
        typealias C = PhoneChromeSVG
        doc.group("data-card=\"steps\"") { doc in
            C.card(&doc, y: y, height: 180)
            C.cardTitle(&doc, L10n.fitnessTodaySteps(l), symbol: .figureWalk, color: SVGTheme.accent, y: y)
            doc.text(d.steps.map(FitnessFormat.grouped) ?? L10n.fitnessPlaceholder(l), x: C.margin + 16, y: y + 100, size: 48,
                     fill: SVGTheme.text, weight: 700, attributes: "data-value=\"steps\"")
            doc.text(L10n.fitnessSteps(l), x: C.margin + 18, y: y + 126, size: 15, fill: SVGTheme.secondary)
            let goal = L10n.screenGoal(FitnessFormat.steps(d.stepGoal)(l))(l)
            doc.text(goal + (d.stepProgress == nil ? "" : " · \(FitnessFormat.percent(d.stepProgress))"), x: C.margin + 18, y: y + 156,
                     size: 14, fill: SVGTheme.secondary)
            doc.ring(cx: C.width - C.margin - 80, cy: y + 98, r: 58, lineWidth: 18, fraction: d.stepProgress, color: SVGTheme.accent,
                     label: "steps")
        }
    }

    static func calories(_ doc: inout SVGDocument, _ d: FitnessDashboard, _ l: AppLanguage, y: Double) {
        typealias C = PhoneChromeSVG
        doc.group("data-card=\"calories\"") { doc in
            C.card(&doc, y: y, height: 108)
            C.cardTitle(&doc, L10n.fitnessActiveCalories(l), symbol: .flame, color: SVGTheme.energy, y: y)
            doc.text(FitnessFormat.kcal(d.caloriesKcal), x: C.margin + 16, y: y + 74, size: 30, fill: SVGTheme.text, weight: 700,
                     attributes: "data-value=\"calories\"")
            doc.text("/ \(FitnessFormat.grouped(d.calorieGoalKcal)) kcal", x: C.margin + 18, y: y + 96, size: 13, fill: SVGTheme.secondary)
            doc.ring(cx: C.width - C.margin - 80, cy: y + 56, r: 34, lineWidth: 12, fraction: d.calorieProgress, color: SVGTheme.energy,
                     label: "calories")
        }
    }

    static func heartRate(_ doc: inout SVGDocument, _ d: FitnessDashboard, nowMs: EpochMs, _ l: AppLanguage, y: Double) {
        typealias C = PhoneChromeSVG
        doc.group("data-card=\"heartRate\"") { doc in
            C.card(&doc, y: y, height: 150)
            C.cardTitle(&doc, L10n.fitnessHeartRate(l), symbol: .heart, color: SVGTheme.heart, y: y)
            doc.text(FitnessFormat.bpm(d.latestHeartRate?.bpm), x: C.width - C.margin - 16, y: y + 28, size: 20, fill: SVGTheme.text,
                     weight: 700, anchor: "end", attributes: "data-value=\"heartRate\"")
            doc.text(L10n.screenPast24Hours(l), x: C.margin + 16, y: y + 140, size: 11, fill: SVGTheme.secondary)
            let chart = (x: C.margin + 16, y: y + 44, w: C.width - 2 * C.margin - 32, h: 80.0)
            doc.line(x1: chart.x, y1: chart.y + chart.h, x2: chart.x + chart.w, y2: chart.y + chart.h, stroke: SVGTheme.grid)
            let points = LineChartPoints.bucketed(d.heartRateSeries.map { (x: $0.atMs, y: $0.bpm) },
                                                  fromX: nowMs - 24 * 3_600_000, toX: nowMs, buckets: 160)
            guard !points.isEmpty else {
                doc.text(L10n.fitnessPlaceholder(l), x: chart.x + chart.w / 2, y: chart.y + chart.h / 2 + 6, size: 18,
                         fill: SVGTheme.secondary, anchor: "middle")
                return
            }
            let lo = (points.map(\.y).min() ?? 0) - 5, hi = (points.map(\.y).max() ?? 0) + 5
            let placed = points.map { p in
                (x: chart.x + chart.w * p.x, y: chart.y + chart.h - chart.h * (p.y - lo) / max(1, hi - lo))
            }
            doc.polyline(placed, stroke: SVGTheme.heart, width: 2, attributes: "data-chart=\"heartRate\" data-points=\"\(placed.count)\"")
            if let last = placed.last { doc.circle(cx: last.x, cy: last.y, r: 4, fill: SVGTheme.heart) }
            doc.text("\(Int(hi.rounded()))", x: chart.x + chart.w, y: chart.y - 2, size: 10, fill: SVGTheme.secondary, anchor: "end")
            doc.text("\(Int(lo.rounded()))", x: chart.x + chart.w, y: chart.y + chart.h + 12, size: 10, fill: SVGTheme.secondary, anchor: "end")
        }
    }

    static func sleep(_ doc: inout SVGDocument, _ d: FitnessDashboard, _ l: AppLanguage, y: Double) {
        typealias C = PhoneChromeSVG
        doc.group("data-card=\"sleep\"") { doc in
            C.card(&doc, y: y, height: 172)
            C.cardTitle(&doc, L10n.fitnessSleepScore(l), symbol: .bed, color: SVGTheme.sleep, y: y)
            guard let sleep = d.sleep, let score = sleep.score, let evaluation = sleep.evaluation else {
                doc.text(L10n.fitnessPlaceholder(l), x: C.margin + 16, y: y + 80, size: 30, fill: SVGTheme.secondary, weight: 700)
                return
            }
            doc.text(L10n.fitnessScoreValue(score)(l), x: C.margin + 16, y: y + 68, size: 28, fill: SVGTheme.text, weight: 700,
                     attributes: "data-value=\"sleepScore\"")
            doc.text(evaluation.label(l), x: C.margin + 120, y: y + 66, size: 17, fill: SVGTheme.sleep, weight: 600)
            doc.text(evaluation.message(l), x: C.margin + 16, y: y + 90, size: 13, fill: SVGTheme.secondary,
                     attributes: "data-value=\"sleepEvaluation\"")
            let bars = d.sleepBars
            let most = max(1, bars.map(\.minutes).max() ?? 1)
            let slot = (C.width - 2 * C.margin - 32) / Double(max(1, bars.count))
            for (i, bar) in bars.enumerated() {
                let h = 44 * bar.minutes / most
                let x = C.margin + 16 + slot * Double(i)
                doc.rect(x: x + 4, y: y + 146 - h, width: slot - 8, height: max(1, h), fill: SVGTheme.sleepStage(bar.stage), radius: 3,
                         attributes: "data-bar=\"\(bar.stage.name)\" data-minutes=\"\(FitnessFormat.roundedCount(bar.minutes))\"")
                doc.text(L10n.fitnessSleepStage(bar.stage)(l), x: x + slot / 2, y: y + 162, size: 10, fill: SVGTheme.secondary, anchor: "middle")
            }
        }
    }
}
