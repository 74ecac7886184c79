import PeerLinkCore
import PhoneNode
import Testing

/// A widget tap opens the app with the entry's deep link, and the app shows that screen.
@Suite("Phone widget taps")
struct PhoneWidgetTapTests {
    typealias F = PhoneFixture

    @Test func tappingAWidgetOpensTheAppOnTheScreenItsLinkNames() throws {
        let p = try PhoneHarness(start: F.local("Asia/Tokyo", 2026, 6, 3, 12))
        p.ok("authorize grant all")
        #expect(p.q("app foreground") == .bool(false))
        // The countdown widget without a goal opens the goal list.
        let list = p.ok("widget tap countdown")
        #expect(list.value["url"] == "countdown://list" && list.value["screen"] == "goals")
        #expect(p.q("app foreground") == .bool(true))
        p.ok("app background")
        // With a goal it opens that goal.
        let id = try #require(p.ok("goal add Trip --date 2026-08-01").value["id"]?.stringValue)
        let goal = p.ok("widget tap countdown")
        #expect(goal.value["url"]?.stringValue == "countdown://goal/\(id)" && goal.value["screen"]?.stringValue == "goal \(id)")
        #expect(p.q("app opened-url")?.stringValue == "countdown://goal/\(id)")
        // The fitness widgets open the dashboard.
        #expect(p.ok("widget tap medium").value["screen"] == "dashboard")
        #expect(p.q("app opened-url") == "fitness://dashboard")
        #expect(!p.run("widget tap large").isOK)
        // What the app was opened with survives a restart.
        try p.restart()
        #expect(p.q("app opened-screen") == "dashboard")
    }
}
