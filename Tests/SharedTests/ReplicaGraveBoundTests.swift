import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// Graves (collected deletes) are bounded: 90 days from the delete, and at most 10,000.
@Suite("Replica graves are bounded")
struct ReplicaGraveBoundTests {
    let day = ReplicaFixture.dayMs

    /// A replica holding one grave for each of `ids`, deleted at `wallMs`.
    static func withGraves(_ ids: [Int], deletedAt wallMs: Int64) -> ReplicaState {
        var s = ReplicaState(replica: DeviceRole.phone.replicaID, schema: .fitnessAndCountdown)
        for i in ids {
            let key = ReplicaFixture.goal(i)
            s.set(key, ["title": .string("g\(i)")], wallMs: wallMs)
            s.delete(key, wallMs: wallMs)
        }
        s.collectTombstones(upTo: s.seq)
        return s
    }

    @Test func aGraveIsKeptNinetyDaysFromItsDeleteThenDropped() {
        let t0 = ReplicaFixture.start
        var s = Self.withGraves([1, 2], deletedAt: t0)
        #expect(s.graveCount == 2)
        #expect(s.pruneGraves(wallMs: t0 + 90 * day - 1) == 0)
        #expect(s.set(ReplicaFixture.goal(1), field: "title", to: "stale", wallMs: t0 + 90 * day - 1) == .failure(.recordDeleted(ReplicaFixture.goal(1))),
                "within the bound a write to the deleted goal is refused")
        #expect(s.pruneGraves(wallMs: t0 + 90 * day) == 2)
        #expect(s.graveCount == 0 && !s.hasUsed(ReplicaFixture.goal(1)))
        let changes = s.drainGraveChanges()
        #expect(changes.removed == [ReplicaFixture.goal(1), ReplicaFixture.goal(2)] && changes.added.isEmpty, "the store drops their rows")
    }

    @Test func beyondTheCountTheOldestDeletesGoFirst() {
        let t0 = ReplicaFixture.start
        var s = Self.withGraves(Array(0..<ReplicaState.maxGraves), deletedAt: t0)
        var newer = Self.withGraves([ReplicaState.maxGraves], deletedAt: t0 + day)
        // One more grave, a day younger than the others.
        for (key, stamp) in newer.graves { s.loadGrave(key, stamp) }
        _ = newer.drainGraveChanges()
        #expect(s.graveCount == ReplicaState.maxGraves + 1)
        #expect(s.pruneGraves(wallMs: t0 + 2 * day) == 1)
        #expect(s.graveCount == ReplicaState.maxGraves)
        #expect(s.hasUsed(ReplicaFixture.goal(ReplicaState.maxGraves)), "the youngest stays")
    }

    @Test func aReceiveDropsExpiredGravesBeforeTheDeltaMeetsThem() {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        var now = ReplicaFixture.start
        let goal = ReplicaFixture.goal(7)
        phone.state.set(goal, ["title": "Marathon"], wallMs: now)
        syncUntilQuiet(&phone, &watch, nowMs: now)
        phone.state.delete(goal, wallMs: now + 1_000)
        now += 1_000
        syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(phone.state.graveCount == 1 && watch.state.graveCount == 1)
        now += 91 * day
        phone.state.set(ReplicaFixture.goal(8), ["title": "Trip"], wallMs: now)
        syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(watch.state.graveCount == 0, "the watch's grave went with the phone's next delta")
    }

    /// The sweep's seed 40 of `graves-expire-after-90-days.scenario`: the watch adds a goal, the
    /// phone renames it, the watch deletes it and both collect the delete (a grave each). 101
    /// days on the watch's store goes back to before the delete. The graves are gone, so the goal
    /// comes back as the watch held it: with the phone's title too, which only the watch holds
    /// now. (Its first delta used to leave out the phone's writes, so the phone took the goal
    /// without a title and the two never agreed again.) A goal only the phone wrote, deleted on
    /// the phone, stays deleted: the phone's complete resend drops it on the watch.
    @Test func aStoreRolledBackPastAnExpiredGraveBringsTheRecordBackWhole() {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        var now = ReplicaFixture.start
        let goal = ReplicaFixture.goal(1), phones = ReplicaFixture.goal(3)
        _ = watch.state.set(goal, ["title": "G1", "targetDay": "2027-02-19"], wallMs: now)
        _ = phone.state.set(phones, ["title": "G3", "targetDay": "2027-06-24"], wallMs: now)
        syncUntilQuiet(&phone, &watch, nowMs: now)
        now += 21_000
        _ = phone.state.set(goal, field: "title", to: "G1r1", wallMs: now)
        syncUntilQuiet(&phone, &watch, nowMs: now)
        let beforeTheDelete = watch
        now += 108_000
        _ = watch.state.delete(goal, wallMs: now)
        _ = phone.state.delete(phones, wallMs: now)
        syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(phone.state.graveCount == 2 && watch.state.graveCount == 2)
        now += 101 * day
        _ = phone.state.set(ReplicaFixture.goal(2), ["title": "Later"], wallMs: now)
        syncUntilQuiet(&phone, &watch, nowMs: now)
        phone.state.pruneGraves(wallMs: now)  // as the node does at each event
        #expect(phone.state.graveCount == 0, "the phone's graves expired")
        watch = beforeTheDelete
        watch.sync.ownStoreWentBack()
        syncUntilQuiet(&phone, &watch, nowMs: now + 1_000)
        #expect(phone.state.fields(goal)?["title"] == "G1r1", "the goal comes back with the phone's title")
        #expect(phone.state.fields(goal)?["targetDay"] == "2027-02-19")
        #expect(phone.state.fields(phones) == nil && watch.state.fields(phones) == nil, "the phone's delete holds")
        #expect(phone.state.digest() == watch.state.digest())
    }
}
