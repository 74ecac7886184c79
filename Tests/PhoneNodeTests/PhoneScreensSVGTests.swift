import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PeerLinkCore
import FitnessDomain
import PhoneNode
import Testing

/// The phone's drawn screens (`show SCREEN --svg`): every screen in both languages, from the
/// same view models as the text screens, read-only. No browser: the SVG text is checked.
@Suite struct PhoneScreensSVGTests {
    static let tokyo = "Asia/Tokyo"

    /// A phone at 2026-06-02 09:00 with steps, calories, heart rate and last night's sleep.
    static func phone(_ language: AppLanguage) throws -> PhoneHarness {
        let p = try PhoneHarness(start: PhoneFixture.local(tokyo, 2026, 6, 2, 9), language: language)
        p.ok("authorize grant all")
        p.ok("steps 8432 --from 2026-06-02T07:00:00+09:00 --to 2026-06-02T08:00:00+09:00")
        p.ok("steps 12000 --from 2026-06-01T07:00:00+09:00 --to 2026-06-01T08:00:00+09:00")
        p.ok("energy 250 --from 2026-06-02T07:00:00+09:00 --to 2026-06-02T08:00:00+09:00")
        for (i, bpm) in [62, 75, 118, 142, 96].enumerated() { p.ok("hr \(bpm) --at 0\(4 + i):30") }
        p.ok("sleep asleepCore 23:30 01:00")
        p.ok("sleep asleepDeep 01:00 02:30")
        p.ok("sleep asleepREM 02:30 03:30")
        p.ok("sleep asleepCore 03:30 07:00")
        return p
    }

    static func svg(_ p: PhoneHarness, _ screen: String) throws -> String {
        let reply = try #require(p.engine.readOnlyCommand(NodeCommand(line: "show \(screen) --svg")!, now: p.now))
        #expect(reply.isOK, "\(screen): \(reply.text)")
        return try #require(reply.value.stringValue)
    }

    @Test func everyScreenIsOneSVGDocumentInBothLanguages() throws {
        for language in AppLanguage.allCases {
            let p = try Self.phone(language)
            for screen in PhoneApp.svgScreens {
                let svg = try Self.svg(p, screen)
                #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), "\(screen)")
                #expect(svg.hasSuffix("</svg>"), "\(screen)")
                #expect(svg.contains("data-view=\"phone/\(screen)\""), "\(screen)")
                #expect(SVGShape.balanced(svg), "\(screen) \(language): unbalanced <g>")
                #expect(SVGShape.xmlError(svg) == nil, "\(screen) \(language): not well-formed XML (a browser refuses the file): \(SVGShape.xmlError(svg) ?? "")")
                #expect(!svg.contains("<image") && !svg.contains("href=") && !svg.contains("@font-face"), "\(screen): external resource")
            }
        }
    }

    @Test func dashboardDrawsTheSeedsCardsInJapanese() throws {
        let svg = try Self.svg(Self.phone(.ja), "dashboard")
        for text in ["ダッシュボード", "今日の歩数", "8,432", "消費カロリー", "250.0 kcal", "心拍数", "96 bpm", "睡眠スコア", "良好", "よく眠れています", "履歴", "設定"] {
            #expect(svg.contains(text), "missing \(text)")
        }
        // Rings are arcs with their fraction: 8,432 of 10,000 steps; 250 of the calorie goal.
        #expect(svg.contains("data-ring=\"steps\" data-fraction=\"0.843\""))
        #expect(svg.contains("data-ring=\"calories\" data-fraction=\"0."))
        #expect(svg.contains(" 0 1 1 "), "a large arc (over half a ring) is drawn for the steps")
        // The heart-rate line over the past 24 hours: one point per reading here.
        #expect(svg.contains("data-chart=\"heartRate\" data-points=\"5\""))
        // Sleep stages as bars (core 5 h, deep 1.5 h, REM 1 h).
        #expect(svg.contains("data-bar=\"asleepCore\" data-minutes=\"300\""))
        #expect(svg.contains("data-bar=\"asleepDeep\" data-minutes=\"90\""))
        // Hand-drawn symbols, no font or image.
        for symbol in ["figure.walk", "flame.fill", "heart.fill", "bed.double.fill"] { #expect(svg.contains("data-symbol=\"\(symbol)\"")) }
        #expect(svg.contains("fill=\"#000000\""), "dark background")
    }

    @Test func dashboardInEnglishShowsTheSameValues() throws {
        let svg = try Self.svg(Self.phone(.en), "dashboard")
        for text in ["Dashboard", "Today&#39;s steps", "8,432", "Active calories", "Heart rate", "96 bpm", "Sleep score", "Good", "You slept well"] {
            #expect(svg.contains(text), "missing \(text)")
        }
    }

    @Test func missingValuesAreDashesAndEmptyRings() {
        let d = FitnessDashboard(day: CivilDate(year: 2026, month: 6, day: 1), steps: nil, stepGoal: 10_000, caloriesKcal: nil, calorieGoalKcal: 500,
                                 latestHeartRate: nil, heartRateSeries: [], sleep: nil, authorization: HealthAuthorization(statuses: [:]))
        let svg = DashboardSVG.render(d, nowMs: 1_780_264_800_000, calendar: LocalCalendar(identifier: Self.tokyo)!, language: .ja)
        #expect(svg.contains("data-ring=\"steps\" data-fraction=\"none\""))
        #expect(svg.contains(">—<"))
        #expect(!svg.contains("data-chart=\"heartRate\""))
    }

    @Test func historyChartHasTheGoalLineAndADayPerBar() throws {
        let p = try Self.phone(.ja)
        let weekly = try Self.svg(p, "history-weekly"), monthly = try Self.svg(p, "history-monthly")
        #expect(weekly.contains("data-goal-line=\"10000\""))
        #expect(weekly.contains("目標 10,000歩"))
        #expect(weekly.contains("週間 歩数推移"))
        #expect(weekly.contains("日別の詳細データ"))
        #expect(weekly.contains("data-bar=\"2026-06-01\" data-steps=\"12000\""))
        #expect(weekly.contains("data-bar=\"2026-06-02\" data-steps=\"8432\""))
        #expect(monthly.contains("月間 歩数推移"))
        #expect(monthly.contains("data-goal-line=\"10000\""))
        // Raising the goal moves the line.
        p.ok("settings step-goal 12000")
        #expect(try Self.svg(p, "history-weekly").contains("data-goal-line=\"12000\""))
    }

    @Test func settingsShowsTheSeedsRowsAndSwitches() throws {
        let p = try Self.phone(.ja)
        p.ok("settings notifications off")
        let svg = try Self.svg(p, "settings")
        for text in ["歩数目標の変更", "10,000歩", "通知の ON/OFF", "HealthKit 連携状態の確認", "連携済み", "データをエクスポート"] {
            #expect(svg.contains(text), "missing \(text)")
        }
        #expect(svg.contains("data-toggle=\"notifications\" data-on=\"false\""))
        #expect(svg.contains("data-toggle=\"weeklySummary\" data-on=\"true\""))
    }

    @Test func widgetsAreDrawnAtWidgetKitSizesInTheFitnessGreen() throws {
        let p = try Self.phone(.ja)
        let small = try Self.svg(p, "widget-small"), medium = try Self.svg(p, "widget-medium")
        #expect(small.contains("width=\"170\" height=\"170\"") && small.contains("data-family=\"systemSmall\""))
        #expect(medium.contains("width=\"364\" height=\"170\"") && medium.contains("data-family=\"systemMedium\""))
        #expect(small.contains(FitnessWidgets.accentColorHex) && medium.contains(FitnessWidgets.accentColorHex))
        #expect(small.contains("data-url=\"fitness://dashboard\""))
        // The widget shows its entry (the reloaded snapshot), as `show widgets` does.
        let text = p.ok("show widgets").text
        if text.contains("8,432") { #expect(small.contains("8,432")) }
        let countdown = try Self.svg(p, "widget-countdown")
        #expect(countdown.contains("data-view=\"phone/widget-countdown\""))
    }

    @Test func goalsListTheCountdownGoalsOrTheSeedsEmptyMessage() throws {
        let p = try Self.phone(.ja)
        #expect(try Self.svg(p, "goals").contains("目標を設定してください"))
        p.ok("goal add \"誕生日\" --date 2026-06-14")
        let svg = try Self.svg(p, "goals")
        #expect(svg.contains("誕生日"))
        #expect(svg.contains("あと12日"))
    }

    @Test func drawingAScreenChangesNothing() throws {
        let p = try Self.phone(.ja)
        let before = p.run("digest").value
        _ = p.engine.drainOutput()
        for screen in PhoneApp.svgScreens { _ = try Self.svg(p, screen) }
        #expect(p.engine.drainOutput().isEmpty, "no frame, log or close")
        #expect(p.run("digest").value == before)
        // Through the ordinary command path too (a scenario step, the control channel).
        #expect(p.run("show dashboard --svg").value.stringValue?.hasPrefix("<svg") == true)
        #expect(p.run("show nonsense --svg").isOK == false)
    }
}

/// Structure checks on SVG text.
enum SVGShape {
    /// `<g …>` and `</g>` pair up, as do `<svg` and `</svg>`.
    static func balanced(_ svg: String) -> Bool {
        count(svg, "<g ") + count(svg, "<g>") == count(svg, "</g>") && count(svg, "<svg") == count(svg, "</svg>")
    }

    static func count(_ s: String, _ needle: String) -> Int { s.components(separatedBy: needle).count - 1 }

    /// Why `svg` is not well-formed XML (what `show SCREEN --svg > f.svg` must be for a
    /// browser or an editor to open the file), or nil when it is.
    static func xmlError(_ svg: String) -> String? {
        let parser = XMLParser(data: Data(svg.utf8))
        return parser.parse() ? nil : "\(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber), column \(parser.columnNumber)"
    }
}
