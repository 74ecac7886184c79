import Testing
import PeerLinkCore
import CountdownDomain
@testable import PeerLinkScenarios
import PhoneWatch

/// Sweep reports (`sync-sim sweep … --json PATH`): what they hold, that they read back as
/// written, that two runs of the same seeds give the same bytes but for timing, and that a
/// damaged or foreign file is refused with what is wrong with it.
@Suite("Sweep reports: JSON")
struct SweepReportTests {
    @Test func aReportReadsBackEqualAndWritesTheSameBytes() throws {
        let report = try SweepFixture.sixteen.get()
        let text = report.jsonText()
        let read = try SweepReport.parse(text)
        #expect(read == report)
        #expect(read.timing == report.timing)
        #expect(read.jsonText() == text)
        #expect(read.summaryLine == "14 passed, 2 failed")
    }

    @Test func twoRunsOfTheSameSeedsDifferOnlyInTheirTimingLine() throws {
        // Another thread count and host: the same outcomes, so the same bytes but for timing.
        let a = try SweepFixture.report(jobs: 1), b = try SweepFixture.report(jobs: 2)
        #expect(a == b)
        #expect(a.jsonText(includingTiming: false) == b.jsonText(includingTiming: false))
        let la = a.jsonText().split(separator: "\n"), lb = b.jsonText().split(separator: "\n")
        let differing = zip(la, lb).filter { $0 != $1 }
        #expect(la.count == lb.count && differing.count == 1 && differing[0].0.hasPrefix("\"timing\":"), "\(differing)")
        // Keys in byte order, one a line; one seed a line.
        let keys = la.compactMap { $0.hasPrefix("\"") ? String($0.dropFirst().prefix { $0 != "\"" }) : nil }
        #expect(keys == keys.sorted() && keys.contains("outcomes") && keys.contains("scenario"))
        #expect(la.filter { $0.hasPrefix("  {\"classes\"") }.count == 16)
    }

    @Test func theReportNamesTheScenarioTheBuildTheOptionsAndTheSeeds() throws {
        var options = SweepOptions()
        options.classes = Set(FaultClass.allCases).subtracting([.tamper, .clocks])
        options.shrinks = false
        let r = try SweepFixture.report(from: 5, count: 9, shard: SweepShard(index: 2, of: 3), options: options, commit: "feed42")
        #expect(r.scenario.name == "tiny sweep fixture" && r.scenario.file == "tiny.scenario" && r.scenario.text == SweepFixture.text)
        #expect(r.scenario.sha256.count == 64 && r.scenario.sha256.allSatisfy(\.isHexDigit))
        #expect(r.scenario.sha256 != SweepReport.ScenarioFile(name: "x", file: "x", text: SweepFixture.text + " ").sha256)
        #expect(r.commit == "feed42" && r.version == PeerLinkVersion.string)
        #expect(r.options.commandLine == "--without clocks,tamper --no-shrink")
        #expect(r.outcomes.map(\.seed) == [6, 9, 12])
        #expect(r.seeds.description == "seeds 5…13 (shard 2/3)")
        let json = try PlistValue.parseJSON(r.jsonText())
        #expect(json.dictionaryValue?["seeds"] == ["from": 5, "count": 9, "shard": ["index": 2, "of": 3]])
        #expect(json.dictionaryValue?["failed"] == 1)
    }

    @Test func aFailureCarriesWhatTheSweepPrintsAndItsReplayCommandsAPassOnlyItsClasses() throws {
        let r = try SweepFixture.sixteen.get()
        let s = try SweepFixture.scenario()
        let failed = r.outcomes.filter { !$0.passed }
        #expect(failed.map(\.seed) == [6, 11])
        for f in failed {
            let o = SeedSweep.sweepSeed(s, seed: f.seed, options: SweepOptions())
            #expect(f.failure == SweepSession.failureText(o, file: "tiny.scenario", scenario: s))
            #expect(f.replay == "sync-sim sweep tiny.scenario --seed \(f.seed)")
            #expect(f.minimal == "sync-sim sweep tiny.scenario --seed \(f.seed) --faults \"none\"")
            #expect(f.kind == "expectation" && f.faults == o.faults.description && f.shrunk == "none")
            #expect(f.problems.first?.contains("expect always phone settings step-goal == 9000") == true)
        }
        for p in r.outcomes where p.passed {
            #expect(p.faults == nil && p.failure == nil && p.replay == nil && p.problems.isEmpty && !p.classes.isEmpty)
        }
    }

    @Test func aFailingSeedReadBackIsTheOutcomeItWas() throws {
        let r = try SweepReport.parse(try SweepFixture.sixteen.get().jsonText())
        let s = try SweepFixture.scenario()
        for f in r.outcomes where !f.passed {
            let o = try f.outcome()
            #expect(SweepSession.failureText(o, file: r.scenario.file, scenario: s) == f.failure)
            #expect(o.faults.classes.map(\.rawValue) == f.classes)
        }
    }

    /// Each damage to a report, and the line its refusal must hold.
    static let damages: [(String, @Sendable (inout [String: PlistValue]) -> Void, String)] = [
        ("no format", { $0["format"] = nil }, "not a sweep report"),
        ("newer format", { $0["formatVersion"] = 2 }, "report format 2; this sync-sim reads format 1"),
        ("edited scenario", { d in d["scenario"] = d["scenario"].map { v in
            var s = v.dictionaryValue!
            s["text"] = .string(SweepFixture.text + "12:02 phone settings step-goal 1\n")
            return .dictionary(s)
        } }, "its scenario text does not match its sha256"),
        ("no commit", { $0["commit"] = nil }, "the report: no \"commit\""),
        ("commit a number", { $0["commit"] = 7 }, "the report: \"commit\" is not a string"),
        ("bad seed", { d in d["outcomes"] = .array([["seed": "x"]]) }, "outcome 1: \"seed\" is not a seed"),
        ("edited counts", { $0["failed"] = 0 }, "\"passed\" and \"failed\" counts do not match"),
        ("bad shard", { d in d["seeds"] = ["from": 1, "count": 16, "shard": ["index": 5, "of": 4]] }, "seeds: shard 5/4 is not i/n"),
        ("no seeds", { d in d["seeds"] = ["from": 1, "count": 0] }, "seeds: \"count\" is 0"),
        ("unknown class", { d in
            var o = d["options"]!.dictionaryValue!
            o["classes"] = ["partition", "meteors"]
            d["options"] = .dictionary(o)
        }, "options: unknown fault class \"meteors\""),
    ]

    @Test(arguments: damages.indices)
    func aDamagedReportIsRefusedWithWhatIsWrong(index: Int) throws {
        let (name, damage, reason) = Self.damages[index]
        var fields = try #require(try PlistValue.parseJSON(SweepFixture.sixteen.get().jsonText()).dictionaryValue)
        damage(&fields)
        let error = #expect(throws: SweepReportError.self, "\(name)") { try SweepReport.parse(PlistValue.dictionary(fields).jsonString()) }
        #expect(error?.description.contains(reason) == true, "\(name): \(error?.description ?? "")")
    }

    @Test func textThatIsNotJSONIsRefused() {
        let error = #expect(throws: SweepReportError.self) { try SweepReport.parse("{\"format\": ") }
        #expect(error?.description.hasPrefix("not JSON: ") == true)
        let passedWithProblems = #expect(throws: SweepReportError.self) {
            var fields = try PlistValue.parseJSON(SweepFixture.report(count: 1).jsonText()).dictionaryValue!
            var seed = fields["outcomes"]!.arrayValue![0].dictionaryValue!
            seed["problems"] = ["lost: u1"]
            fields["outcomes"] = [.dictionary(seed)]
            _ = try SweepReport.parse(PlistValue.dictionary(fields).jsonString())
        }
        #expect(passedWithProblems?.description.contains("seed 1: \"passed\" is true with 1 problems") == true, "\(String(describing: passedWithProblems))")
    }
}
