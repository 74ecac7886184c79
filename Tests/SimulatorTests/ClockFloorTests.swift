import Testing
@testable import PeerLinkCore
@testable import PeerLinkScenarios

/// The hybrid clock's floor, kept in the node's files: a store lost with a frozen (or set
/// back) wall clock must not let the node issue a stamp it issued before. Found by a fitness
/// workload sweep (seed 500862 of `fitness-widget-after-midnight.scenario`): the phone's clock
/// froze, its store was reset, and its new store stamped `weeklySummary` on with the stamp its
/// lost store had given `weeklySummary` off.
@Suite("The hybrid clock's floor")
struct ClockFloorTests {
    static func stamp(_ wallMs: Int64, _ counter: UInt32 = 0) -> HLCTimestamp { HLCTimestamp(wallMs: wallMs, counter: counter, replica: 1) }

    @Test func theFloorMovesALeaseAheadOnlyWhenTheClockReachesIt() throws {
        let files = MemoryFileStorage()
        var f = ClockFloor.load(files)
        #expect(f.floorMs == 0)
        var wrote = f.renew(clock: Self.stamp(0), files: files)
        #expect(wrote && f.floorMs == 0 && !files.exists(ClockFloor.path), "no stamp yet: nothing written")
        wrote = f.renew(clock: Self.stamp(1_000), files: files)
        #expect(wrote && f.floorMs == 1_000 + ClockFloor.leaseMs)
        #expect(ClockFloor.load(files) == f, "read back from the file")
        wrote = f.renew(clock: Self.stamp(50_000, 9), files: files)
        #expect(wrote && f.floorMs == 61_000, "inside the lease: unchanged")
        wrote = f.renew(clock: Self.stamp(61_000), files: files)
        #expect(wrote && f.floorMs == 121_000)
        #expect(ClockFloor.load(files).floorMs == 121_000)
        #expect(!files.exists(ClockFloor.path + ".new"))
        try files.replaceAll(ClockFloor.path, with: [1, 2, 3])
        #expect(ClockFloor.load(files).floorMs == 0, "a file that does not read as a floor is none")
    }

    @Test func aNewStoreOrOneBehindTheLeaseMayHaveLostStamps() {
        let f = ClockFloor(floorMs: 200_000)
        let wall: Int64 = 180_000  // past the store's clock in these four
        #expect(f.storeMayHaveLostStamps(last: Self.stamp(150_000), storeIsNew: true, wallMs: wall))
        #expect(f.storeMayHaveLostStamps(last: Self.stamp(139_999), storeIsNew: false, wallMs: wall))
        #expect(!f.storeMayHaveLostStamps(last: Self.stamp(140_000), storeIsNew: false, wallMs: wall))
        #expect(!ClockFloor(floorMs: 0).storeMayHaveLostStamps(last: .zero, storeIsNew: true, wallMs: wall), "a node's first store")
        #expect(f.restartStamp > Self.stamp(199_999, .max))
    }

    /// Within the lease, the wall clock decides: a clock that is not past the store's would go
    /// on counting where a store that went back a little may have issued the stamps it lost.
    @Test func aStoreWithinTheLeaseMayHaveLostStampsWhenTheWallClockIsNotPastIt() {
        let f = ClockFloor(floorMs: 200_000)
        let last = Self.stamp(170_000, 4)
        #expect(!f.storeMayHaveLostStamps(last: last, storeIsNew: false, wallMs: 170_001), "a wall clock past it issues new wallMs")
        #expect(f.storeMayHaveLostStamps(last: last, storeIsNew: false, wallMs: 170_000), "frozen")
        #expect(f.storeMayHaveLostStamps(last: last, storeIsNew: false, wallMs: 170_000 - 3_600_000), "set back")
        #expect(!f.storeMayHaveLostStamps(last: Self.stamp(200_000), storeIsNew: false, wallMs: 0), "at the floor already")
        #expect(!ClockFloor(floorMs: 0).storeMayHaveLostStamps(last: last, storeIsNew: false, wallMs: 0), "no floor")
    }

    /// The sweep's seeds that found it (2026-12-06, workload seeds 600001 – 601000): the
    /// phone's clock set back more than an hour, then its store rolled back a few commits,
    /// within a lease; the restored clock gave the next write the stamp of a lost one.
    @Test func seed600901OfCorruptPhoneStore() throws {
        let o = try SimTest.replay(
            "corrupt-phone-store", seed: 600901,
            faults: "@5m13s clock phone -1h52m23s; @8m50s link loss 15% for 5m44s; @11m16s rollback phone", workload: .countdown,
            ops: "@3m55s phone goal-add G2 2026-12-26; @10m54s phone goal-title G2 G2r3; @12m12s phone goal-title G2 G2r4")
        #expect(o.passed, "\(o.problems)")
    }

    @Test func seed600901OfGoalAddedOnResetWatch() throws {
        let o = try SimTest.replay(
            "goal-added-on-reset-watch", seed: 600901,
            faults: "@4m4s kill watch for 2m12s; @5m13s clock phone -1h52m23s; @8m50s link loss 15% for 5m44s; @11m16s rollback phone",
            workload: .countdown,
            ops: "@3m35s watch goal-add G1 2027-06-21; @3m55s phone goal-add G2 2026-12-26; @8m56s watch goal-title G1 G1r2; @10m54s phone goal-title G2 G2r3; @12m12s phone goal-title G2 G2r4")
        #expect(o.passed, "\(o.problems)")
    }

    @Test func seed600072OfStepGoalPartition() throws {
        let o = try SimTest.replay(
            "step-goal-partition", seed: 600072, faults: "@4m28s clock phone -1h34m36s; @11m24s rollback phone", workload: .fitness,
            ops: "@8m32s phone complication-push; @8m46s phone switch notifications off; @14m33s phone step-goal 16000; @14m35s phone switch notifications on")
        #expect(o.passed, "\(o.problems)")
    }

    /// Through the node: the phone's clock frozen, a setting written, the store found corrupt,
    /// the setting written again before the watch could send anything back.
    @Test func aStoreResetUnderAFrozenClockIssuesStampsAfterTheLostOnes() throws {
        let (result, driver) = try SimTest.run("""
        scenario "a reset under a frozen clock"
        start 2026-06-01T23:37:00+09:00
        timezone Asia/Tokyo
        23:37:00 link down
        +1s clock phone freeze
        +1s phone settings weekly-summary off
        +1m corrupt phone
        +1m phone settings weekly-summary on
        """)
        #expect(result.passed && result.error == nil, "\(result.error ?? "")")
        let record = try driver.call(.phone, "query record settings settings").get()
        let stamps = record["stamps"]?["weeklySummary"]?.arrayValue
        let stamp = try #require(stamps)
        let frozenWallMs = try #require(SimTest.scenario("scenario \"x\"\nstart 2026-06-01T23:37:01+09:00\ntimezone Asia/Tokyo\n").startMs)
        #expect(stamp[0].intValue! > frozenWallMs, "the new stamp is past the lost store's \(frozenWallMs): \(stamp)")
        let logs = driver.nodeLogs()
        #expect(logs.contains { $0.contains("the hybrid clock starts past its floor") })
    }

    /// Replay: `sync-sim sweep scenarios/fitness-widget-after-midnight.scenario --seed 500862
    /// --workload default --faults "…" --ops "…"`, the shrunk run the sweep gave.
    @Test func theSweepSeedPasses() throws {
        let out = try SimTest.replay("fitness-widget-after-midnight", seed: 500862,
                                     faults: "@5m6s clock phone freeze for 8m44s; @9m8s link down for 9m30s; @10m corrupt phone", workload: .fitness,
                                     ops: "@6m4s phone switch weekly-summary off; @12m24s phone switch weekly-summary on")
        #expect(out.passed, "\(out.problems)")
    }
}

