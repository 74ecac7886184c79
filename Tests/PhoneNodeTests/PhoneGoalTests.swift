import PeerLinkCore
import CountdownDomain
import PhoneNode
import Testing

@Suite("Phone countdown goals")
struct PhoneGoalTests {
    typealias F = PhoneFixture
    static let tokyo = "Asia/Tokyo"

    static func phone(_ language: AppLanguage = .ja, _ y: Int = 2026, _ m: Int = 6, _ d: Int = 1, _ h: Int = 10) throws -> PhoneHarness {
        try PhoneHarness(start: F.local(Self.tokyo, y, m, d, h), language: language)
    }

    @Test func goalsAreCreatedEditedAndListedByPriority() throws {
        let p = try Self.phone()
        #expect(p.ok("goal add \"Trip\" --date 2026-06-11").text == "目標「Trip」を追加しました")
        #expect(p.ok("goal add Final exam --date 2026-07-01").value["id"] == "goal-2")
        #expect(p.q("goal goal-1 days")?.int == 10)
        #expect(p.q("goal goal-2 title") == "Final exam")
        #expect(p.ok("show goals").text == "目標\n1. Trip: あと10日 [goal-1]\n2. Final exam: あと30日 [goal-2]\n[widget] Trip: あと10日")
        #expect(p.ok("goals").text == "1. Trip: あと10日 [goal-1]\n2. Final exam: あと30日 [goal-2]", "the ids the goal commands take")
        let edit = p.ok("goal edit goal-2 --title \"Exam\" --date 2026-06-21")
        #expect(edit.text == "目標「Exam」を更新しました")
        #expect(edit.value["changed"] == ["targetDate", "title"])
        #expect(p.q("goal #2 days")?.int == 20)
        #expect(p.ok("goal edit goal-2 --title Exam").text == "変更はありません")
        #expect(p.ok("goal edit goal-1 --date 2026-05-01").text == "目標「Trip」を更新しました（目標日が過去です）")
        #expect(p.q("goal goal-1 message") == "目標日が過去です")
        #expect(p.q("goal goal-1 days") == "—")
        #expect(!p.run("goal edit goal-9 --title X").isOK)
        #expect(!p.run("goal add \"\" --date 2026-07-01").isOK)
        #expect(!p.run("goal add Bad --date 2026-02-30").isOK)
    }

    @Test func deletionAsksForConfirmationFirst() throws {
        let p = try Self.phone()
        p.ok("goal add Trip --date 2026-06-11")
        p.ok("goal add Exam --date 2026-07-01")
        let ask = p.ok("goal delete goal-1")
        #expect(ask.text == "「Trip」を削除しますか？")
        #expect(ask.value["confirmLabel"] == "削除")
        #expect(p.q("goals count")?.int == 2)
        #expect(p.q("goal pending-deletion") == "goal-1")
        #expect(p.ok("goal cancel").text == "削除をキャンセルしました")
        #expect(p.q("goals count")?.int == 2)
        p.ok("goal delete goal-1")
        #expect(p.ok("goal confirm").text == "目標「Trip」を削除しました")
        #expect(p.q("goals count")?.int == 1)
        #expect(p.run("goal confirm").text == "確認待ちの削除はありません")
        p.ok("goal delete goal-2 --confirm")
        #expect(p.q("goals count")?.int == 0)
        // Ids are never reused: the next goal is goal-3.
        #expect(p.ok("goal add Next --date 2026-08-01").value["id"] == "goal-3")
    }

    @Test func movingAGoalChangesItsPriority() throws {
        let p = try Self.phone()
        for (t, d) in [("A", "2026-06-10"), ("B", "2026-06-20"), ("C", "2026-06-30")] { p.ok("goal add \(t) --date \(d)") }
        #expect(p.ok("goal move goal-3 1").text == "目標「C」を1番目に移動しました")
        #expect(p.q("goals titles") == ["C", "A", "B"])
        p.ok("goal move #2 bottom")
        #expect(p.q("goals titles") == ["C", "B", "A"])
        #expect(p.q("goal top title") == "C")
        #expect(p.q("widget countdown title") == "C")
        #expect(p.ok("goal move top 1").text == "変更はありません")
    }

    @Test func everyMessageInBothLanguages() throws {
        for language in AppLanguage.allCases {
            let ja = language == .ja
            let p = try Self.phone(language, 2026, 5, 31)
            #expect(p.q("widget countdown title") == (ja ? "目標を設定してください" : "Set a goal"))
            #expect(p.q("widget countdown url") == "countdown://list")
            #expect(p.run("profile birth-date 2026-06-02").text == (ja ? "生年月日に未来の日付は設定できません" : "Your birth date cannot be in the future"))
            p.ok("profile birth-date 1996-06-01")
            #expect(p.run("goal add Twenty --age 20").text == (ja ? "目標年齢は現在の年齢より大きく設定してください" : "Set a target age greater than your current age"))
            p.ok("goal add Thirty --age 30")
            p.ok("goal add Today --date 2026-06-01")
            p.ok("goal add Past --date 2026-05-01")
            #expect(p.q("goal goal-1 message") == (ja ? "あと1日" : "1 day left"))
            p.advance(to: F.day(2026, 6, 1), 10)
            #expect(p.q("goal goal-1 message") == (ja ? "目標達成！" : "Goal achieved!"))
            #expect(p.q("goal goal-2 message") == (ja ? "今日が目標日です" : "Today is the target date"))
            #expect(p.q("goal goal-3 message") == (ja ? "目標日が過去です" : "The target date is in the past"))
            #expect(p.ok("goal delete goal-3").text == (ja ? "「Past」を削除しますか？" : "Delete “Past”?"))
            #expect(p.ok("goal confirm").text == (ja ? "目標「Past」を削除しました" : "Deleted the goal “Past”"))
        }
    }

    @Test func aReachedAgeGoalCanBeRenamedButNotSetToTheCurrentAge() throws {
        let p = try Self.phone(.ja, 2026, 6, 9, 10)
        p.ok("profile birth-date 1990-06-10")
        p.ok("goal add \"Thirty-six\" --age 36")
        p.advance(to: F.day(2026, 6, 10), 10)
        #expect(p.q("goal goal-1 status") == "achieved")
        #expect(p.ok("goal edit goal-1 --title \"36!\"").text == "目標「36!」を更新しました")
        #expect(p.q("goal goal-1 title") == "36!")
        #expect(p.q("goal goal-1 status") == "achieved")
        #expect(p.run("goal edit goal-1 --age 36").text == "目標年齢は現在の年齢より大きく設定してください")
        #expect(p.ok("goal edit goal-1 --age 37").text == "目標「36!」を更新しました")
    }

    @Test func countdownWidgetFollowsTheClockBackToAnEarlierDay() throws {
        let p = try Self.phone(.ja, 2026, 6, 7, 22)
        p.ok("goal add Trip --date 2026-06-09")
        #expect(p.q("widget countdown days")?.int == 2)
        p.jumpClock(by: 3 * F.hourMs)
        #expect(p.q("widget countdown days")?.int == 1)
        p.jumpClock(by: -3 * F.hourMs)
        #expect(p.q("goals today") == "2026-06-07")
        #expect(p.q("widget countdown days")?.int == 2, "not the later day's count until its midnight")
        #expect(p.q("widget countdown next")?.intValue == F.local(Self.tokyo, 2026, 6, 8, 0))
        // The same when the app launches after the clock went back.
        p.jumpClock(by: 3 * F.hourMs)
        #expect(p.q("widget countdown days")?.int == 1)
        try p.restart(afterClockJump: -3 * F.hourMs)
        #expect(p.q("widget countdown days")?.int == 2)
    }

    @Test func countdownWidgetShowsTheTopGoalAndReloadsAtLocalMidnight() throws {
        let p = try Self.phone()
        #expect(p.q("widget countdown title") == "目標を設定してください")
        p.ok("goal add Trip --date 2026-06-11")
        #expect(p.q("widget countdown days")?.int == 10)
        #expect(p.q("widget countdown url") == "countdown://goal/goal-1")
        let reloads = try #require(p.q("widget countdown reloads")?.int)
        #expect(p.q("widget countdown next")?.intValue == F.local(Self.tokyo, 2026, 6, 2, 0))
        p.advance(to: F.day(2026, 6, 1), 23, 59)
        #expect(p.q("widget countdown days")?.int == 10)
        p.advance(to: F.day(2026, 6, 2), 0, 0)
        #expect(p.q("widget countdown days")?.int == 9)
        #expect(p.q("widget countdown reloads")?.int == reloads + 1)
        #expect(p.q("goals today") == "2026-06-02")
        let recomputes = try #require(p.q("app recomputes")?.int)
        p.ok("app foreground")
        #expect(p.q("app recomputes")?.int == recomputes + 1)
        p.ok("goal delete goal-1 --confirm")
        #expect(p.q("widget countdown title") == "目標を設定してください")
    }

    @Test func aRestartKeepsEverything() throws {
        let p = try Self.phone()
        p.ok("authorize grant all")
        p.ok("settings step-goal 8000")
        p.ok("profile birth-date 2000-02-29")
        p.ok("goal add Trip --date 2026-06-11")
        p.ok("goal add FortyOne --age 41")
        p.ok("goal move goal-2 1")
        p.ok("steps 1200 --from 08:00 --to 09:00")
        for m in 0..<3 { p.ok("motion running high --at 09:0\(m)") }
        p.ok("export csv")
        let screens = ["goals", "settings", "notifications", "widgets", "dashboard", "effects"]
        let before = screens.map { p.ok("show \($0)").value }
        let digest = p.q("digest")
        try p.restart()
        #expect(screens.map { p.ok("show \($0)").value } == before)
        #expect(p.q("digest") == digest)
        #expect(p.q("goal goal-2 target") == "2041-02-28")  // born 29 Feb: the birthday is 28 Feb in common years
        #expect(p.ok("goal add Third --date 2026-09-01").value["id"] == "goal-3")
    }

    @Test func aCorruptStoreIsResetAndThePhoneStartsClean() throws {
        let p = try Self.phone()
        p.ok("goal add Trip --date 2026-06-11")
        p.ok("authorize grant all")
        p.store.corrupt()
        #expect(throws: StoreCorruption.self) {
            _ = try PhoneHarness.open(store: p.store, sink: p.sink, calendar: p.calendar, language: .ja, now: p.now)
        }
        p.store.reset()
        let engine = try PhoneHarness.open(
            store: p.store, sink: p.sink, calendar: p.calendar, language: .ja, now: p.now,
            opening: .resetAfterCorruption(reason: "test damage", quarantinedAs: "state.sqlite.corrupt-test"))
        let logs = engine.drainOutput().compactMap { o -> String? in if case .log(.error, let m) = o { return m } else { return nil } }
        #expect(logs.contains { $0.contains("store corrupt (test damage)") })
        func q(_ path: String) -> PlistValue? {
            let r = engine.command(NodeCommand(line: "query \(path)")!, now: p.now)
            return r.isOK ? r.value : nil
        }
        #expect(q("goals count")?.int == 0)
        #expect(q("authorization steps") == "notDetermined")
        #expect(q("widget countdown title") == "目標を設定してください")
    }
}
