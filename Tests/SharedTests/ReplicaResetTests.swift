import Testing
@testable import PeerLinkCore
@testable import FitnessDomain
@testable import CountdownDomain

/// A store found corrupt starts empty with a new incarnation; the next sync restores
/// everything the peer holds, including what the reset replica had written itself.
@Suite("Replica store reset")
struct ReplicaResetTests {
    let t = ReplicaFixture.start

    func syncedPair() -> (ReplicaPeer, ReplicaPeer) {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        for i in 0..<20 { phone.state.set(ReplicaFixture.goal(i), ["title": .string("p\(i)"), "priority": .int(Int64(i))], wallMs: t + Int64(i)) }
        for i in 20..<30 { watch.state.set(ReplicaFixture.goal(i), ["title": .string("w\(i)")], wallMs: t + Int64(i)) }
        for i in 0..<5 { watch.state.set(ReplicaFixture.goal(i), field: "title", to: .string("edited on the watch \(i)"), wallMs: t + 100) }
        watch.state.put(HealthSample(id: "s1", kind: .steps, source: .watch, startMs: t, endMs: t + 60_000, value: 80), wallMs: t)
        syncUntilQuiet(&phone, &watch, nowMs: t + 200)
        #expect(phone.state.digest() == watch.state.digest())
        return (phone, watch)
    }

    @Test func theNextSyncRestoresEverythingThePeerHoldsIncludingOwnWrites() {
        var (phone, watch) = syncedPair()
        let before = phone.state.digest()
        watch.resetStore(incarnation: 99)
        #expect(watch.state.entryCount == 0)
        let t1 = syncUntilQuiet(&phone, &watch, nowMs: t + 300)
        #expect(watch.state.digest() == before, "the watch's own goals, edits and samples come back from the phone")
        #expect(phone.state.digest() == before)
        // Announce; everything back; the watch then echoes its own writes once (it cannot
        // tell that the phone sent them to it).
        #expect(t1.rounds <= 3)
        // Afterwards the sync is incremental again: one change, one small delta.
        phone.state.set(ReplicaFixture.goal(3), field: "priority", to: 99, wallMs: t + 400)
        let t2 = syncUntilQuiet(&phone, &watch, nowMs: t + 400)
        #expect(t2.rounds == 1 && t2.bytesAtoB < 80 && t2.deltasBtoA == 0, "\(t2)")
    }

    /// A fresh watch store announces itself; once it confirmed the phone's deltas it loses them
    /// again (its store goes back to the start, keeping its incarnation: a young store whose
    /// log lost a tail). Its repeated announcement makes the phone send everything again.
    @Test func aStoreThatAnnouncesItselfAgainAfterConfirmingGetsEverythingAgain() {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        watch.resetStore(incarnation: 2)
        let young = watch
        for i in 0..<5 { phone.state.set(ReplicaFixture.goal(i), ["title": .string("p\(i)")], wallMs: t + Int64(i)) }
        syncUntilQuiet(&phone, &watch, nowMs: t + 100)
        #expect(watch.state.count(in: CountdownGoal.collection) == 5)
        watch = young
        #expect(watch.state.count(in: CountdownGoal.collection) == 0)
        syncUntilQuiet(&phone, &watch, nowMs: t + 200)
        #expect(watch.state.count(in: CountdownGoal.collection) == 5, "the phone sent everything again")
        #expect(phone.state.digest() == watch.state.digest())
    }

    /// The phone's store went back (it starts a new incarnation, forgetting which watch store it
    /// knew); before it hears from the watch again, the watch's store is found corrupt and reset.
    /// To the phone the watch's announcement is a first contact, but the phone holds the
    /// watch's old writes and its deletes: it must send them all, or the watch never gets its
    /// own goals back and takes a deleted goal's id again (the two never converge).
    @Test func aStoreThatWentBackSendsEverythingToAPeerThatResetsBeforeTheyMeetAgain() {
        var (phone, watch) = syncedPair()
        phone.state.delete(ReplicaFixture.goal(25), wallMs: t + 250)
        syncUntilQuiet(&phone, &watch, nowMs: t + 260)
        let before = phone.state.digest()
        phone.sync.ownStoreWentBack()
        watch.resetStore(incarnation: 99)
        syncUntilQuiet(&phone, &watch, nowMs: t + 300)
        #expect(watch.state.count(in: CountdownGoal.collection) == 29, "the watch's own goals came back")
        #expect(watch.state.hasUsed(ReplicaFixture.goal(25)), "and the delete of one of them")
        #expect(phone.state.digest() == watch.state.digest())
        #expect(phone.state.digest() == before)
    }

    @Test func writesMadeBeforeTheAnnouncementArrivesAreKept() {
        var (phone, watch) = syncedPair()
        watch.resetStore(incarnation: 99)
        watch.state.set(ReplicaFixture.goal(50), field: "title", to: "new after reset", wallMs: t + 300)
        phone.state.set(ReplicaFixture.goal(51), field: "title", to: "new on the phone", wallMs: t + 301)
        syncUntilQuiet(&phone, &watch, nowMs: t + 400)
        #expect(phone.state.digest() == watch.state.digest())
        #expect(phone.state.fields(ReplicaFixture.goal(50)) != nil && watch.state.fields(ReplicaFixture.goal(51)) != nil)
        #expect(watch.state.count(in: CountdownGoal.collection) == 32)
    }

    @Test func aDeltaMadeForTheLostStoreIsNotApplied() throws {
        // The phone edits a goal the watch deleted; the phone's delta is in flight to the
        // watch's old store, which is lost after its delete reached the phone. Applying that
        // stale delta to the new store would show a goal the phone no longer has.
        var (phone, watch) = syncedPair()
        let goal = ReplicaFixture.goal(7)
        phone.state.set(goal, field: "title", to: "edited on the phone", wallMs: t + 300)
        let made = phone.sync.makeDelta(from: phone.state)
        let stale = try #require(made)
        watch.state.delete(goal, wallMs: t + 301)
        let deleteMade = watch.sync.makeDelta(from: watch.state)
        for p in try #require(deleteMade) {
            _ = phone.sync.receive(p, into: &phone.state, wallMs: t + 302)
            watch.sync.onPartConfirmed()
        }
        #expect(phone.state.fields(goal) == nil)
        watch.resetStore(incarnation: 99)
        for p in stale {
            let r = watch.sync.receive(try ReplicaDeltaCodec.decode(ReplicaDeltaCodec.encode(p)), into: &watch.state, wallMs: t + 303)
            #expect(r.ignored == .addressedToEarlierStore(2))
            phone.sync.onPartConfirmed()
        }
        #expect(watch.state.fields(goal) == nil)
        syncUntilQuiet(&phone, &watch, nowMs: t + 400)
        #expect(phone.state.fields(goal) == nil && watch.state.fields(goal) == nil)
        #expect(phone.state.digest() == watch.state.digest())
    }

    @Test func aDeltaFromAnotherReplicaIdIsIgnored() {
        var (phone, _) = syncedPair()
        let foreign = ReplicaDelta(origin: 7, incarnation: 5, baseSeq: 0, upToSeq: 1, ackIncarnation: 0, ackSeq: 0,
                                   records: [DeltaRecord(key: ReplicaFixture.goal(90), fields: [DeltaField(name: "title", value: "x", stamp: HLCTimestamp(wallMs: t, counter: 0, replica: 7))], tombstone: nil)])
        let r = phone.sync.receive(foreign, into: &phone.state, wallMs: t)
        #expect(r.ignored == .wrongOrigin(7) && phone.state.fields(ReplicaFixture.goal(90)) == nil)
    }

    @Test func bothStoresResetLeavesWhatNeitherLostAndConverges() {
        var (phone, watch) = syncedPair()
        phone.resetStore(incarnation: 77)
        phone.state.set(ReplicaFixture.goal(60), field: "title", to: "phone after reset", wallMs: t + 300)
        syncUntilQuiet(&phone, &watch, nowMs: t + 310)
        watch.resetStore(incarnation: 78)
        syncUntilQuiet(&phone, &watch, nowMs: t + 320)
        #expect(phone.state.digest() == watch.state.digest())
        #expect(watch.state.count(in: CountdownGoal.collection) == 31)
    }
}
