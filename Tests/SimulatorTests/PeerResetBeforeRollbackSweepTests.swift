import Testing
@testable import PeerLinkCore
@testable import PeerLinkScenarios

/// The phone's store was reset while the link tampered; the watch's complete resend to it was
/// lost; then the watch's store went back to before it heard of the reset. The watch sent back
/// only what it wrote itself, so the phone never got its own deletes back, handed out goal-2
/// (the id of a goal it had deleted, which the watch still held as a tombstone) and the two
/// never converged. Found by a countdown workload sweep from seed 500001 (seed 500033 of
/// `corrupt-phone-store.scenario`). The replica's rule is tested in
/// `ReplicaPeerResetBeforeRollbackTests`.
@Suite("A peer reset before a rollback, found by a sweep")
struct PeerResetBeforeRollbackSweepTests {
    static let faults = "@39s link tamper 2% for 3m30s; @4m30s link tamper 20% for 6m; @7m10s link latency 102ms jitter 3ms for 1m29s; @8m48s link bandwidth 5055 for 2m7s; @10m11s rollback watch"

    /// Replay: `sync-sim sweep scenarios/corrupt-phone-store.scenario --seed 500033 --faults
    /// "…" --workload countdown --ops "…"` (the two shrunk runs the sweep gave, before and
    /// after the first half of the fix).
    @Test func theShrunkRunsConverge() throws {
        for ops in ["@3m7s watch goal-add G4 2026-10-20; @3m10s phone goal-add G5 2027-04-04; @3m17s phone goal-date G5 2027-06-24; @3m27s phone goal-delete G4; @3m30s phone goal-add G6 2027-01-24; @5m51s phone goal-delete G5; @5m52s phone goal-add G7 2026-09-18; @7m36s watch goal-date G6 2026-10-20; @9m4s watch goal-date G6 2027-06-25; @9m5s watch goal-add G8 2027-05-04; @9m6s watch goal-add G9 2027-02-15; @9m15s phone goal-add G10 2026-10-17; @14m45s phone goal-add G12 2026-10-12",
                    "@28s phone goal-add G2 2027-06-16; @1m33s watch goal-add G3 2027-01-01; @1m46s phone goal-delete G2; @3m7s watch goal-add G4 2026-10-20; @3m10s phone goal-add G5 2027-04-04; @3m27s phone goal-delete G4; @5m51s phone goal-delete G5; @5m52s phone goal-add G7 2026-09-18; @14m45s phone goal-add G12 2026-10-12; @14m49s phone goal-title G7 G7r6"] {
            let o = try SimTest.replay("corrupt-phone-store", seed: 500033, faults: Self.faults, workload: .countdown, ops: ops)
            #expect(o.passed, "\(o.problems)")
        }
    }

    /// Replay: `sync-sim sweep scenarios/corrupt-phone-store.scenario --seed 500033 --workload
    /// default`, the seed as drawn (its schedule is random, its operations generated).
    @Test func theSeedAsDrawnPasses() throws {
        var o = SweepOptions()
        o.workload = .countdown
        o.shrinks = false
        let out = SeedSweep.sweepSeed(try SimTest.load(SimTest.repositoryRoot + "/scenarios/corrupt-phone-store.scenario"), seed: 500033, options: o)
        #expect(out.passed, "\(out.problems)")
    }

    /// The first form of the fix sent the rolled-back store's resend with key ranges, and the
    /// peer dropped what the rolled-back store had lost: the same 1,000 seeds then failed
    /// here. Replays of their shrunk runs (`--workload countdown` / `fitness`).
    @Test func aRolledBackStoresResendDropsNothingAtThePeer() throws {
        let runs: [(String, UInt64, String, WorkloadKind, String)] = [
            ("corrupt-phone-store", 500084, "@13m50s rollback watch", .countdown,
             "@9m34s phone goal-add G6 2026-12-29; @9m36s phone goal-date G6 2026-09-20; @12m53s watch goal-title G6 G6r8"),
            ("watch-store-corrupt-mid-workout", 500430, "@13m13s rollback phone", .fitness,
             "@8m28s phone steps 407; @8m28s watch step-goal 6500; @8m29s phone switch run-detection off; @10m29s phone steps 1473; @12m13s phone complication-push; @12m16s watch step-goal 23000"),
            ("watch-store-corrupt-mid-workout", 500480, "@36m49s rollback phone", .fitness,
             "@15m27s watch step-goal 22500; @15m35s phone step-goal 4000"),
        ]
        for (name, seed, faults, kind, ops) in runs {
            let out = try SimTest.replay(name, seed: seed, faults: faults, workload: kind, ops: ops)
            #expect(out.passed, "\(name) seed \(seed): \(out.problems)")
        }
    }
}
