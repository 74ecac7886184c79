import PeerLinkCore
import FitnessDomain
import SVGKit

/// The parts every phone screen shares: the dark 390 × 844 screen, the status bar's clock,
/// the large title, cards, and the tab bar of the three tabs (ダッシュボード, 履歴, 設定).
enum PhoneChromeSVG {
    static let width = 390.0
    static let height = 844.0
    static let margin = 16.0

    /// The tab a screen belongs to (highlighted in the tab bar); nil for screens without one.
    enum Tab: CaseIterable {
        case dashboard, history, settings

        var title: LocalizedText {
            switch self {
            case .dashboard: L10n.fitnessTabDashboard
            case .history: L10n.fitnessTabHistory
            case .settings: L10n.fitnessTabSettings
            }
        }

        var symbol: SVGSymbol {
            switch self {
            case .dashboard: .heartText
            case .history: .chart
            case .settings: .gear
            }
        }
    }

    /// A new phone screen: background, status-bar clock at `nowMs`, the large `title`.
    static func screen(title: String, nowMs: EpochMs, calendar: LocalCalendar) -> SVGDocument {
        var doc = SVGDocument(width: width, height: height, background: SVGTheme.background)
        let t = calendar.timeOfDay(nowMs)
        doc.text("\(t.hour):\(t.minute < 10 ? "0" : "")\(t.minute)", x: 36, y: 34, size: 16, fill: SVGTheme.text, weight: 600)
        doc.text(title, x: margin, y: 92, size: 32, fill: SVGTheme.text, weight: 700, attributes: "data-title=\"\"")
        return doc
    }

    /// A rounded card across the screen from `y`, `height` tall.
    static func card(_ doc: inout SVGDocument, y: Double, height: Double) {
        doc.rect(x: margin, y: y, width: width - 2 * margin, height: height, fill: SVGTheme.card, radius: 14)
    }

    /// A card's heading: its symbol in `color` and its title.
    static func cardTitle(_ doc: inout SVGDocument, _ title: String, symbol: SVGSymbol, color: String, y: Double) {
        doc.raw(symbol.svg(x: margin + 14, y: y + 12, size: 18, color: color))
        doc.text(title, x: margin + 40, y: y + 27, size: 15, fill: color, weight: 600)
    }

    /// The tab bar, `selected` highlighted in the accent colour.
    static func tabBar(_ doc: inout SVGDocument, selected: Tab?, language: AppLanguage) {
        doc.rect(x: 0, y: height - 84, width: width, height: 84, fill: "#121212")
        doc.line(x1: 0, y1: height - 84, x2: width, y2: height - 84, stroke: SVGTheme.grid, width: 0.5)
        for (i, tab) in Tab.allCases.enumerated() {
            let cx = width / 6 * Double(2 * i + 1)
            let color = tab == selected ? SVGTheme.accent : SVGTheme.secondary
            doc.raw(tab.symbol.svg(x: cx - 12, y: height - 76, size: 24, color: color))
            doc.text(tab.title(language), x: cx, y: height - 40, size: 10, fill: color, anchor: "middle")
        }
    }

    /// A one-line row of a list: `label` on the left, `value` on the right.
    static func row(_ doc: inout SVGDocument, y: Double, label: String, value: String, valueColor: String = SVGTheme.secondary) {
        doc.text(label, x: margin + 16, y: y, size: 16, fill: SVGTheme.text)
        doc.text(value, x: width - margin - 16, y: y, size: 16, fill: valueColor, anchor: "end")
    }
}
