import PeerLinkCore
import FitnessDomain
import CountdownDomain
import SVGKit

/// The settings tab drawn (seed 001, タブ3): 歩数目標の変更, 通知の ON/OFF (and the weekly
/// summary and run-detection switches), HealthKit 連携状態の確認 per data type, and the
/// データをエクスポート button. The same values as the text screen.
public enum SettingsSVG {
    /// The screen at `nowMs`; `lastExport` is the last CSV file written, if any.
    public static func render(_ s: AppSettings, authorization: HealthAuthorization, lastExport: String?, nowMs: EpochMs,
                              calendar: LocalCalendar, language l: AppLanguage) -> String {
        typealias C = PhoneChromeSVG
        var doc = C.screen(title: L10n.fitnessTabSettings(l), nowMs: nowMs, calendar: calendar)
        C.card(&doc, y: 112, height: 48)
        C.row(&doc, y: 142, label: L10n.fitnessChangeStepGoal(l), value: FitnessFormat.steps(s.stepGoal)(l), valueColor: SVGTheme.accent)
        let switches: [(LocalizedText, Bool, String)] = [
            (L10n.fitnessNotificationsToggle, s.notificationsEnabled, "notifications"),
            (L10n.fitnessWeeklySummaryToggle, s.weeklySummaryEnabled, "weeklySummary"),
            (L10n.fitnessRunDetectionToggle, s.runDetectionEnabled, "runDetection"),
        ]
        C.card(&doc, y: 176, height: Double(switches.count) * 48)
        for (i, (label, on, key)) in switches.enumerated() {
            let y = 176 + Double(i) * 48
            doc.text(label(l), x: C.margin + 16, y: y + 30, size: 16, fill: SVGTheme.text)
            toggle(&doc, x: C.width - C.margin - 67, y: y + 9, on: on, key: key)
        }
        doc.text(L10n.fitnessHealthKitStatus(l), x: C.margin, y: 352, size: 15, fill: SVGTheme.secondary, weight: 600)
        C.card(&doc, y: 364, height: Double(HealthDataType.allCases.count) * 44)
        for (i, type) in HealthDataType.allCases.enumerated() {
            let status = authorization.status(type)
            C.row(&doc, y: 392 + Double(i) * 44, label: type.title(l), value: status.text(l),
                  valueColor: status == .granted ? SVGTheme.accent : status == .denied ? SVGTheme.warning : SVGTheme.secondary)
        }
        let ey = 364 + Double(HealthDataType.allCases.count) * 44 + 24
        C.card(&doc, y: ey, height: 48)
        doc.raw(SVGSymbol.export.svg(x: C.margin + 14, y: ey + 12, size: 22, color: SVGTheme.accent))
        doc.text(FitnessCSVExport.buttonLabel(l), x: C.margin + 46, y: ey + 30, size: 16, fill: SVGTheme.accent,
                 attributes: "data-button=\"export\"")
        if let lastExport {
            doc.text(String(lastExport.split(separator: "/").last ?? ""), x: C.margin + 4, y: ey + 70, size: 11, fill: SVGTheme.secondary)
        }
        C.tabBar(&doc, selected: .settings, language: l)
        return doc.render(attributes: "data-view=\"phone/settings\"")
    }

    /// An iOS switch: green and knob right when on.
    static func toggle(_ doc: inout SVGDocument, x: Double, y: Double, on: Bool, key: String) {
        doc.group("data-toggle=\"\(key)\" data-on=\"\(on)\"") { doc in
            doc.rect(x: x, y: y, width: 51, height: 31, fill: on ? SVGTheme.accent : "#39393D", radius: 15.5)
            doc.circle(cx: on ? x + 35.5 : x + 15.5, cy: y + 15.5, r: 13.5, fill: "#FFFFFF")
        }
    }
}

/// The notifications screen drawn: the pending requests (weekly summary, run prompt) and the
/// delivered ones, newest first, as banners.
public enum NotificationsSVG {
    /// One banner: when it fires or fired, its title and body, and the user's answer.
    public struct Item: Sendable {
        public var atMs: EpochMs
        public var title: String
        public var body: String
        public var response: String?

        public init(atMs: EpochMs, title: String, body: String, response: String? = nil) {
            self.atMs = atMs
            self.title = title
            self.body = body
            self.response = response
        }
    }

    /// The screen at `nowMs`: `pending` then `delivered` (oldest first; drawn newest first).
    public static func render(pending: [Item], delivered: [Item], deliveredTotal: Int, nowMs: EpochMs, calendar: LocalCalendar,
                              language l: AppLanguage) -> String {
        typealias C = PhoneChromeSVG
        var doc = C.screen(title: L10n.phoneNotificationsDelivered(l), nowMs: nowMs, calendar: calendar)
        var y = 112.0
        func section(_ title: String, _ items: [Item], color: String) {
            doc.text(title, x: C.margin, y: y + 14, size: 15, fill: SVGTheme.secondary, weight: 600)
            y += 26
            if items.isEmpty {
                doc.text(L10n.screenNoNotifications(l), x: C.margin + 4, y: y + 16, size: 14, fill: SVGTheme.secondary)
                y += 34
            }
            for item in items where y < C.height - 190 {
                C.card(&doc, y: y, height: 78)
                doc.raw(SVGSymbol.bell.svg(x: C.margin + 12, y: y + 12, size: 18, color: color))
                doc.text(item.title, x: C.margin + 38, y: y + 26, size: 14, fill: SVGTheme.text, weight: 600, attributes: "data-notification=\"\"")
                doc.text(PhoneTime.dateTime(item.atMs, calendar), x: C.width - C.margin - 12, y: y + 26, size: 11, fill: SVGTheme.secondary,
                         anchor: "end")
                for (i, line) in wrap(item.body, limit: l == .ja ? 24 : 44).prefix(2).enumerated() {
                    doc.text(line, x: C.margin + 12, y: y + 48 + Double(i) * 17, size: 13, fill: SVGTheme.secondary)
                }
                if let r = item.response { doc.text("[\(r)]", x: C.width - C.margin - 12, y: y + 70, size: 11, fill: color, anchor: "end") }
                y += 88
            }
        }
        section("\(L10n.phoneNotificationsPending(l)) (\(pending.count))", pending, color: SVGTheme.secondary)
        section("\(L10n.phoneNotificationsDelivered(l)) (\(deliveredTotal))", Array(delivered.reversed()), color: SVGTheme.accent)
        C.tabBar(&doc, selected: nil, language: l)
        return doc.render(attributes: "data-view=\"phone/notifications\"")
    }

    /// Splits `text` into lines of at most `limit` characters.
    static func wrap(_ text: String, limit: Int) -> [String] {
        var lines: [String] = [], current = ""
        for ch in text {
            current.append(ch)
            if current.count >= limit { lines.append(current); current = "" }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
