import PeerLinkCore
import PhoneNode
import Testing

/// After a store reset the phone cannot know which goal ids the watch holds: goals created
/// before the watch's state is back take ids no earlier store can have used.
@Suite("Phone goal ids after a store reset")
struct PhoneGoalIDAfterResetTests {
    typealias F = PhoneFixture

    @Test func goalsCreatedBeforeTheResyncTakeASuffixedId() throws {
        let start = F.local("Asia/Tokyo", 2026, 6, 3, 12)
        let cal = try #require(LocalCalendar(identifier: "Asia/Tokyo"))
        // A phone that starts normally numbers its goals goal-1, goal-2…
        let normal = try PhoneHarness(start: start)
        #expect(normal.ok("goal add Trip --date 2026-08-01").value["id"] == "goal-1")
        // One whose store was found corrupt does not, until the watch's state is applied.
        let engine = try PhoneHarness.open(store: MemoryStore(), sink: MemoryExportFolder(), calendar: cal, language: .ja, now: start,
                                           opening: .resetAfterCorruption(reason: "test", quarantinedAs: "state.sqlite.corrupt-1"))
        let reply = engine.command(try #require(NodeCommand(line: "goal add Trip --date 2026-08-01")), now: start)
        let id = try #require(reply.value["id"]?.stringValue)
        #expect(id.hasPrefix("goal-1-") && id.count == "goal-1-".count + 4, "\(id)")
        let second = engine.command(try #require(NodeCommand(line: "goal add Exam --date 2026-09-01")), now: start)
        #expect(second.value["id"]?.stringValue == "goal-2-" + id.suffix(4))
    }
}
