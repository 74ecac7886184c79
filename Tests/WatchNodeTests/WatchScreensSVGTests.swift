import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PeerLinkCore
import SVGKit
import Testing

@testable import WatchNode

/// The watch's drawn screens (`show SCREEN --svg`): every screen in both languages from the
/// view models of the text screens; read-only.
@Suite struct WatchScreensSVGTests {
    static func watch(_ language: AppLanguage) throws -> NodeEngine<WatchApp> {
        try NodeEngine(
            app: WatchApp(), role: .watch, store: MemoryStore(), config: LinkConfig(role: .watch, pairingSecret: testSecret), calendar: tokyo,
            language: language, now: morning, seed: 1, newIncarnation: 100)
    }

    static func svg(_ w: NodeEngine<WatchApp>, _ screen: String, at now: EpochMs) throws -> String {
        let reply = try #require(w.readOnlyCommand(NodeCommand(line: "show \(screen) --svg")!, now: now))
        #expect(reply.isOK, "\(screen): \(reply.text)")
        return try #require(reply.value.stringValue)
    }

    @Test func everyScreenIsOneSVGDocumentInBothLanguages() throws {
        for language in AppLanguage.allCases {
            let w = try Self.watch(language)
            for screen in WatchApp.svgScreens {
                let svg = try Self.svg(w, screen, at: morning)
                #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.hasSuffix("</svg>"), "\(screen)")
                #expect(svg.contains("data-view=\"watch/\(screen)\""), "\(screen)")
                let opens = svg.components(separatedBy: "<g ").count - 1, closes = svg.components(separatedBy: "</g>").count - 1
                #expect(opens == closes, "\(screen): unbalanced <g>")
                let parser = XMLParser(data: Data(svg.utf8))
                #expect(parser.parse(), "\(screen) \(language): not well-formed XML (a browser refuses the file) at line \(parser.lineNumber), column \(parser.columnNumber)")
            }
        }
    }

    @Test func workoutScreenShowsTheLiveMetricsAndTheSeedsButtons() throws {
        let w = try Self.watch(.ja)
        #expect(w.run("workout start running", at: morning).isOK)
        #expect(w.run("hr 142", at: morning + 60 * second).isOK)
        #expect(w.run("energy 87.3", at: morning + 60 * second).isOK)
        let svg = try Self.svg(w, "workout", at: morning + 20 * 60 * second)
        for text in ["ランニング", "記録中", "142 bpm", "87.3 kcal", "20:00", "一時停止", "停止", "心拍数", "消費カロリー", "経過時間"] {
            #expect(svg.contains(text), "missing \(text)")
        }
        #expect(svg.contains("data-button=\"pause\"") && svg.contains("data-button=\"stop\""))
        #expect(svg.contains("data-symbol=\"figure.run\""))
        #expect(w.run("workout pause", at: morning + 21 * 60 * second).isOK)
        let paused = try Self.svg(w, "workout", at: morning + 22 * 60 * second)
        #expect(paused.contains("data-button=\"resume\"") && paused.contains("再開"))
    }

    @Test func ringsAreArcsWithTheirFractions() throws {
        let w = try Self.watch(.ja)
        #expect(w.run("steps 2500", at: morning).isOK)
        let svg = try Self.svg(w, "rings", at: morning + second)
        #expect(svg.contains("今日のアクティビティ"))
        #expect(svg.contains("data-ring=\"steps\" data-fraction=\"0.250\""))
        #expect(svg.contains("data-ring=\"energy\""))
        #expect(svg.contains("歩数 2,500/10,000"))
    }

    @Test func complicationIsAnAccessoryCircularGauge() throws {
        let w = try Self.watch(.en)
        #expect(w.run("steps 8432", at: morning).isOK)
        let svg = try Self.svg(w, "complication", at: morning + 60 * second)
        #expect(svg.contains("data-family=\"accessoryCircular\"") && svg.contains("data-gauge-style=\"accessoryCircularCapacity\""))
        #expect(svg.contains("width=\"50\" height=\"50\""))
        // What the face shows: the feed's displayed gauge, as `show complication` reports it.
        let shown = try #require(w.value("complication fraction", at: morning + 60 * second)?.doubleValue)
        #expect(svg.contains("data-ring=\"steps\" data-fraction=\"\(SVGNumber.fraction(shown))\""))
    }

    @Test func pickerFollowsTheDigitalCrown() throws {
        let w = try Self.watch(.ja)
        #expect(try Self.svg(w, "activity-picker", at: morning).contains("data-activity=\"running\" data-selected=\"true\""))
        #expect(w.run("crown +1", at: morning).isOK)
        let svg = try Self.svg(w, "activity-picker", at: morning + second)
        #expect(svg.contains("data-activity=\"walking\" data-selected=\"true\""))
        #expect(svg.contains("ウォーキング") && svg.contains("サイクリング") && svg.contains("開始"))
        // Without a session the workout screen is the picker.
        #expect(try Self.svg(w, "workout", at: morning + second).contains("data-activity=\"walking\" data-selected=\"true\""))
    }

    @Test func goalsShowTheSeedsEmptyMessageThenTheList() throws {
        let w = try Self.watch(.ja)
        #expect(try Self.svg(w, "goals", at: morning).contains("目標を設定してください"))
    }

    @Test func drawingAScreenChangesNothing() throws {
        let w = try Self.watch(.ja)
        #expect(w.run("workout start running", at: morning).isOK)
        _ = w.drainOutput()
        let digest = w.run("digest", at: morning).value
        _ = w.drainOutput()
        for screen in WatchApp.svgScreens { _ = try Self.svg(w, screen, at: morning + 5 * second) }
        #expect(w.drainOutput().isEmpty)
        #expect(w.run("digest", at: morning).value == digest)
    }
}
