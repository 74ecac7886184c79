import PeerLinkCore
@testable import PhoneNode
import Testing

/// `PhoneApp.liveField` (what `onReplicaMerged` reads a sample's kind with) is
/// `replica.fields(key)?[name]` for live records, deleted ones and absent keys.
@Suite struct PhoneReplicaFieldTests {
    @Test func liveFieldEqualsTheFieldsDictionary() throws {
        let net = try makePhoneNetwork(seed: 32, start: PhoneFixture.local("Asia/Tokyo", 2026, 6, 1, 8))
        for line in ["sample steps 500 1 2", "sample heartRate 70 3 4", "workout w1 ended 1", #"setting stepGoal 9000"#] {
            net.onWatch(line)
        }
        net.onPhone(#"goal add "Marathon" --date 2026-12-01"#)
        // Deleted while the watch is away: the tombstone stays until the watch acknowledges it.
        net.setLink(up: false)
        net.runUntilQuiet(maxMs: 10_000)
        net.onPhone("goal delete goal-1 --confirm")
        let replica = net.phone.ctx.replica
        var keys = Array(replica.records.keys)
        keys.append(RecordKey("healthSample", "absent"))
        #expect(keys.count >= 5)
        for key in keys {
            let names = Set((replica.fields(key) ?? [:]).keys).union(["kind", "title", "nothing", ""])
            for name in names {
                #expect(PhoneApp.liveField(name, of: key, replica) == replica.fields(key)?[name], "\(key) \(name)")
            }
        }
        #expect(keys.contains { replica.isDeleted($0) }, "a deleted record is among them")
    }
}
