import Testing
@testable import PeerLinkCore
@testable import CountdownDomain

/// Deletes: tombstones are collected once the peer acknowledged them, and nothing brings a
/// deleted record back, however long a device was offline.
@Suite("Replica tombstones")
struct ReplicaTombstoneTests {
    let goal = ReplicaFixture.goal(7)
    let day = ReplicaFixture.dayMs

    func syncedPair() -> (ReplicaPeer, ReplicaPeer, Int64) {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        let now = ReplicaFixture.start
        phone.state.put(CountdownGoal(id: "g7", title: "Marathon", targetDate: CivilDate(year: 2026, month: 3, day: 1), isAgeGoal: false, createdMs: now, priority: 10), wallMs: now)
        syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(watch.state.fields(goal)?["title"] == "Marathon")
        return (phone, watch, now)
    }

    /// A key stays used through every stage of a delete, so a new record never takes it
    /// (the apps' goal ids rely on this; a write to it would be refused).
    @Test func aKeyStaysUsedWhenItsTombstoneIsCollected() {
        var (phone, watch, now) = syncedPair()
        let unused = ReplicaFixture.goal(9)
        #expect(phone.state.hasUsed(goal) && !phone.state.hasUsed(unused))
        phone.state.delete(goal, wallMs: now + 1_000)
        #expect(phone.state.hasUsed(goal), "a tombstone")
        now += 1_000
        syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(phone.state.entry(goal) == nil && watch.state.entry(goal) == nil, "collected on both")
        #expect(phone.state.hasUsed(goal) && watch.state.hasUsed(goal), "a grave")
        #expect(phone.state.set(goal, field: "title", to: "again", wallMs: now) == .failure(.recordDeleted(goal)))
        #expect(!watch.state.hasUsed(unused))
    }

    @Test func aDeviceOfflineForWeeksNeverBringsADeletedRecordBack() {
        var (phone, watch, now) = syncedPair()
        // The watch is offline for three weeks and edits the goal every day; its clock runs
        // a day ahead. The phone deletes the goal on the first day.
        watch.skewMs = day
        phone.state.delete(goal, wallMs: now + 1_000)
        for d in 0..<21 {
            now += day
            watch.state.set(goal, field: "title", to: .string("Marathon, week \(d / 7 + 1)"), wallMs: now + watch.skewMs)
        }
        let t = syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(phone.state.fields(goal) == nil && watch.state.fields(goal) == nil)
        #expect(phone.state.digest() == watch.state.digest())
        #expect(phone.state.tombstoneCount == 0 && watch.state.tombstoneCount == 0, "collected once acknowledged")
        #expect(t.rounds <= 3)
        // Weeks later still nothing comes back.
        now += 30 * day
        watch.state.set(ReplicaFixture.goal(8), field: "title", to: "other", wallMs: now)
        syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(phone.state.fields(goal) == nil && watch.state.fields(goal) == nil)
    }

    @Test func aStaleDeltaInFlightArrivesBeforeTheAckThatCollectsTheTombstone() throws {
        var (phone, watch, now) = syncedPair()
        // The watch's edit leaves in a delta that is not delivered yet.
        watch.state.set(goal, field: "title", to: "edited offline", wallMs: now + 5)
        let made = watch.sync.makeDelta(from: watch.state)
        let staleParts = try #require(made)
        // The phone deletes; its delta reaches the watch, which collects the tombstone at once.
        phone.state.delete(goal, wallMs: now + 10)
        let deleteParts = phone.sync.makeDelta(from: phone.state)
        for p in try #require(deleteParts) {
            _ = watch.sync.receive(try ReplicaDeltaCodec.decode(ReplicaDeltaCodec.encode(p)), into: &watch.state, wallMs: now + 20)
            phone.sync.onPartConfirmed()
        }
        #expect(watch.state.tombstoneCount == 0 && watch.state.fields(goal) == nil)
        // One delta in flight at a time: the watch cannot send its ack before the stale delta.
        let early = watch.sync.makeDelta(from: watch.state)
        #expect(early == nil)
        // FIFO: the stale delta arrives first, while the phone still holds the tombstone.
        #expect(phone.state.tombstoneCount == 1)
        for p in staleParts {
            _ = phone.sync.receive(try ReplicaDeltaCodec.decode(ReplicaDeltaCodec.encode(p)), into: &phone.state, wallMs: now + 30)
            watch.sync.onPartConfirmed()
        }
        #expect(phone.state.fields(goal) == nil, "the stale edit loses to the tombstone")
        now += 1_000
        syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(phone.state.fields(goal) == nil && watch.state.fields(goal) == nil)
        #expect(phone.state.tombstoneCount == 0 && watch.state.tombstoneCount == 0)
        #expect(phone.state.digest() == watch.state.digest())
    }

    @Test func aTombstoneIsKeptUntilThePeerAcknowledgedIt() throws {
        var (phone, watch, now) = syncedPair()
        phone.state.delete(goal, wallMs: now + 1)
        let made = phone.sync.makeDelta(from: phone.state)
        for p in try #require(made) {
            _ = watch.sync.receive(p, into: &watch.state, wallMs: now)
            phone.sync.onPartConfirmed()
        }
        #expect(phone.state.tombstoneCount == 1, "confirmed delivery is not yet an acknowledgement in a delta")
        // The watch owes an acknowledgement even with nothing else to send.
        let ackParts = watch.sync.makeDelta(from: watch.state)
        let ack = try #require(ackParts)
        #expect(ack.count == 1 && ack[0].records.isEmpty)
        let r = phone.sync.receive(ack[0], into: &phone.state, wallMs: now)
        watch.sync.onPartConfirmed()
        #expect(r.tombstonesCollected == 1 && phone.state.tombstoneCount == 0)
        now += 1
        let rest = syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(rest.rounds == 0, "and then the sync is quiet")
    }

    @Test func aWriteMadeAfterTheTombstoneWasCollectedIsDeletedAgainWhileTheDeleterHoldsIt() throws {
        var (phone, watch, now) = syncedPair()
        phone.state.delete(goal, wallMs: now + 1)
        let made = phone.sync.makeDelta(from: phone.state)
        for p in try #require(made) {
            _ = watch.sync.receive(p, into: &watch.state, wallMs: now)
            phone.sync.onPartConfirmed()
        }
        // The watch app writes to the id it no longer knows was deleted (ids are never
        // reused, so this is an app bug) before acknowledging: the phone re-sends the delete.
        watch.state.set(goal, field: "title", to: "zombie", wallMs: now + 2)
        now += 10
        syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(phone.state.fields(goal) == nil && watch.state.fields(goal) == nil)
        #expect(phone.state.digest() == watch.state.digest())
        #expect(phone.state.tombstoneCount == 0 && watch.state.tombstoneCount == 0)
    }

    @Test func bothDevicesDeletingTheSameRecordConvergeWithoutTombstones() {
        var (phone, watch, now) = syncedPair()
        phone.state.delete(goal, wallMs: now + 1)
        watch.state.delete(goal, wallMs: now + 2)
        now += 10
        syncUntilQuiet(&phone, &watch, nowMs: now)
        #expect(phone.state.fields(goal) == nil && watch.state.fields(goal) == nil)
        #expect(phone.state.tombstoneCount == 0 && watch.state.tombstoneCount == 0)
        #expect(phone.state.digest() == watch.state.digest())
    }
}
