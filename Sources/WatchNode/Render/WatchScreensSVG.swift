import PeerLinkCore
import FitnessDomain
import CountdownDomain
import SVGKit

/// The watch's screens drawn on a 45 mm Apple Watch (198 × 242 points), dark: the workout
/// screen (seed 001: ワークアウト記録画面 — heart rate, calories, elapsed time, the
/// 開始/一時停止/停止 buttons), today's activity rings (歩数 + カロリーの円形プログレス), the
/// Digital Crown activity picker and the countdown goals. Each draws one view model of the text
/// screens (`WorkoutScreen`, `ActivityRings`, `ActivityPicker`, `CountdownDisplayList`).
public enum WatchScreensSVG {
    static let width = 198.0
    static let height = 242.0

    /// A watch screen: background, the title in `color` top left, the clock top right.
    static func screen(title: String, color: String, nowMs: EpochMs, calendar: LocalCalendar) -> SVGDocument {
        var doc = SVGDocument(width: width, height: height, background: SVGTheme.background)
        doc.text(title, x: 10, y: 22, size: 14, fill: color, weight: 600, attributes: "data-title=\"\"")
        let t = calendar.timeOfDay(nowMs)
        doc.text("\(t.hour):\(t.minute < 10 ? "0" : "")\(t.minute)", x: width - 10, y: 22, size: 14, fill: SVGTheme.text, anchor: "end")
        return doc
    }

    static func symbol(_ activity: WorkoutActivityType) -> SVGSymbol {
        switch activity {
        case .running: .figureRun
        case .walking: .figureWalk
        case .cycling: .bicycle
        }
    }

    // MARK: - Workout

    /// The workout screen of a session: elapsed time, heart rate, calories, the buttons.
    public static func workout(_ s: WorkoutScreen, calendar: LocalCalendar, language l: AppLanguage) -> String {
        var doc = screen(title: s.activity.watchTitle(l), color: SVGTheme.accent, nowMs: s.atMs, calendar: calendar)
        doc.raw(symbol(s.activity).svg(x: 10, y: 30, size: 20, color: SVGTheme.accent))
        doc.text("\(s.location.watchTitle(l)) · \(s.state.watchTitle(l))", x: 36, y: 45, size: 12, fill: SVGTheme.secondary,
                 attributes: "data-value=\"state\" data-state=\"\(s.state.rawValue)\"")
        doc.text(WatchFormat.elapsed(s.elapsedMs), x: 10, y: 86, size: 34, fill: SVGTheme.goal, weight: 600, attributes: "data-value=\"elapsed\"")
        doc.raw(SVGSymbol.heart.svg(x: 10, y: 98, size: 16, color: SVGTheme.heart))
        doc.text(s.heartRateBpm.map { "\(WatchFormat.whole($0)) bpm" } ?? L10n.watchNoValue(l), x: 32, y: 112, size: 20, fill: SVGTheme.text,
                 weight: 600, attributes: "data-value=\"heartRate\"")
        doc.raw(SVGSymbol.flame.svg(x: 10, y: 124, size: 16, color: SVGTheme.energy))
        doc.text("\(WatchFormat.oneDecimal(s.energyKcal)) kcal", x: 32, y: 138, size: 20, fill: SVGTheme.text, weight: 600,
                 attributes: "data-value=\"calories\"")
        doc.text("\(L10n.watchHeartRate(l)) · \(L10n.watchCalories(l)) · \(L10n.watchElapsedTime(l))", x: 10, y: 160, size: 9,
                 fill: SVGTheme.secondary)
        let buttons = s.buttons
        let w = (width - 20 - Double(max(0, buttons.count - 1)) * 8) / Double(max(1, buttons.count))
        for (i, b) in buttons.enumerated() {
            let x = 10 + Double(i) * (w + 8)
            let color = b == .stop ? SVGTheme.energy : b == .start ? SVGTheme.accent : SVGTheme.goal
            doc.group("data-button=\"\(b.rawValue)\"") { doc in
                doc.rect(x: x, y: 178, width: w, height: 44, fill: color + "33", radius: 22)
                doc.text(b.title(l), x: x + w / 2, y: 205, size: 14, fill: color, weight: 600, anchor: "middle")
            }
        }
        return doc.render(attributes: "data-view=\"watch/workout\"")
    }

    // MARK: - Picker

    /// The activity picker: the three activities in crown order, the selected one highlighted,
    /// the location and the start button.
    public static func picker(_ p: ActivityPicker, nowMs: EpochMs, calendar: LocalCalendar, language l: AppLanguage, view: String) -> String {
        var doc = screen(title: L10n.watchWorkoutTitle(l), color: SVGTheme.accent, nowMs: nowMs, calendar: calendar)
        for (i, a) in WorkoutActivityType.allCases.enumerated() {
            let y = 34 + Double(i) * 48
            let selected = a == p.activity
            doc.group("data-activity=\"\(a.rawValue)\" data-selected=\"\(selected)\"") { doc in
                doc.rect(x: 6, y: y, width: width - 20, height: 42, fill: selected ? SVGTheme.accent + "33" : SVGTheme.card, radius: 12,
                         stroke: selected ? SVGTheme.accent : nil)
                doc.raw(symbol(a).svg(x: 14, y: y + 9, size: 24, color: selected ? SVGTheme.accent : SVGTheme.secondary))
                doc.text(a.watchTitle(l), x: 46, y: y + 27, size: 15, fill: SVGTheme.text, weight: selected ? 600 : 400)
            }
        }
        // The Digital Crown's scroll indicator on the right edge.
        let index = Double(WorkoutActivityType.allCases.firstIndex(of: p.activity) ?? 0)
        doc.rect(x: width - 8, y: 40, width: 3, height: 130, fill: SVGTheme.grid, radius: 1.5)
        doc.rect(x: width - 8, y: 40 + index * 43, width: 3, height: 44, fill: SVGTheme.accent, radius: 1.5)
        doc.text(p.location.watchTitle(l), x: 10, y: 196, size: 12, fill: SVGTheme.secondary, attributes: "data-value=\"location\"")
        doc.rect(x: 10, y: 204, width: width - 20, height: 32, fill: SVGTheme.accent, radius: 16)
        doc.text(L10n.watchButtonStart(l), x: width / 2, y: 225, size: 14, fill: "#000000", weight: 700, anchor: "middle")
        return doc.render(attributes: "data-view=\"\(view)\"")
    }

    // MARK: - Rings

    /// Today's activity: the steps ring (green, outer) and the calorie ring (red, inner) against
    /// the goals the phone shares, with their values.
    public static func rings(_ r: ActivityRings, nowMs: EpochMs, calendar: LocalCalendar, language l: AppLanguage) -> String {
        var doc = screen(title: L10n.watchTodayActivityTitle(l), color: SVGTheme.accent, nowMs: nowMs, calendar: calendar)
        doc.ring(cx: 99, cy: 100, r: 62, lineWidth: 18, fraction: r.steps.fraction, color: SVGTheme.accent, label: "steps")
        doc.ring(cx: 99, cy: 100, r: 41, lineWidth: 18, fraction: r.energy.fraction, color: SVGTheme.energy, label: "energy")
        doc.raw(SVGSymbol.figureWalk.svg(x: 91, y: 31, size: 16, color: "#000000"))
        doc.text("\(L10n.watchSteps(l)) \(WatchFormat.grouped(Int(r.steps.value)))/\(WatchFormat.grouped(Int(r.steps.goal)))", x: 10, y: 200,
                 size: 14, fill: SVGTheme.accent, weight: 600, attributes: "data-value=\"steps\"")
        doc.text("\(WatchFormat.oneDecimal(r.energy.value))/\(WatchFormat.grouped(Int(r.energy.goal))) kcal", x: 10, y: 222, size: 14,
                 fill: SVGTheme.energy, weight: 600, attributes: "data-value=\"energy\"")
        return doc.render(attributes: "data-view=\"watch/rings\"")
    }

    // MARK: - Goals

    /// The countdown goals on the watch: the complication's entry (top goal) and the list.
    public static func goals(_ list: CountdownDisplayList?, entry: CountdownComplicationEntry?, nowMs: EpochMs, calendar: LocalCalendar,
                             language l: AppLanguage) -> String {
        var doc = screen(title: L10n.watchGoal(l), color: SVGTheme.accent, nowMs: nowMs, calendar: calendar)
        let items = list?.items ?? []
        if items.isEmpty {
            doc.text(L10n.countdownNoGoal(l), x: width / 2, y: 120, size: 13, fill: SVGTheme.secondary, anchor: "middle",
                     attributes: "data-value=\"empty\"")
        }
        for (i, item) in items.prefix(4).enumerated() {
            let y = 32 + Double(i) * 50
            doc.rect(x: 6, y: y, width: width - 12, height: 44, fill: SVGTheme.card, radius: 10)
            doc.text(item.title, x: 14, y: y + 19, size: 13, fill: SVGTheme.text, weight: 600, attributes: "data-goal=\"\(SVGText.escape(item.goalID))\"")
            doc.text(item.status.message(l), x: 14, y: y + 36, size: 11, fill: SVGTheme.secondary)
            if let days = item.daysLeft {
                doc.text("\(days)", x: width - 14, y: y + 30, size: 20, fill: SVGTheme.accent, weight: 700, anchor: "end")
            }
        }
        if let entry {
            doc.text(entry.text(l), x: 10, y: 234, size: 10, fill: SVGTheme.secondary, attributes: "data-value=\"complication\"")
        }
        return doc.render(attributes: "data-view=\"watch/goals\"")
    }
}

/// The step complication drawn as WidgetKit's `accessoryCircular` family with the
/// `accessoryCircularCapacity` gauge style (seed 001: 現在の歩数を表示する CircularGauge スタイル):
/// a ring filled to steps ÷ goal around the compact step count, on the 50 × 50 point face slot.
public enum ComplicationSVG {
    public static func render(_ g: ComplicationGauge) -> String {
        var doc = SVGDocument(width: 50, height: 50)
        doc.circle(cx: 25, cy: 25, r: 25, fill: "#000000")
        doc.ring(cx: 25, cy: 25, r: 21, lineWidth: 5, fraction: g.fraction, color: SVGTheme.accent, label: "steps")
        doc.raw(SVGSymbol.figureWalk.svg(x: 20, y: 9, size: 10, color: SVGTheme.accent))
        doc.text(g.label, x: 25, y: 33, size: 12, fill: SVGTheme.text, weight: 700, anchor: "middle", attributes: "data-value=\"steps\"")
        return doc.render(attributes: "data-view=\"watch/complication\" data-family=\"\(ComplicationGauge.family)\" data-gauge-style=\"\(ComplicationGauge.gaugeStyle)\"")
    }
}
