import PeerLinkCore
import CountdownDomain
import Testing

/// Statuses, their rule for a count of 0, and every text in both languages.
@Suite struct CountdownMessageTests {
    typealias F = CountdownFixture
    let today = F.day(2026, 6, 15)
    let born = F.day(1990, 6, 20)  // 35 on 2026-06-15, 36 on 2026-06-20.

    // MARK: - Date goals

    @Test func dateGoalCountsDaysUntilItsDay() {
        let status = CountdownStatus(goal: F.dateGoal("g", "Trip", F.day(2026, 7, 1)), birthDate: nil, today: today)
        #expect(status == .counting(daysLeft: 16))
        #expect(status.message(.ja) == "あと16日")
        #expect(status.message(.en) == "16 days left")
        #expect(status.daysLeft == 16)
    }

    @Test func dateGoalOnItsDaySaysTodayIsTheTargetDate() {
        let status = CountdownStatus(goal: F.dateGoal("g", "Trip", today), birthDate: nil, today: today)
        #expect(status == .targetDateIsToday)
        #expect(status.message(.ja) == "今日が目標日です")
        #expect(status.daysLeft == 0)
        #expect(!status.isError)
    }

    @Test func dateGoalAfterItsDaySaysTheDateIsPast() {
        let status = CountdownStatus(goal: F.dateGoal("g", "Trip", F.day(2026, 6, 14)), birthDate: nil, today: today)
        #expect(status == .targetDatePassed(daysAgo: 1))
        #expect(status.message(.ja) == "目標日が過去です")
        #expect(status.daysLeft == nil)
        #expect(status.isError)
    }

    // MARK: - Age goals

    @Test func ageGoalCountsToTheBirthdayOfTheTargetAge() {
        let status = CountdownStatus(goal: F.ageGoal("g", "36", age: 36), birthDate: born, today: today)
        #expect(status == .counting(daysLeft: 5))
        let later = CountdownStatus(goal: F.ageGoal("g", "40", age: 40), birthDate: born, today: today)
        #expect(later == .counting(daysLeft: F.day(2026, 6, 15).days(to: F.day(2030, 6, 20))))
    }

    @Test func ageGoalReachedTodayIsAchieved() {
        let status = CountdownStatus(goal: F.ageGoal("g", "36", age: 36), birthDate: born, today: F.day(2026, 6, 20))
        #expect(status == .achieved)
        #expect(status.message(.ja) == "目標達成！")
        #expect(status.daysLeft == 0)
    }

    @Test func ageGoalNotAboveCurrentAgeAsksForAGreaterAge() {
        let same = CountdownStatus(goal: F.ageGoal("g", "35", age: 35), birthDate: born, today: today)
        #expect(same == .targetAgeNotAboveCurrentAge(currentAge: 35))
        #expect(same.message(.ja) == "目標年齢は現在の年齢より大きく設定してください")
        let younger = CountdownStatus(goal: F.ageGoal("g", "20", age: 20), birthDate: born, today: today)
        #expect(younger == .targetAgeNotAboveCurrentAge(currentAge: 35))
        #expect(younger.daysLeft == nil)
    }

    @Test func ageGoalWithoutBirthDateAsksForIt() {
        let status = CountdownStatus(goal: F.ageGoal("g", "40", age: 40), birthDate: nil, today: today)
        #expect(status == .birthDateMissing)
        #expect(status.daysLeft == nil)
    }

    @Test func goalWithoutItsTargetSaysSo() {
        let noDate = CountdownGoal(id: "a", title: "A", isAgeGoal: false, createdMs: 0, priority: 0)
        let noAge = CountdownGoal(id: "b", title: "B", targetDate: today, isAgeGoal: true, createdMs: 0, priority: 0)
        #expect(CountdownStatus(goal: noDate, birthDate: born, today: today) == .targetMissing)
        #expect(CountdownStatus(goal: noAge, birthDate: born, today: today) == .targetMissing)
    }

    // MARK: - Every text, both languages

    @Test func everyStatusMessageInBothLanguages() {
        let expected: [(CountdownStatus, String, String, String, String)] = [
            (.counting(daysLeft: 1), "あと1日", "1 day left", "1日", "1d"),
            (.counting(daysLeft: 2), "あと2日", "2 days left", "2日", "2d"),
            (.counting(daysLeft: 365), "あと365日", "365 days left", "365日", "365d"),
            (.targetDateIsToday, "今日が目標日です", "Today is the target date", "今日", "Today"),
            (.achieved, "目標達成！", "Goal achieved!", "達成", "Done"),
            (.targetDatePassed(daysAgo: 3), "目標日が過去です", "The target date is in the past", "--", "--"),
            (.targetAgeNotAboveCurrentAge(currentAge: 30), "目標年齢は現在の年齢より大きく設定してください",
             "Set a target age greater than your current age", "--", "--"),
            (.birthDateMissing, "年齢目標には生年月日の設定が必要です", "Enter your birth date to count down to an age", "--", "--"),
            (.targetMissing, "目標が設定されていません", "This goal has no target", "--", "--"),
        ]
        for (status, ja, en, shortJa, shortEn) in expected {
            #expect(status.message(.ja) == ja)
            #expect(status.message(.en) == en)
            #expect(status.shortMessage(.ja) == shortJa)
            #expect(status.shortMessage(.en) == shortEn)
        }
        #expect(L10n.countdownNoGoal(.ja) == "目標を設定してください")
        #expect(L10n.countdownNoGoal(.en) == "Set a goal")
    }

    @Test func everyValidationMessageInBothLanguages() {
        let expected: [(CountdownValidationIssue, String, String)] = [
            (.titleEmpty, "タイトルを入力してください", "Enter a title"),
            (.titleTooLong, "タイトルは100文字以内で入力してください", "Use at most 100 characters for the title"),
            (.targetDateMissing, "目標日を選択してください", "Choose a target date"),
            (.targetDateInPast, "目標日が過去です", "The target date is in the past"),
            (.targetAgeMissing, "目標年齢を入力してください", "Enter a target age"),
            (.targetAgeOutOfRange, "目標年齢は1〜150歳で設定してください", "Set a target age from 1 to 150"),
            (.birthDateMissing, "年齢目標には生年月日の設定が必要です", "Enter your birth date to count down to an age"),
            (.targetAgeNotAboveCurrentAge(currentAge: 35), "目標年齢は現在の年齢より大きく設定してください",
             "Set a target age greater than your current age"),
            (.birthDateInFuture, "生年月日に未来の日付は設定できません", "Your birth date cannot be in the future"),
            (.birthDateTooEarly, "生年月日は1900年以降の日付を設定してください", "Enter a birth date in 1900 or later"),
            (.tooManyGoals, "目標は500件まで設定できます", "You can set up to 500 goals"),
        ]
        for (issue, ja, en) in expected {
            #expect(issue.message(.ja) == ja, "\(issue)")
            #expect(issue.message(.en) == en, "\(issue)")
        }
        #expect(expected.filter { !$0.0.isBlocking }.map(\.0) == [.targetDateInPast])
    }

    @Test func deletionDialogTextsInBothLanguages() {
        let pending = PendingDeletion(goalID: "g", title: "旅行")
        #expect(pending.question(.ja) == "「旅行」を削除しますか？")
        #expect(pending.question(.en) == "Delete “旅行”?")
        #expect(pending.confirmLabel(.ja) == "削除" && pending.confirmLabel(.en) == "Delete")
        #expect(pending.cancelLabel(.ja) == "キャンセル" && pending.cancelLabel(.en) == "Cancel")
    }

    // MARK: - Display output

    @Test func displayGivesTitleDaysAndMessageAsJSONAndText() {
        let display = CountdownDisplay(goal: F.dateGoal("g1", "夏休み", F.day(2026, 7, 20)), birthDate: nil, today: today)
        #expect(display.text(.ja) == "夏休み: あと35日")
        #expect(display.text(.en) == "夏休み: 35 days left")
        #expect(display.jsonValue(.en) == [
            "id": "g1", "title": "夏休み", "kind": "date", "status": "counting", "message": "35 days left",
            "daysLeft": 35, "targetDay": "2026-07-20",
        ])
        let missing = CountdownDisplay(goal: F.ageGoal("g2", "40歳", age: 40), birthDate: nil, today: today)
        #expect(missing.jsonValue() == [
            "id": "g2", "title": "40歳", "kind": "age", "status": "birthDateMissing",
            "message": "年齢目標には生年月日の設定が必要です",
        ])
    }

    @Test func recomputedListIsInPriorityOrderWithNumberedLines() throws {
        let goals = [
            F.dateGoal("b", "B", F.day(2026, 6, 16), priority: 2),
            F.ageGoal("a", "A", age: 36, priority: 1),
            F.dateGoal("c", "C", F.day(2026, 6, 10), priority: 3),
        ]
        let profile = UserProfile(birthDate: born, createdMs: 0)
        let list = CountdownDisplayList.recompute(
            goals: goals, profile: profile, nowMs: F.utc(2026, 6, 15, 3), calendar: try F.zone("Asia/Tokyo"))
        #expect(list.items.map(\.goalID) == ["a", "b", "c"])
        #expect(list.text(.ja) == "1. A: あと5日\n2. B: あと1日\n3. C: 目標日が過去です")
        #expect(list.text(.en) == "1. A: 5 days left\n2. B: 1 day left\n3. C: The target date is in the past")
        #expect(list.items[0].targetDay == F.day(2026, 6, 20))
    }

    @Test func emptyListAsksForAGoal() throws {
        let list = CountdownDisplayList.recompute(goals: [], profile: nil, nowMs: 0, calendar: try F.zone("UTC"))
        #expect(list.text(.ja) == "目標を設定してください")
        #expect(list.text(.en) == "Set a goal")
        #expect(list.jsonValue(.ja) == [
            "today": "1970-01-01", "refreshAtMs": .int(F.dayMs), "goals": [], "message": "目標を設定してください",
        ])
    }
}
