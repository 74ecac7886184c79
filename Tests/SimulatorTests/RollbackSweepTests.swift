import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch

/// Store rollbacks (the last commits lost, as when a write-ahead log loses its tail), found by
/// sweeps: a rolled-back node notices at the next handshake that its peer holds more of its
/// streams than it issued, renumbers what it queued since, and asks for everything again; a
/// node whose peer went back notices that the peer holds less than it acknowledged and resends.
@Suite("Store rollbacks found by sweeps")
struct RollbackSweepTests {
    static let shortRun = SweepTests.shortRun

    /// The watch's store loses its last commits after the phone already holds the workout the
    /// watch wrote: the phone sends the watch's own records back.
    /// Replay: `sync-sim sweep FILE --seed 1 --faults "@3m10s rollback watch"`.
    @Test func aNodeWhoseStoreWentBackGetsItsOwnWritesBackFromThePeer() throws {
        let scenario = try SimTest.scenario(Self.shortRun)
        let o = SeedSweep.run(scenario, seed: 1, faults: try FaultSchedule.parse("@3m10s rollback watch"), options: SweepOptions())
        #expect(o.passed, "\(o.problems)")
    }

    /// The phone's store goes back to before it queued transfers the watch has delivered; its
    /// next transfers take fresh seqs, so none is acknowledged as a duplicate and lost.
    /// Replay: `sync-sim sweep FILE --seed 1 --faults "@3m40s rollback phone"`.
    @Test func aSenderWhoseStoreWentBackDoesNotReuseDeliveredSeqs() throws {
        let scenario = try SimTest.scenario(Self.shortRun)
        let o = SeedSweep.run(scenario, seed: 1, faults: try FaultSchedule.parse("@3m40s rollback phone"), options: SweepOptions())
        #expect(o.passed, "\(o.problems)")
        #expect(!o.problems.contains { $0.contains("reused a seq") }, "\(o.problems)")
    }

    /// The phone's store goes back during a partition, after the lost history had used seqs
    /// in the ordinary stream that this run's complication pushes reuse (renumbered at the
    /// handshake): each transfer is delivered once, and the ledger follows each seq in the
    /// stream that holds it now (it once counted such a seq in both and reported a double).
    /// Replay: `sync-sim sweep scenarios/complication-60-pushes.scenario --seed 1911 --faults "…"`.
    @Test func aSeqReusedInTheOtherStreamAfterARollbackIsCountedOnce() throws {
        let scenario = try SimTest.load(SimTest.repositoryRoot + "/scenarios/complication-60-pushes.scenario")
        let o = SeedSweep.run(scenario, seed: 1911, faults: try FaultSchedule.parse("@5m30s link down for 2m53s; @6m17s rollback phone"), options: SweepOptions())
        #expect(o.passed, "\(o.problems)")
    }

    /// Rollbacks of either node at many points of the short run, under a few seeds.
    @Test(arguments: [UInt64(1), 2, 3])
    func rollbacksAnywhereConverge(seed: UInt64) throws {
        let scenario = try SimTest.scenario(Self.shortRun)
        for (at, role) in [("1m", "watch"), ("2m30s", "phone"), ("3m", "watch"), ("3m20s", "phone"), ("4m", "watch")] {
            let o = SeedSweep.run(scenario, seed: seed, faults: try FaultSchedule.parse("@\(at) rollback \(role)"), options: SweepOptions())
            #expect(o.passed, "seed \(seed), rollback \(role) at \(at): \(o.problems)")
        }
    }
}
