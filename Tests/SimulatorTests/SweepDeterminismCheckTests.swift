import Testing
import PeerLinkCore
@testable import PeerLinkScenarios
import PhoneWatch

/// `sync-sim sweep … --check-determinism`: each seed runs twice with its trace recorded; a
/// seed whose two runs differ fails, with a line naming it and both trace hashes.
@Suite("Sweeps: the determinism check")
struct SweepDeterminismCheckTests {
    @Test func checkedSeedsKeepTheirOutcomesAndCarryTwoEqualTraceHashes() throws {
        let scenario = try SimTest.scenario(SweepTests.shortRun)
        var checked = SweepOptions()
        checked.checksDeterminism = true
        let seeds = SeedSweep.seeds(from: 1, count: 3)
        let plain = SweepSession(scenario: scenario, seeds: seeds, options: SweepOptions(), jobs: 2).run()
        let twice = SweepSession(scenario: scenario, seeds: seeds, options: checked, jobs: 2).run()
        for (p, t) in zip(plain, twice) {
            #expect(t.problems == p.problems && t.faults == p.faults && t.virtualMs == p.virtualMs, "seed \(p.seed)")
            #expect(p.traceHashes.isEmpty)
            #expect(t.traceHashes.count == 2 && t.traceHashes[0] == t.traceHashes[1] && t.traceHashes[0].count == 64, "seed \(t.seed): \(t.traceHashes)")
        }
        // The hash is of the seed's run: another seed has another.
        #expect(Set(twice.map { $0.traceHashes[0] }).count == 3)
    }

    @Test func twoRunsThatDifferFailTheSeedNamingItAndBothHashes() throws {
        let scenario = try SimTest.scenario(SweepTests.shortRun)
        let faults = try FaultSchedule.parse("@30s link loss 20% for 1m; @1m crash watch")
        let first = SeedSweep.run(scenario, seed: 4, faults: faults, options: SweepOptions(), tracing: true)
        let again = SeedSweep.run(scenario, seed: 4, faults: faults, options: SweepOptions(), tracing: true)
        #expect(SeedSweep.determinismProblem(first, again) == nil)
        // A run whose trace differs (here: the same schedule under another network seed).
        var other = SeedSweep.run(scenario, seed: 5, faults: faults, options: SweepOptions(), tracing: true)
        other.seed = 4
        let a = first.traceHashes[0], b = other.traceHashes[0]
        #expect(a != b)
        let line = try #require(SeedSweep.determinismProblem(first, other))
        #expect(line == "determinism: seed 4 ran twice with different traces: \(a) then \(b)")
        var failed = first
        failed.problems = [line]
        #expect(failed.failureKind == "determinism")
        let text = SweepSession.failureText(failed, file: "t.scenario")
        #expect(text.hasPrefix("FAIL seed 4: determinism: seed 4 ran twice with different traces: \(a) then \(b)"))
        #expect(text.contains("replay: sync-sim sweep t.scenario --seed 4 --check-determinism"))
        // The same trace but other problems differs too.
        var odd = again
        odd.problems = ["lost: u1"]
        #expect(SeedSweep.determinismProblem(first, odd)?.hasPrefix("determinism: seed 4 ran twice with the same trace \(a) but different problems: 0 then 1") == true)
    }
}
