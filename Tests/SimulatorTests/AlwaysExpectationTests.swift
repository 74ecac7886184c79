import Testing
import PeerLinkCore
@testable import PeerLinkScenarios
import PhoneWatch

/// `expect always`: expectations no fault can change, which sweeps keep and check once the
/// nodes have recovered.
@Suite("Sweeps keep the expectations marked always")
struct AlwaysExpectationTests {
    static func scenario(_ expectation: String) throws -> Scenario {
        try ScenarioParser.parse("""
            scenario "a"
            start 2026-06-01T07:00:00+09:00
            07:00:30 phone settings step-goal 9000
            07:05:00 expect converged
            +0s \(expectation)
            """, file: "a.scenario")
    }

    @Test func theMarkIsParsedAndShownAndAPlainRunChecksItAsUsual() throws {
        let s = try Self.scenario("expect always watch settings step-goal == 9000")
        let step = try #require(s.steps.last)
        #expect(step.always && step.text == "expect always watch settings step-goal == 9000")
        guard case .expectValue(.watch, let path, .equal, 9000) = step.action else { Issue.record("\(step.action)"); return }
        #expect(path == ["settings", "step-goal"])
        let (r, _) = SimTest.run(try Self.scenario("expect always watch settings step-goal == 9001"))
        #expect(!r.passed)
        #expect(try Self.scenario("expect always phone refuses goal edit goal-9 --title x").steps.last?.always == true)
        #expect(throws: ScenarioErrors.self) { try Self.scenario("expect always converged") }
    }

    @Test func aSweepChecksItAfterTheRecoveryUnderFaults() throws {
        let holds = try Self.scenario("expect always watch settings step-goal == 9000")
        let broken = try Self.scenario("expect always watch settings step-goal == 9001")
        let faults = try FaultSchedule.parse("@1m link down for 2m; @30s crash watch; @2m clock watch +1h")
        #expect(SeedSweep.run(holds, seed: 1, faults: faults, options: SweepOptions()).passed)
        let out = SeedSweep.run(broken, seed: 1, faults: faults, options: SweepOptions())
        #expect(out.failureKind == "expectation")
        #expect(out.problems.first?.contains("a.scenario:5:5: expect always watch settings step-goal == 9001 — actual 9000") == true)
    }

    @Test func itIsSkippedWhenAScriptedStepDidNotRunOrAStoreWasDamaged() throws {
        let broken = try Self.scenario("expect always watch settings step-goal == 9001")
        // The phone is down when its command comes: the expectation's premise is gone.
        let down = SeedSweep.run(broken, seed: 1, faults: try FaultSchedule.parse("@0s kill phone for 1m"), options: SweepOptions())
        #expect(down.passed && down.expectationsSkipped == 1)
        let damaged = SeedSweep.run(broken, seed: 1, faults: try FaultSchedule.parse("@3m rollback watch"), options: SweepOptions())
        #expect(damaged.passed && damaged.expectationsSkipped == 1)
    }

    @Test func aWorkloadRunLeavesThemOut() throws {
        var o = SweepOptions()
        o.workload = .fitness
        let s = try Self.scenario("expect always watch settings step-goal == 9001")
        let with = SeedSweep.faultedScenario(s, faults: FaultSchedule(faults: []), ops: WorkloadOps([]), options: o).steps
        let without = SeedSweep.faultedScenario(s, faults: FaultSchedule(faults: []), options: SweepOptions()).steps
        #expect(!with.contains { $0.always })
        #expect(without.contains { $0.always })
    }
}
