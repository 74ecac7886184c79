import Testing
import PeerLinkCore
@testable import PeerLinkScenarios
import PhoneWatch

/// Seed sweeps: schedules drawn per seed, their syntax, shards, the shrinker, and runs.
@Suite("Sweeps: random fault schedules, shrinking, shards")
struct SweepTests {
    static let shortRun = """
        07:00:00 watch workout start running
        07:00:05 every 5s for 3m: watch hr 120..160
        07:03:05 watch workout end
        07:03:30 phone settings step-goal 8000
        07:04:00 expect converged
        """

    @Test func theScheduleIsTheSameForTheSameSeed() {
        for seed in UInt64(1)...50 {
            let a = FaultSchedule.random(seed: seed, spanMs: 30 * 60_000)
            #expect(a == FaultSchedule.random(seed: seed, spanMs: 30 * 60_000), "seed \(seed)")
            #expect(!a.faults.isEmpty && !a.classes.isEmpty, "seed \(seed)")
            #expect(a.faults.allSatisfy { $0.atMs >= 0 && $0.atMs <= 30 * 60_000 && $0.atMs % 1000 == 0 }, "seed \(seed): \(a)")
            #expect(a.faults.map(\.atMs) == a.faults.map(\.atMs).sorted(), "seed \(seed)")
            #expect(Set(a.faults.map(\.kind.faultClass)).isSubset(of: Set(a.classes)), "seed \(seed)")
        }
        #expect(FaultSchedule.random(seed: 1, spanMs: 30 * 60_000) != FaultSchedule.random(seed: 2, spanMs: 30 * 60_000))
    }

    @Test func everyClassIsDrawnAndWhichAreOnVariesBySeed() {
        let schedules = (UInt64(1)...300).map { FaultSchedule.random(seed: $0, spanMs: 3_600_000) }
        let drawn = Set(schedules.flatMap(\.classes))
        #expect(drawn == Set(FaultClass.allCases))
        #expect(Set(schedules.map { $0.classes.map(\.rawValue).joined(separator: ",") }).count > 100)
    }

    @Test func leavingAClassOutKeepsTheRestOfTheDraw() {
        for seed in UInt64(1)...50 {
            let all = FaultSchedule.random(seed: seed, spanMs: 600_000)
            let some = FaultSchedule.random(seed: seed, spanMs: 600_000, allowing: Set(FaultClass.allCases).subtracting([.rollback]))
            #expect(some.faults == all.faults.filter { $0.kind.faultClass != .rollback }, "seed \(seed)")
        }
    }

    @Test func theFaultSyntaxRoundTrips() throws {
        for seed in UInt64(1)...100 {
            let s = FaultSchedule.random(seed: seed, spanMs: 48 * 3_600_000)
            let parsed = try FaultSchedule.parse(s.description)
            #expect(parsed.faults == s.faults, "seed \(seed): \(s)")
        }
        let s = try FaultSchedule.parse("@1m link down for 30s; @2m30s crash watch; @3m kill phone for 1m; @4m clock watch -5m; @5m clock phone drift 800ppm for 10m; @6m rollback watch; @7m link reset")
        #expect(s.faults.count == 7)
        #expect(s.faults[0] == ScheduledFault(atMs: 60_000, kind: .link(.down), forMs: 30_000))
        #expect(s.faults[3].kind == .clock(.watch, .bump(-300_000)))
        #expect(try FaultSchedule.parse("none").faults.isEmpty)
    }

    @Test(arguments: ["1m link down", "@1m link reset for 5s", "@1m kill watch", "@x crash phone", "@1m smash phone", "@1m clock watch +5m for 1m"])
    func badFaultsAreRefusedWithTheirNumber(text: String) {
        #expect(throws: ScenarioError.self) { try FaultSchedule.parse(text) }
    }

    @Test func shardsPartitionTheSeeds() {
        let all = SeedSweep.seeds(from: 10, count: 103)
        #expect(all.first == 10 && all.last == 112 && all.count == 103)
        for n in [1, 2, 3, 7] {
            let shards = (1...n).map { SeedSweep.seeds(from: 10, count: 103, shard: (index: $0, of: n)) }
            #expect(shards.flatMap { $0 }.sorted() == all, "\(n) shards")
            #expect(Set(shards.flatMap { $0 }).count == all.count, "\(n) shards overlap")
            #expect(shards.allSatisfy { abs($0.count - 103 / n) <= 1 }, "\(n) shards uneven")
        }
        #expect(SeedSweep.parseShard("2/3")! == (index: 2, of: 3))
        #expect(SeedSweep.parseShard("4/3") == nil && SeedSweep.parseShard("0/3") == nil && SeedSweep.parseShard("x") == nil)
    }

    @Test func theShrinkerFindsAMinimalFailingList() {
        // Fails when both 3 and 7 are in: the minimum is exactly [3, 7].
        var calls = 0
        let m = Shrinker.minimize(Array(0..<20)) { calls += 1; return $0.contains(3) && $0.contains(7) }
        #expect(m == [3, 7])
        #expect(calls < 100, "\(calls) tests")
        #expect(Shrinker.minimize(Array(0..<9)) { $0.contains(5) } == [5])
        #expect(Shrinker.minimize(Array(0..<9)) { _ in true } == [])
        // Fails when at least three even numbers are in: any three evens is 1-minimal.
        let three = Shrinker.minimize(Array(0..<16)) { $0.filter { $0 % 2 == 0 }.count >= 3 }
        #expect(three.count == 3 && three.allSatisfy { $0 % 2 == 0 })
        // The budget is respected.
        var budgeted = 0
        _ = Shrinker.minimize(Array(0..<64), maxTests: 5) { budgeted += 1; return $0.contains(1) && $0.contains(62) }
        #expect(budgeted <= 5)
    }

    @Test func aFewSeedsOfAShortRunPassEveryCheck() throws {
        let scenario = try SimTest.scenario(Self.shortRun)
        var options = SweepOptions()
        options.classes = Set(FaultClass.allCases).subtracting([.rollback])
        let outcomes = SweepSession(scenario: scenario, seeds: SeedSweep.seeds(from: 1, count: 6), options: options, jobs: 2).run()
        #expect(outcomes.map(\.seed) == Array(1...6))
        for o in outcomes {
            #expect(o.passed, "\(SweepSession.failureText(o, file: "test.scenario", classes: options.classes))")
        }
    }

    /// The `tamper` class is drawn from a generator of its own: a seed's other faults are the
    /// ones it had before the class existed, with or without it.
    @Test func theTamperClassLeavesTheRestOfEachSeedsScheduleAsItWas() throws {
        var seedsWithTamper = 0
        for seed in UInt64(1)...100 {
            let all = FaultSchedule.random(seed: seed, spanMs: 3_600_000)
            let without = FaultSchedule.random(seed: seed, spanMs: 3_600_000, allowing: Set(FaultClass.allCases).subtracting([.tamper]))
            #expect(without.faults == all.faults.filter { $0.kind.faultClass != .tamper }, "seed \(seed)")
            let tampers = all.faults.filter { $0.kind.faultClass == .tamper }
            if !tampers.isEmpty { seedsWithTamper += 1 }
            #expect(tampers.allSatisfy { if case .link(.tamper(let p)) = $0.kind { p >= 1 && p <= 20 && $0.forMs != nil } else { false } })
        }
        #expect(seedsWithTamper > 20 && seedsWithTamper < 60, "\(seedsWithTamper) of 100 seeds")
        #expect(try FaultSchedule.parse("@1m link tamper 5% for 2m").faults == [ScheduledFault(atMs: 60_000, kind: .link(.tamper(5)), forMs: 120_000)])
    }

    /// A relay flipping bytes on the link, alone: every seed recovers, converges, and loses
    /// or repeats no acknowledged user info.
    @Test func tamperingAloneBreaksNoInvariant() throws {
        let scenario = try SimTest.scenario(Self.shortRun)
        var options = SweepOptions()
        options.classes = [.tamper]
        let seeds = SeedSweep.seeds(from: 1, count: 40).filter { !FaultSchedule.random(seed: $0, spanMs: scenario.endMs - scenario.startMs, allowing: [.tamper]).faults.isEmpty }
        #expect(seeds.count >= 8)
        let outcomes = SweepSession(scenario: scenario, seeds: seeds, options: options, jobs: 2).run()
        for o in outcomes {
            #expect(o.passed, "\(SweepSession.failureText(o, file: "test.scenario", classes: options.classes))")
        }
    }

    @Test func theRecoveryRestartsEveryNodeAndConverges() throws {
        let scenario = try SimTest.scenario(Self.shortRun)
        let faults = try FaultSchedule.parse("@10s kill watch for 1h; @20s link down for 2h; @30s clock phone freeze for 3h")
        let s = SeedSweep.faultedScenario(scenario, faults: faults, options: SweepOptions())
        #expect(!s.steps.contains { if case .expectValue = $0.action { true } else { false } })
        let recovery = s.steps.filter { $0.location.file == SeedSweep.recoveryFile }
        #expect(recovery.map(\.text) == ["link clear", "restart phone", "restart watch", "expect converged"])
        #expect(recovery[0].atMs >= scenario.startMs + 3 * 3_600_000 + 30_000)
        let o = SeedSweep.run(scenario, seed: 3, faults: faults, options: SweepOptions())
        #expect(o.passed, "\(o.problems)")
    }

    @Test func aFailingSeedIsShrunkAndPrintedWithItsReplayCommands() {
        let o = SeedOutcome(seed: 42, faults: FaultSchedule(faults: [ScheduledFault(atMs: 60_000, kind: .crash(.watch)),
                                                                     ScheduledFault(atMs: 90_000, kind: .rollback(.phone))]),
                            problems: ["convergence: digests differ"], shrunk: FaultSchedule(faults: [ScheduledFault(atMs: 90_000, kind: .rollback(.phone))]),
                            virtualMs: 0)
        let text = SweepSession.failureText(o, file: "x.scenario", classes: Set(FaultClass.allCases).subtracting([.clocks]))
        #expect(text.contains("FAIL seed 42: convergence"))
        #expect(text.contains("shrunk (1): @1m30s rollback phone"))
        #expect(text.contains("replay: sync-sim sweep x.scenario --seed 42 --without clocks"))
        #expect(text.contains("minimal: sync-sim sweep x.scenario --seed 42 --faults \"@1m30s rollback phone\""))
        #expect(o.failureKind == "convergence")
        #expect(SweepSession.progressBar(.init(done: 5, failed: 1, total: 10), width: 10) == "[#####.....] 5/10 seeds, 1 failed")
    }

    @Test func aFailuresProblemLinesGiveLocalDateTimesAndTheOffsetFromTheStartNotEpochMilliseconds() throws {
        let scenario = try ScenarioParser.parse("""
            scenario "t"
            start 2026-06-01T07:00:00+09:00
            timezone Asia/Tokyo
            07:00 watch hr 120
            """, file: "t.scenario")
        let at = scenario.startMs + 31 * 60_000 + 5_123
        let o = SeedOutcome(seed: 7, faults: FaultSchedule(faults: []), problems: ["\(at) phone→watch u3 (store a4a9c2): delivered twice"],
                            shrunk: nil, virtualMs: 0)
        let text = SweepSession.failureText(o, file: "t.scenario", scenario: scenario)
        #expect(text.contains("FAIL seed 7: 2026-06-01 07:31:05.123 (+31m05s) phone→watch u3 (store a4a9c2): delivered twice"), "\(text)")
        #expect(!text.contains("\(at)"))
        #expect(SweepSession.readableTime("convergence: digests differ", scenario: scenario) == "convergence: digests differ")
    }
}
