import PeerLinkCore
import CountdownDomain
import Testing

/// The home-screen widget, its reload at local midnight, deep links and the watch entry.
@Suite struct CountdownWidgetTests {
    typealias F = CountdownFixture

    static let goals = [
        F.dateGoal("second", "Second", F.day(2026, 12, 31), priority: 10),
        F.dateGoal("top", "夏休み", F.day(2026, 7, 20), priority: 0),
    ]

    // MARK: - Widget

    @Test func widgetShowsTheTopGoalAndOpensIt() throws {
        let nowMs = F.utc(2026, 6, 15, 3)  // Tokyo 12:00.
        let timeline = CountdownWidgetTimeline.make(
            goals: Self.goals, profile: nil, nowMs: nowMs, calendar: try F.zone("Asia/Tokyo"))
        let entry = try #require(timeline.current)
        #expect(entry.headline() == "夏休み")
        #expect(entry.detail(.ja) == "あと35日")
        #expect(entry.goal?.daysLeft == 35)
        #expect(entry.link == .goal(id: "top"))
        #expect(entry.link.url == "countdown://goal/top")
        #expect(entry.text(.en) == "夏休み: 35 days left")
        #expect(timeline.policy == .after(F.utc(2026, 6, 15, 15)))
        #expect(timeline.jsonValue(.ja) == [
            "entries": [[
                "dateMs": .int(nowMs), "url": "countdown://goal/top", "title": "夏休み", "goalId": "top",
                "status": "counting", "message": "あと35日", "daysLeft": 35,
            ]],
            "policy": ["after": .int(F.utc(2026, 6, 15, 15))],
        ])
    }

    @Test func widgetWithoutGoalsAsksForOneAndOpensTheList() throws {
        let timeline = CountdownWidgetTimeline.make(
            goals: [], profile: nil, nowMs: F.utc(2026, 6, 15, 3), calendar: try F.zone("Asia/Tokyo"))
        let entry = try #require(timeline.current)
        #expect(entry.goal == nil)
        #expect(entry.headline(.ja) == "目標を設定してください")
        #expect(entry.headline(.en) == "Set a goal")
        #expect(entry.detail() == nil)
        #expect(entry.link.url == "countdown://list")
        #expect(timeline.text(.ja) == "目標を設定してください")
        #expect(entry.jsonValue(.en)["message"] == "Set a goal")
        #expect(entry.jsonValue(.en)["daysLeft"] == nil)
    }

    @Test func widgetShowsTheTopGoalsMessageWhenItCannotCount() throws {
        let goals = [F.ageGoal("age", "40歳", age: 40)]
        let entry = try #require(CountdownWidgetTimeline.make(
            goals: goals, profile: UserProfile(birthDate: nil, createdMs: 0), nowMs: 0, calendar: try F.zone("UTC")).current)
        #expect(entry.text(.ja) == "40歳: 年齢目標には生年月日の設定が必要です")
        #expect(entry.jsonValue()["status"] == "birthDateMissing")
    }

    // MARK: - Reload at local midnight

    @Test(arguments: [
        ("America/New_York", F.utc(2026, 3, 8, 5, 30), F.utc(2026, 3, 9, 4)),
        ("America/New_York", F.utc(2026, 11, 1, 4, 30), F.utc(2026, 11, 2, 5)),
        ("Europe/Berlin", F.utc(2026, 3, 29, 0), F.utc(2026, 3, 29, 22)),
        ("Asia/Tokyo", F.utc(2026, 6, 15, 14, 59), F.utc(2026, 6, 15, 15)),
        ("America/Los_Angeles", F.utc(2026, 6, 15, 3), F.utc(2026, 6, 15, 7)),
    ])
    func widgetReloadsAtTheNextLocalMidnightAndTheCountDropsThen(zone: String, nowMs: EpochMs, midnightMs: EpochMs) throws {
        let calendar = try F.zone(zone)
        let goals = [F.dateGoal("g", "G", F.day(2027, 1, 1))]
        let timeline = CountdownWidgetTimeline.make(goals: goals, profile: nil, nowMs: nowMs, calendar: calendar)
        #expect(timeline.policy == .after(midnightMs), "\(zone)")
        let before = CountdownWidgetTimeline.make(goals: goals, profile: nil, nowMs: midnightMs - 1, calendar: calendar)
        let after = CountdownWidgetTimeline.make(goals: goals, profile: nil, nowMs: midnightMs, calendar: calendar)
        let daysBefore = try #require(before.current?.goal?.daysLeft)
        #expect(after.current?.goal?.daysLeft == daysBefore - 1, "\(zone)")
        #expect(timeline.current?.goal?.daysLeft == daysBefore, "\(zone)")
    }

    @Test func reloadPolicyJSON() {
        #expect(CountdownReloadPolicy.atEnd.jsonValue() == "atEnd")
        #expect(CountdownReloadPolicy.never.jsonValue() == "never")
        #expect(CountdownReloadPolicy.after(5).jsonValue() == ["after": 5])
    }

    // MARK: - Deep links

    @Test func deepLinksRoundTripAndKeepAnIdOneSegment() {
        #expect(CountdownDeepLink(url: "countdown://list") == .list)
        #expect(CountdownDeepLink(url: "countdown://goal/abc") == .goal(id: "abc"))
        let odd = CountdownDeepLink.goal(id: "a/b c")
        #expect(odd.url == "countdown://goal/a%2Fb%20c")
        #expect(CountdownDeepLink(url: odd.url) == odd)
        #expect(CountdownDeepLink(url: "https://example.com") == nil)
        #expect(CountdownDeepLink(url: "countdown://goal/") == nil)
        #expect(CountdownDeepLink(url: "countdown://settings") == nil)
    }

    // MARK: - Watch complication

    @Test func complicationShowsTheTopGoalInShortText() throws {
        let goals = [F.dateGoal("long", "とても長いタイトルの目標です本当に", F.day(2026, 6, 24))]
        let entry = CountdownComplicationEntry.make(
            goals: goals, profile: nil, nowMs: F.utc(2026, 6, 15, 3), calendar: try F.zone("Asia/Tokyo"))
        #expect(entry.shortTitle() == "とても長いタイトルの目…")
        #expect(entry.shortTitle().count == CountdownComplicationEntry.maxTitleCharacters)
        #expect(entry.shortValue(.ja) == "9日")
        #expect(entry.shortValue(.en) == "9d")
        #expect(entry.daysLeft == 9)
        #expect(entry.text(.ja) == "とても長いタイトルの目… 9日")
        #expect(entry.refreshAtMs == F.utc(2026, 6, 15, 15))
        #expect(entry.jsonValue(.en) == [
            "dateMs": .int(F.utc(2026, 6, 15, 3)), "refreshAtMs": .int(F.utc(2026, 6, 15, 15)),
            "title": "とても長いタイトルの目…", "value": "9d", "goalId": "long", "status": "counting", "daysLeft": 9,
        ])
    }

    @Test func complicationWithoutGoalsAndOnTheDay() throws {
        let utc = try F.zone("UTC")
        let none = CountdownComplicationEntry.make(goals: [], profile: nil, nowMs: 0, calendar: utc)
        #expect(none.text(.ja) == "目標なし")
        #expect(none.text(.en) == "No goal")
        #expect(none.daysLeft == nil)
        let onTheDay = CountdownComplicationEntry.make(
            goals: [F.dateGoal("d", "Day", F.day(1970, 1, 1))], profile: nil, nowMs: 0, calendar: utc)
        #expect(onTheDay.text(.ja) == "Day 今日")
        #expect(onTheDay.text(.en) == "Day Today")
        #expect(onTheDay.daysLeft == 0)
    }
}
