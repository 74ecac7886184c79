import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

@Suite("Hybrid logical clock")
struct HybridLogicalClockTests {
    let t0 = ReplicaFixture.start
    let hour = ReplicaFixture.hourMs

    // MARK: - The clock alone

    @Test func timestampsNeverGoBackwardsWhenTheWallClockJumpsBackAnHour() {
        var c = HybridLogicalClock(replica: 1)
        let before = c.tick(wallMs: t0)
        let afterJump = c.tick(wallMs: t0 - hour)
        let later = c.tick(wallMs: t0 - hour + 10)
        #expect(afterJump > before && later > afterJump)
        #expect(afterJump.wallMs == t0, "the physical part keeps the largest wall time seen")
        // Once the wall clock passes the old time again, the physical part follows it.
        let caughtUp = c.tick(wallMs: t0 + 5)
        #expect(caughtUp == HLCTimestamp(wallMs: t0 + 5, counter: 0, replica: 1))
    }

    @Test func aFrozenWallClockStillOrdersEveryWrite() {
        var c = HybridLogicalClock(replica: 2)
        var previous = HLCTimestamp.zero
        for _ in 0..<10_000 {
            let s = c.tick(wallMs: t0)
            #expect(s > previous)
            previous = s
        }
        #expect(previous == HLCTimestamp(wallMs: t0, counter: 9_999, replica: 2))
    }

    @Test func anExhaustedCounterBorrowsTheNextMillisecond() {
        var c = HybridLogicalClock(replica: 1, last: HLCTimestamp(wallMs: t0, counter: UInt32.max - 1, replica: 1))
        let a = c.tick(wallMs: t0)
        let b = c.tick(wallMs: t0)
        #expect(a.counter == UInt32.max)
        #expect(b == HLCTimestamp(wallMs: t0 + 1, counter: 0, replica: 1))
        #expect(b > a)
    }

    @Test func aTickAfterObservingIsGreaterThanWhatWasObserved() {
        var rng = ReplicaSplitMix64(seed: 7)
        for _ in 0..<2_000 {
            var c = HybridLogicalClock(replica: 1, last: HLCTimestamp(wallMs: t0 + Int64(rng.below(100)), counter: UInt32(rng.below(3)), replica: 1))
            let remote = HLCTimestamp(wallMs: t0 + Int64(rng.below(100)), counter: UInt32(rng.below(3)), replica: 2)
            let lastBefore = c.last
            c.observe(remote, wallMs: t0 + Int64(rng.below(100)))
            #expect(c.last > remote && c.last >= lastBefore, "seed 7: \(remote) \(lastBefore) → \(c.last)")
            let s = c.tick(wallMs: t0 + Int64(rng.below(100)))
            #expect(s > remote, "seed 7")
        }
    }

    @Test func raisingKeepsTheReplicaAndNeverLowers() {
        var c = HybridLogicalClock(replica: 3)
        c.raise(to: HLCTimestamp(wallMs: t0, counter: 4, replica: 9))
        c.raise(to: HLCTimestamp(wallMs: t0 - 1, counter: 99, replica: 9))
        #expect(c.last == HLCTimestamp(wallMs: t0, counter: 4, replica: 3))
    }

    // MARK: - Between devices

    /// The phone's clock is `skew` ahead of the watch's; each write is made after seeing the
    /// other's, so each MUST win, and none is refused.
    func alternatingWritesWin(skewMs: Int64) {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        phone.skewMs = skewMs
        var now = t0
        for round in 0..<6 {
            let writerIsPhone = round % 2 == 0
            let value = PlistValue.int(Int64(round))
            let result = writerIsPhone
                ? phone.state.set(ReplicaFixture.settings, field: "stepGoal", to: value, wallMs: now + phone.skewMs)
                : watch.state.set(ReplicaFixture.settings, field: "stepGoal", to: value, wallMs: now + watch.skewMs)
            #expect((try? result.get()) != nil, "skew \(skewMs): write \(round) refused")
            now += 1_000
            syncUntilQuiet(&phone, &watch, nowMs: now)
            #expect(phone.state.fields(ReplicaFixture.settings)?["stepGoal"] == value, "skew \(skewMs): write \(round) lost on the phone")
            #expect(watch.state.fields(ReplicaFixture.settings)?["stepGoal"] == value, "skew \(skewMs): write \(round) lost on the watch")
        }
    }

    @Test func aPeerClock24HoursAheadNeverLosesOrRefusesALaterWrite() { alternatingWritesWin(skewMs: 24 * hour) }

    @Test func aPeerClock24HoursBehindNeverLosesOrRefusesALaterWrite() { alternatingWritesWin(skewMs: -24 * hour) }

    @Test func concurrentWritesUnderSkewAreNeitherRefusedNorLostSilently() {
        // Both write the same field without seeing each other: one value wins on both, and
        // every other field written survives.
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        phone.skewMs = 24 * hour
        #expect((try? phone.state.set(ReplicaFixture.settings, ["stepGoal": 8_000, "notifications": false], wallMs: t0 + phone.skewMs).get()) != nil)
        #expect((try? watch.state.set(ReplicaFixture.settings, ["stepGoal": 12_000, "weeklySummary": false], wallMs: t0).get()) != nil)
        syncUntilQuiet(&phone, &watch, nowMs: t0 + 1)
        #expect(phone.state.digest() == watch.state.digest())
        let f = phone.state.fields(ReplicaFixture.settings)
        #expect(f?["stepGoal"] == 8_000, "the ahead clock's concurrent write has the greater stamp")
        #expect(f?["notifications"] == false && f?["weeklySummary"] == false)
    }

    @Test func theClockSurvivesARestartThroughTheStore() throws {
        var s = ReplicaState(replica: 1, schema: .fitnessAndCountdown)
        s.set(ReplicaFixture.goal(1), field: "title", to: "x", wallMs: t0 + 24 * hour)
        s.delete(ReplicaFixture.goal(1), wallMs: t0)
        let last = s.clock.last
        s.collectTombstones(upTo: .max)  // the record that carried the greatest stamp is gone
        let store = MemoryStore()
        var batch = WriteBatch()
        ReplicaPersistence.persistChanges(of: &s, sync: ReplicaSync.Persistent(incarnation: 1), into: &batch)
        try store.commit(batch)
        var (loaded, _) = try ReplicaPersistence.load(from: store, replica: 1, schema: .fitnessAndCountdown)
        #expect(loaded.clock.last == last)
        let next = try loaded.set(ReplicaFixture.goal(2), field: "title", to: "y", wallMs: t0).get()
        #expect(next > last)
    }
}
