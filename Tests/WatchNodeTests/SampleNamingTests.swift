import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// The fast paths of naming and formatting a sample equal the plain rules.
@Suite struct SampleNamingTests {
    /// The reference rule of `WorkoutSampleFile.sampleID`: `<workoutID>.` and the index padded
    /// with zeros to four digits.
    func referenceSampleID(_ workoutID: String, _ index: Int) -> String {
        let digits = String(index)
        return "\(workoutID).\(String(repeating: "0", count: max(0, 4 - digits.count)))\(digits)"
    }

    @Test func sampleIDsAreTheReferenceRule() {
        let indices = [0, 1, 9, 10, 99, 100, 999, 1_000, 3_599, 9_999, 10_000, 123_456, .max, -1, -10, -1_000, -12_345, .min]
        for id in ["workout-1780264800000", "", "wörk-ü", "w", String(repeating: "x", count: 40)] {
            for i in indices { #expect(WorkoutSampleFile.sampleID(workoutID: id, index: i) == referenceSampleID(id, i), "\(id) \(i)") }
        }
        for i in 0..<12_000 where WorkoutSampleFile.sampleID(workoutID: "w42", index: i) != referenceSampleID("w42", i) {
            Issue.record("index \(i)")
        }
    }

    /// `WatchFormat.grouped` as it was written before its fast path.
    func referenceGrouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return n < 0 ? "-" + out : out
    }

    @Test func groupedNumbers() {
        for n in [0, 1, -1, 999, -999, 1_000, -1_000, 12_345, -1_234_567, .max, .min] + Array(-1_500...1_500) {
            #expect(WatchFormat.grouped(n) == referenceGrouped(n), "\(n)")
        }
        #expect(WatchFormat.grouped(-999) == "-999" && WatchFormat.grouped(1_000) == "1,000" && WatchFormat.grouped(142) == "142")
    }
}

/// The `hr` line's fast paths: its dispatch, its number and its reply's text.
@Suite struct HeartRateFastPathTests {
    @Test func hrIsTheOnlyRowOfItsWordAndHasNoReadOnlyAnswer() {
        let rows = WatchApp.commands.commands.filter { $0.synopsis.verb.first == WatchApp.heartRateVerb }
        #expect(rows.count == 1)
        #expect(rows.first?.synopsis.verb == [WatchApp.heartRateVerb])
        #expect(rows.first?.readOnly == nil)
        for words in [["hr"], ["hr", "120"], ["hr", "x", "y"]] {
            #expect(WatchApp.commands.command(for: words)?.synopsis.verb == ["hr"])
        }
    }

    @Test func numbersAreReadAsDoubleReadsThem() {
        let texts = ["0", "7", "60", "142", "0142", "250", "999999999999999", "9999999999999999", "12345678901234567890",
                     "", "-1", "+5", "1.5", "1e3", "nan", "inf", " 1", "1 ", "１２", "0x10", "00000000000000000001"]
        for t in texts {
            let a = WatchCommandWords.number(t), b = Double(t)
            #expect(a?.bitPattern == b?.bitPattern || (a?.isNaN == true && b?.isNaN == true), "\(t)")
        }
        for i in 0...3_000 { #expect(WatchCommandWords.number(String(i)) == Double(String(i))) }
    }

    @Test func joinedTextsAreConcatenations() {
        #expect(WatchFormat.joined("Heart rate", ": ", "142", " bpm") == "Heart rate: 142 bpm")
        #expect(WatchFormat.joined("心拍数", ": ", "60", " bpm") == "心拍数: 60 bpm")
        #expect(WatchFormat.joined("", "", "", "") == "")
        #expect(WatchFormat.joined("a", "", "ü", "") == "aü")
    }

    @Test func anHRLineRepliesAsThroughTheTable() throws {
        let engine = try makeWatchEngine(store: MemoryStore(), now: morning)
        _ = engine.run("workout start running", at: morning)
        let viaFastPath = engine.run("hr 142", at: morning + second)
        #expect(viaFastPath.text == "Heart rate: 142 bpm")
        #expect(engine.run("hr abc", at: morning + 2 * second).isOK == false)
        #expect(engine.run("hr", at: morning + 2 * second).text == engine.run("hr 1 2", at: morning + 2 * second).text)
    }
}

/// The `hr` reply's texts, kept per whole bpm and language, are the texts made afresh.
@Suite struct HeartRateTextTests {
    @Test func keptTextsEqualFreshOnes() {
        var app = WatchApp()
        let values: [Double] = [0, 0.4, 0.5, 1, 59.5, 60, 141.6, 142, 142.49, 199, 250, 255, 255.4, 255.5, 256, 1_234.5, -0.4, -1, .nan, .infinity]
        for language in [AppLanguage.en, .ja, .en] {
            for _ in 0..<2 {
                for bpm in values {
                    let fresh = WatchFormat.joined(L10n.watchHeartRate(language), ": ", WatchFormat.whole(bpm), " bpm")
                    #expect(app.heartRateText(bpm, language) == fresh, "\(bpm) \(language)")
                    #expect(fresh == "\(L10n.watchHeartRate(language)): \(WatchFormat.whole(bpm)) bpm")
                }
            }
        }
    }
}

/// The `hr` path's effects without an array for an accepted sample equal `addHeartRate`'s.
@Suite struct HeartRateEffectsTests {
    @Test func unlessAcceptedMatchesAddHeartRate() {
        var a = WorkoutManager(), b = WorkoutManager()
        func check(_ bpm: Double, _ at: EpochMs, _ note: String) {
            let full = a.addHeartRate(bpm: bpm, at: at)
            let short = b.addHeartRateUnlessAccepted(bpm: bpm, at: at)
            if let short {
                #expect(short == full, "\(note)")
            } else {
                #expect(full.count == 1, "\(note)")
                if case .sampleAccepted(let s)? = full.first { #expect(s == a.builder?.samples.last, "\(note)") } else { Issue.record("\(note)") }
            }
            #expect(a == b, "\(note)")
        }
        check(120, 0, "no session")
        _ = a.start(workoutID: "w", configuration: runOutdoor, at: 1_000)
        _ = b.start(workoutID: "w", configuration: runOutdoor, at: 1_000)
        check(120, 500, "before the collection")
        for i in 1...50 {
            if i == 20 { _ = a.pause(at: 20_500); _ = b.pause(at: 20_500) }
            if i == 25 { _ = a.resume(at: 25_500); _ = b.resume(at: 25_500) }
            check(i % 9 == 0 ? 400 : (i % 11 == 0 ? -3 : 60 + Double(i)), 1_000 + EpochMs(i) * 1_000, "sample \(i)")
        }
        _ = a.stop(at: 60_000); _ = b.stop(at: 60_000)
        check(100, 61_000, "stopped")
    }
}
