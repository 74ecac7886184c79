import Testing
@testable import PeerLinkCore
@testable import CountdownDomain

/// The phone's store is reset; its announcement reaches the watch, whose complete resend is
/// lost on the way; then the watch's store goes back in time to before the announcement. The
/// rolled-back watch knew the phone's old store. When the phone then speaks from its new one,
/// the watch must send everything, the phone's own writes and deletes included: the phone
/// holds none of them any more, and nothing of the watch's remembers sending them. Found by a
/// workload sweep (seed 500033 of `corrupt-phone-store.scenario`): the phone handed out a goal
/// id the watch held as a delete, and the two never agreed again.
@Suite("A peer reset in the history a rolled-back store lost")
struct ReplicaPeerResetBeforeRollbackTests {
    let t = ReplicaFixture.start

    /// A synced pair in which the phone wrote goals 0 – 9 and deleted goal 5, and the watch
    /// wrote goals 20 – 24; the watch's store as it was then (what it goes back to).
    func syncedPair() -> (ReplicaPeer, ReplicaPeer) {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        for i in 0..<10 { phone.state.set(ReplicaFixture.goal(i), ["title": .string("p\(i)")], wallMs: t + Int64(i)) }
        for i in 20..<25 { watch.state.set(ReplicaFixture.goal(i), ["title": .string("w\(i)")], wallMs: t + Int64(i)) }
        syncUntilQuiet(&phone, &watch, nowMs: t + 100)
        phone.state.delete(ReplicaFixture.goal(5), wallMs: t + 150)
        syncUntilQuiet(&phone, &watch, nowMs: t + 160)
        #expect(phone.state.digest() == watch.state.digest())
        return (phone, watch)
    }

    /// The phone's reset announcement reaches `watch`; the watch's answer is lost.
    func phoneResetsAndItsAnswerIsLost(_ phone: inout ReplicaPeer, _ watch: inout ReplicaPeer, alreadyReset: Bool = false) throws {
        if !alreadyReset { phone.resetStore(incarnation: 99) }
        let made = phone.sync.makeDelta(from: phone.state)
        let announcement = try #require(made)
        for p in announcement {
            _ = watch.sync.receive(p, into: &watch.state, wallMs: t + 200)
            phone.sync.onPartConfirmed()
        }
        #expect(watch.sync.persistent.resendPeerWrites)
        _ = watch.sync.makeDelta(from: watch.state)  // the complete resend, lost on the way
        watch.sync.onPartFailed()
    }

    @Test func theWatchSendsThePhonesOwnWritesAndDeletesBack() throws {
        var (phone, watch) = syncedPair()
        let before = phone.state.digest()
        let rolledBack = watch
        try phoneResetsAndItsAnswerIsLost(&phone, &watch)
        watch = rolledBack
        watch.sync.ownStoreWentBack()  // found at the next handshake
        #expect(watch.sync.persistent.formerPeerIncarnation == 1)
        syncUntilQuiet(&phone, &watch, nowMs: t + 300)
        #expect(phone.state.count(in: CountdownGoal.collection) == 14, "the phone's own goals came back")
        #expect(phone.state.hasUsed(ReplicaFixture.goal(5)), "and its delete, so it never hands the id out again")
        #expect(phone.state.digest() == watch.state.digest())
        #expect(phone.state.digest() == before)
        #expect(watch.sync.persistent.formerPeerIncarnation == 0)
    }

    /// The same, when the watch hears from the phone's new store before its handshake found
    /// its own store behind (the delta is addressed to the watch's store as it was).
    @Test func theSameWhenTheWatchLearnsItFromThePhonesDelta() throws {
        var (phone, watch) = syncedPair()
        let before = phone.state.digest()
        let rolledBack = watch
        try phoneResetsAndItsAnswerIsLost(&phone, &watch)
        phone.state.set(ReplicaFixture.goal(30), ["title": "after the reset"], wallMs: t + 250)
        let made = phone.sync.makeDelta(from: phone.state)
        let fromNewStore = try #require(made)
        watch = rolledBack
        for p in fromNewStore {
            let r = watch.sync.receive(p, into: &watch.state, wallMs: t + 260)
            #expect(r.ignored != nil)
        }
        phone.sync.onPartFailed()
        #expect(watch.sync.persistent.resendPeerWrites && watch.sync.persistent.formerPeerIncarnation == 0)
        syncUntilQuiet(&phone, &watch, nowMs: t + 300)
        #expect(phone.state.count(in: CountdownGoal.collection) == 15)
        #expect(phone.state.hasUsed(ReplicaFixture.goal(5)))
        #expect(phone.state.digest() == watch.state.digest())
        #expect(phone.state.digest() != before, "goal 30 is new")
    }

    /// The rolled-back watch's resend to the phone's new store carries everything it holds, but
    /// no key ranges: it lacks what it wrote after the time it went back to, and the phone must
    /// not take that for deleted. (With ranges, sweeps found the phone dropping the watch's
    /// newer records and settings: seeds 500084 of `corrupt-phone-store.scenario` and 500430
    /// of `watch-store-corrupt-mid-workout.scenario`.)
    @Test func itsResendDoesNotMakeThePeerDropWhatItLost() throws {
        var (phone, watch) = syncedPair()
        let rolledBack = watch
        phone.resetStore(incarnation: 99)
        syncUntilQuiet(&phone, &watch, nowMs: t + 200)
        watch.state.set(ReplicaFixture.goal(40), ["title": "written after the time it goes back to"], wallMs: t + 250)
        syncUntilQuiet(&phone, &watch, nowMs: t + 260)
        #expect(phone.state.fields(ReplicaFixture.goal(40)) != nil)
        watch = rolledBack
        watch.sync.ownStoreWentBack()
        // The watch's announcement and a delta of the phone's cross on the way.
        phone.state.set(ReplicaFixture.goal(41), ["title": "new on the phone"], wallMs: t + 270)
        let fromWatch = watch.sync.makeDelta(from: watch.state), fromPhone = phone.sync.makeDelta(from: phone.state)
        for p in try #require(fromPhone) {
            _ = watch.sync.receive(p, into: &watch.state, wallMs: t + 280)
            phone.sync.onPartConfirmed()
        }
        #expect(watch.sync.persistent.resendPeerWrites)
        for p in try #require(fromWatch) {
            _ = phone.sync.receive(p, into: &phone.state, wallMs: t + 280)
            watch.sync.onPartConfirmed()
        }
        syncUntilQuiet(&phone, &watch, nowMs: t + 300)
        #expect(phone.state.fields(ReplicaFixture.goal(40)) != nil, "the phone kept it")
        #expect(watch.state.fields(ReplicaFixture.goal(40)) != nil, "and sent it back")
        #expect(phone.state.digest() == watch.state.digest())
    }

    /// The reset phone heard from the watch's old store (a delta it refused) before the watch
    /// went back: to the phone the rolled-back watch's announcement is a reset peer's, and it
    /// sends a complete resend. The phone lost data and was not refilled, so that resend
    /// carries no key ranges: with them, the watch would delete every goal the phone wrote and
    /// the phone no longer holds (found by a reading of the code, not yet by a sweep).
    @Test func aResetStoreNotYetRefilledMakesThePeerDropNothing() throws {
        var (phone, watch) = syncedPair()
        let before = phone.state.digest()
        let rolledBack = watch
        phone.resetStore(incarnation: 99)
        #expect(phone.sync.persistent.awaitsRefill)
        // A delta the watch made for the phone's old store reaches the new one, which refuses it.
        watch.state.set(ReplicaFixture.goal(21), field: "title", to: "edited", wallMs: t + 180)
        let old = watch.sync.makeDelta(from: watch.state)
        for p in try #require(old) {
            #expect(phone.sync.receive(p, into: &phone.state, wallMs: t + 190).ignored != nil)
            watch.sync.onPartConfirmed()
        }
        try phoneResetsAndItsAnswerIsLost(&phone, &watch, alreadyReset: true)
        watch = rolledBack
        watch.sync.ownStoreWentBack()
        syncUntilQuiet(&phone, &watch, nowMs: t + 300)
        #expect(watch.state.count(in: CountdownGoal.collection) == 14, "the watch dropped none of the phone's goals")
        #expect(phone.state.count(in: CountdownGoal.collection) == 14, "and the phone has them back")
        #expect(phone.state.hasUsed(ReplicaFixture.goal(5)))
        #expect(phone.state.digest() == watch.state.digest())
        #expect(phone.state.digest() == before)
        // Both lost data, so neither refilled the other with key ranges: both still wait, and
        // their later resends carry none (deletes still travel as tombstones and graves).
        #expect(phone.sync.persistent.awaitsRefill && watch.sync.persistent.awaitsRefill)
    }

    /// Gone back a second time before the phone spoke: the store it knew is still the phone's
    /// old one (the 500033 failure again otherwise).
    @Test func aSecondRollbackBeforeThePeerSpeaksKeepsTheStoreItKnew() {
        var (_, watch) = syncedPair()
        watch.sync.ownStoreWentBack()
        watch.sync.ownStoreWentBack()
        #expect(watch.sync.persistent.formerPeerIncarnation == 1)
    }

    /// A rolled-back store whose peer kept its store sends only the records it wrote a field
    /// of, as before (the peer holds its own writes), and no key ranges.
    @Test func aPeerThatKeptItsStoreIsNotSentItsOwnWrites() throws {
        var (phone, watch) = syncedPair()
        watch.sync.ownStoreWentBack()
        let made = watch.sync.makeDelta(from: watch.state)
        let parts = try #require(made)
        let records = parts.flatMap(\.records)
        #expect(!records.isEmpty && parts.allSatisfy { $0.coverage == nil && $0.storeWasReset })
        for r in records {
            #expect(r.fields.contains { $0.stamp.replica == DeviceRole.watch.replicaID }, "\(r.key): only the phone wrote it")
        }
        for p in parts {
            _ = phone.sync.receive(p, into: &phone.state, wallMs: t + 290)
            watch.sync.onPartConfirmed()
        }
        syncUntilQuiet(&phone, &watch, nowMs: t + 300)
        #expect(watch.sync.persistent.formerPeerIncarnation == 0)
        #expect(phone.state.digest() == watch.state.digest())
    }

    /// The peer store the rolled-back store knew survives a restart in the `sync` row; a row
    /// without it (as every store that never went back writes) reads as none.
    @Test func theFormerPeerIsKeptInTheSyncRow() throws {
        var p = ReplicaSync.Persistent(incarnation: 7)
        p.peerIncarnation = 9
        let plain = ReplicaPersistence.encodeSync(p)
        #expect(try ReplicaPersistence.decodeSync(plain) == p)
        p.formerPeerIncarnation = 0xDEAD_BEEF_0000_0001
        let withFormer = ReplicaPersistence.encodeSync(p)
        #expect(withFormer.count == plain.count + 8)
        #expect(try ReplicaPersistence.decodeSync(withFormer) == p)
    }
}
