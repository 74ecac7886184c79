import PeerLinkCore
import CountdownDomain
import Testing

/// The shared countdown controller on its own: pure input, result out.
@Suite("CountdownCommands controller")
struct CountdownCommandsTests {
    static let tokyo = LocalCalendar(identifier: "Asia/Tokyo")!
    static let now = tokyo.instant(CivilDate(year: 2026, month: 6, day: 1), hour: 10)

    static func goal(_ id: String, _ title: String, _ date: String, priority: Int) -> CountdownGoal {
        CountdownGoal(id: id, title: title, targetDate: CivilDate(iso: date), isAgeGoal: false, createdMs: 0, priority: priority)
    }

    static let goals = [
        goal("g1", "A", "2026-06-10", priority: 0),
        goal("g2", "B", "2026-06-20", priority: CountdownGoalBook.priorityStep),
        goal("g3", "C", "2026-06-30", priority: 2 * CountdownGoalBook.priorityStep),
    ]

    static func input(_ goals: [CountdownGoal] = goals, language: AppLanguage = .ja, deletion: CountdownDeletionFlow = CountdownDeletionFlow()) -> CountdownCommandInput {
        CountdownCommandInput(goals: goals, profile: nil, deletion: deletion, nowMs: now, calendar: tokyo, language: language, newGoalID: "g9")
    }

    @Test func addWritesEveryFieldOfTheNewGoalAtTheBottom() throws {
        let r = try #require(CountdownCommands.run(["goal", "add", "New", "--date", "2026-07-01"], Self.input()))
        #expect(r.isOK && r.usedNewGoalID)
        guard case .setGoalFields(let id, let fields) = try #require(r.writes.first) else { Issue.record("not a goal write"); return }
        #expect(id == "g9")
        #expect(fields["priority"] == .int(Int64(3 * CountdownGoalBook.priorityStep)))
        #expect(fields["created"] == .int(Self.now))
        #expect(r.value["position"] == 4)
    }

    @Test func editWritesOnlyTheChangedFields() throws {
        let r = try #require(CountdownCommands.run(["goal", "edit", "#2", "--title", "B2"], Self.input()))
        #expect(r.writes == [.setGoalFields(id: "g2", fields: ["title": "B2"])])
        let kind = try #require(CountdownCommands.run(["goal", "edit", "g2", "--age", "40"], Self.input()))
        #expect(!kind.isOK)  // no birth date stored
        #expect(kind.text == "年齢目標には生年月日の設定が必要です")
        #expect(kind.writes.isEmpty)
    }

    @Test func editOfTheTargetWritesTheKindWithIt() throws {
        let r = try #require(CountdownCommands.run(["goal", "edit", "g2", "--date", "2026-07-01"], Self.input()))
        #expect(r.writes == [.setGoalFields(id: "g2", fields: ["targetDate": "2026-07-01", "isAgeGoal": false])])
        #expect(r.value["changed"] == ["targetDate"], "the reply lists what changed")
        let both = try #require(CountdownCommands.run(["goal", "edit", "g2", "--title", "B2", "--date", "2026-07-01"], Self.input()))
        #expect(both.writes == [.setGoalFields(id: "g2", fields: ["title": "B2", "targetDate": "2026-07-01", "isAgeGoal": false])])
    }

    @Test func moveWritesOnlyTheMovedGoalsPriority() throws {
        let r = try #require(CountdownCommands.run(["goal", "move", "g3", "1"], Self.input()))
        #expect(r.writes == [.setGoalFields(id: "g3", fields: ["priority": .int(Int64(-CountdownGoalBook.priorityStep))])])
        #expect(r.value["position"] == 1)
    }

    @Test func deleteWaitsForConfirmationThenWritesATombstone() throws {
        let ask = try #require(CountdownCommands.run(["goal", "delete", "top"], Self.input(language: .en)))
        #expect(ask.text == "Delete “A”?")
        #expect(ask.writes.isEmpty)
        #expect(ask.deletion.pending?.goalID == "g1")
        let cancelled = try #require(CountdownCommands.run(["goal", "cancel"], Self.input(language: .en, deletion: ask.deletion)))
        #expect(cancelled.text == "Deletion cancelled" && cancelled.deletion.pending == nil)
        let done = try #require(CountdownCommands.run(["goal", "confirm"], Self.input(language: .en, deletion: ask.deletion)))
        #expect(done.writes == [.deleteGoal(id: "g1")])
        #expect(done.text == "Deleted the goal “A”")
        // Deleted on the other device before the confirmation: nothing is written.
        let gone = try #require(CountdownCommands.run(["goal", "confirm"], Self.input(Array(Self.goals.dropFirst()), deletion: ask.deletion)))
        #expect(!gone.isOK && gone.writes.isEmpty && gone.deletion.pending == nil)
    }

    @Test func birthDateInTheFutureIsRefusedAndAPastOneIsStored() throws {
        let future = try #require(CountdownCommands.run(["profile", "birth-date", "2026-06-02"], Self.input()))
        #expect(!future.isOK && future.writes.isEmpty)
        let past = try #require(CountdownCommands.run(["profile", "birth-date", "2000-02-29"], Self.input(language: .en)))
        #expect(past.text == "Birth date saved")
        #expect(past.writes == [.setProfileFields(["birthDate": "2000-02-29", "created": .int(Self.now)])])
    }

    @Test func idsSkipEveryTakenIdAndQueriesResolveReferences() {
        let taken: Set<String> = ["goal-1", "goal-2", "goal-4"]
        let next = CountdownCommands.makeGoalID(prefix: "goal-", after: 0) { taken.contains($0) }
        #expect(next.id == "goal-3" && next.counter == 3)
        #expect(CountdownCommands.makeGoalID(prefix: "goal-", after: 3) { taken.contains($0) }.id == "goal-5")
        #expect(CountdownCommands.query(["goal", "#3", "days"], Self.input()) == 29)
        #expect(CountdownCommands.query(["goal", "top", "title"], Self.input()) == "A")
        #expect(CountdownCommands.query(["goal", "nope", "title"], Self.input()) == nil)
        #expect(CountdownCommands.query(["profile", "birth-date"], Self.input()) == "—")
        #expect(CountdownCommands.run(["status"], Self.input()) == nil)
    }
}
