import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch

/// `damage-partial-file`: bytes of a receiver's committed partial file change while it is down.
@Suite("Damage to a partial file")
struct PartialFileDamageTests {
    @Test func theStepAndTheFaultParse() throws {
        let s = try SimTest.scenario("07:00:00 damage-partial-file phone\n")
        guard case .damagePartialFile(.phone) = s.steps[0].action else {
            Issue.record("parsed as \(s.steps[0].action)")
            return
        }
        let f = try FaultSchedule.parse("@5m damage-partial-file watch")
        #expect(f.faults == [ScheduledFault(atMs: 300_000, kind: .damagePartialFile(.watch))])
        #expect(f.description == "@5m damage-partial-file watch")
    }

    @Test func onlyCommittedBytesChangeAndEachChangedByteDiffers() throws {
        let files = MemoryFileStorage()
        let original = [UInt8](repeating: 7, count: 100)
        for seed in UInt64(1)...50 {
            try files.write("inbox/a-1.part", offset: 0, bytes: original)
            let what = try PartialFileDamage.apply(to: files, path: "inbox/a-1.part", committedBytes: 10, seed: seed)
            #expect(what != nil)
            let now = try files.readAll("inbox/a-1.part")
            let changed = now.indices.filter { now[$0] != original[$0] }
            #expect(!changed.isEmpty && changed.allSatisfy { $0 < 10 }, "seed \(seed): \(changed)")
        }
        #expect(try PartialFileDamage.apply(to: files, path: "inbox/none.part", committedBytes: 10, seed: 1) == nil)
        #expect(try PartialFileDamage.apply(to: files, path: "inbox/a-1.part", committedBytes: 0, seed: 1) == nil)
    }

    @Test func aDamageArmedWhileNoPartialFileExistsChangesNothing() throws {
        let (r, _) = try SimTest.run("""
            07:00:00 damage-partial-file phone
            07:00:01 phone settings step-goal 9000
            07:01:00 expect converged
            """)
        #expect(r.passed, "\(r.text())")
        #expect(!r.timeline.contains { $0.contains("damage the partial file") })
    }
}
