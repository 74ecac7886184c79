import PeerLinkCore
import CountdownDomain
import Testing

/// Goal and profile records, list order, create/edit validation, moves and deletion.
@Suite struct CountdownGoalBookTests {
    typealias F = CountdownFixture
    let today = F.day(2026, 6, 15)
    let born = F.day(1990, 6, 20)

    // MARK: - Records

    @Test func goalRecordRoundTripsWithDatesAsISOStrings() {
        let goal = CountdownGoal(
            id: "g1", title: "Trip", targetDate: F.day(2026, 12, 24), targetAge: 40, isAgeGoal: false,
            createdMs: 1_700_000_000_000, priority: -3)
        #expect(CountdownGoal.collection == "goal")
        #expect(goal.fields["targetDate"] == "2026-12-24")
        #expect(CountdownGoal(id: "g1", fields: goal.fields) == goal)
        let bare = CountdownGoal(id: "g2", title: "Bare", isAgeGoal: true, createdMs: 5, priority: 0)
        #expect(bare.fields["targetDate"] == "" && bare.fields["targetAge"] == 0)
        #expect(CountdownGoal(id: "g2", fields: bare.fields) == bare)
    }

    @Test func onlyChangedFieldsAreWrittenByAnEditOrAMove() {
        let goal = F.dateGoal("g", "Trip", today, priority: 0)
        #expect(goal.fields(changedFrom: nil) == goal.fields)
        var moved = goal
        moved.priority = 42
        #expect(moved.fields(changedFrom: goal) == ["priority": 42])
        var cleared = goal
        cleared.targetDate = nil
        cleared.isAgeGoal = true
        #expect(cleared.fields(changedFrom: goal) == ["targetDate": "", "isAgeGoal": true])
        #expect(goal.fields(changedFrom: goal).isEmpty)
    }

    @Test func goalRecordRejectsMissingOrMalformedFields() {
        let fields = F.dateGoal("g", "T", today).fields
        for key in ["title", "isAgeGoal", "created", "priority"] {
            var f = fields
            f[key] = nil
            #expect(CountdownGoal(id: "g", fields: f) == nil, "missing \(key)")
        }
        var badDate = fields
        badDate["targetDate"] = "2026-02-30"
        #expect(CountdownGoal(id: "g", fields: badDate) == nil)
        var wrongType = fields
        wrongType["targetAge"] = "forty"
        #expect(CountdownGoal(id: "g", fields: wrongType) == nil)
        var noTargets = fields
        noTargets["targetDate"] = nil
        noTargets["targetAge"] = nil
        #expect(CountdownGoal(id: "g", fields: noTargets)?.targetDate == nil)
    }

    @Test func profileRecordRoundTripsUnderItsSingleID() {
        let profile = UserProfile(birthDate: F.day(2000, 2, 29), createdMs: 42)
        #expect(UserProfile.collection == "profile" && profile.id == "profile")
        #expect(profile.fields == ["birthDate": "2000-02-29", "created": 42])
        #expect(UserProfile(id: "profile", fields: profile.fields) == profile)
        #expect(UserProfile(id: "profile", fields: ["birthDate": ""]) == UserProfile(birthDate: nil, createdMs: 0))
        #expect(UserProfile(id: "other", fields: profile.fields) == nil)
        #expect(UserProfile(id: "profile", fields: ["birthDate": "2001-02-29"]) == nil)
    }

    // MARK: - Order

    @Test func listIsByPriorityThenCreationThenID() {
        let goals = [
            F.dateGoal("z", "", today, priority: 5, createdMs: 1),
            F.dateGoal("b", "", today, priority: 5, createdMs: 0),
            F.dateGoal("a", "", today, priority: 5, createdMs: 1),
            F.dateGoal("top", "", today, priority: -1, createdMs: 9),
        ]
        #expect(CountdownGoalBook.sorted(goals).map(\.id) == ["top", "b", "a", "z"])
        #expect(CountdownGoalBook.sorted(goals.reversed()).map(\.id) == ["top", "b", "a", "z"])
        #expect(CountdownGoalBook.top(goals)?.id == "top")
        #expect(CountdownGoalBook.top([]) == nil)
    }

    // MARK: - Create and edit

    @Test func createTrimsTheTitleAndAppendsAtTheBottom() throws {
        let existing = [F.dateGoal("a", "A", today, priority: 7), F.dateGoal("b", "B", today, priority: -2)]
        let saved = try CountdownGoalBook.create(
            id: "new", draft: CountdownGoalDraft(title: "  旅行 \n", isAgeGoal: false, targetDate: F.day(2026, 8, 1)),
            createdMs: 99, existing: existing, birthDate: nil, today: today
        ).get()
        #expect(saved.goal == CountdownGoal(
            id: "new", title: "旅行", targetDate: F.day(2026, 8, 1), isAgeGoal: false, createdMs: 99,
            priority: 7 + CountdownGoalBook.priorityStep))
        #expect(saved.warnings.isEmpty)
        let first = try CountdownGoalBook.create(
            id: "first", draft: CountdownGoalDraft(title: "x", isAgeGoal: true, targetAge: 40), createdMs: 1,
            existing: [], birthDate: born, today: today
        ).get()
        #expect(first.goal.priority == 0)
    }

    @Test func createRefusesBadDraftsWithTheirMessages() {
        func refusal(_ draft: CountdownGoalDraft, birthDate: CivilDate? = nil) -> [CountdownValidationIssue] {
            switch CountdownGoalBook.create(id: "x", draft: draft, createdMs: 0, existing: [], birthDate: birthDate, today: today) {
            case .success: []
            case .failure(let refusal): refusal.issues
            }
        }
        #expect(refusal(CountdownGoalDraft(title: " \t ", isAgeGoal: false, targetDate: today)) == [.titleEmpty])
        #expect(refusal(CountdownGoalDraft(title: "\u{3000}\n", isAgeGoal: false, targetDate: today)) == [.titleEmpty])
        #expect(refusal(CountdownGoalDraft(title: String(repeating: "あ", count: 101), isAgeGoal: false, targetDate: today)) == [.titleTooLong])
        #expect(refusal(CountdownGoalDraft(title: "", isAgeGoal: false)) == [.titleEmpty, .targetDateMissing])
        #expect(refusal(CountdownGoalDraft(title: "A", isAgeGoal: true), birthDate: born) == [.targetAgeMissing])
        #expect(refusal(CountdownGoalDraft(title: "A", isAgeGoal: true, targetAge: 0), birthDate: born) == [.targetAgeOutOfRange])
        #expect(refusal(CountdownGoalDraft(title: "A", isAgeGoal: true, targetAge: 40)) == [.birthDateMissing])
        #expect(refusal(CountdownGoalDraft(title: "A", isAgeGoal: true, targetAge: 35), birthDate: born)
            == [.targetAgeNotAboveCurrentAge(currentAge: 35)])
        #expect(refusal(CountdownGoalDraft(title: "A", isAgeGoal: true, targetAge: 36), birthDate: born) == [])
        let refusal = CountdownRefusal([.titleEmpty, .targetAgeNotAboveCurrentAge(currentAge: 35)])
        #expect(refusal.messages() == ["タイトルを入力してください", "目標年齢は現在の年齢より大きく設定してください"])
    }

    @Test func createWarnsButSavesAPastTargetDate() throws {
        let saved = try CountdownGoalBook.create(
            id: "p", draft: CountdownGoalDraft(title: "Past", isAgeGoal: false, targetDate: F.day(2026, 6, 1)),
            createdMs: 0, existing: [], birthDate: nil, today: today
        ).get()
        #expect(saved.warnings == [.targetDateInPast])
        #expect(saved.warnings.map { $0.message(.ja) } == ["目標日が過去です"])
    }

    @Test func createRefusesBeyondTheGoalLimit() {
        let full = (0..<CountdownRules.maxGoals).map { F.dateGoal("g\($0)", "G", today, priority: $0) }
        let result = CountdownGoalBook.create(
            id: "x", draft: CountdownGoalDraft(title: "X", isAgeGoal: false, targetDate: today), createdMs: 0,
            existing: full, birthDate: nil, today: today)
        #expect(result == .failure(CountdownRefusal([.tooManyGoals])))
    }

    @Test func editKeepsIdentityCreationAndPriority() throws {
        let goal = F.dateGoal("g", "Old", F.day(2026, 7, 1), priority: 12, createdMs: 5)
        var draft = CountdownGoalDraft(goal: goal)
        #expect(draft == CountdownGoalDraft(title: "Old", isAgeGoal: false, targetDate: F.day(2026, 7, 1)))
        draft.title = "New "
        draft.isAgeGoal = true
        draft.targetAge = 50
        let edited = try CountdownGoalBook.edit(goal, draft: draft, birthDate: born, today: today).get().goal
        #expect(edited == CountdownGoal(
            id: "g", title: "New", targetDate: F.day(2026, 7, 1), targetAge: 50, isAgeGoal: true, createdMs: 5, priority: 12))
        draft.title = ""
        #expect(CountdownGoalBook.edit(goal, draft: draft, birthDate: born, today: today) == .failure(CountdownRefusal([.titleEmpty])))
    }

    @Test func aRenameLeavesAReachedOrPassedTargetUnchecked() throws {
        // Born 1990-06-20: 36 on 2026-06-20, the day the goal is reached.
        let birthday = F.day(2026, 6, 20)
        let reached = F.ageGoal("g", "Thirty-six", age: 36)
        var renamed = CountdownGoalDraft(goal: reached)
        renamed.title = "36!"
        let saved = try CountdownGoalBook.edit(reached, draft: renamed, setsTarget: false, birthDate: born, today: birthday).get()
        #expect(saved.goal.title == "36!" && saved.goal.targetAge == 36 && saved.warnings.isEmpty)
        #expect(CountdownGoalBook.edit(reached, draft: renamed, birthDate: born, today: birthday)
                == .failure(CountdownRefusal([.targetAgeNotAboveCurrentAge(currentAge: 36)])), "setting 36 that day is refused")
        let past = F.dateGoal("d", "Trip", F.day(2026, 6, 1))
        var trip = CountdownGoalDraft(goal: past)
        trip.title = "Past trip"
        #expect(try CountdownGoalBook.edit(past, draft: trip, setsTarget: false, birthDate: nil, today: today).get().warnings.isEmpty)
        #expect(try CountdownGoalBook.edit(past, draft: trip, birthDate: nil, today: today).get().warnings == [.targetDateInPast])
        trip.title = " "
        #expect(CountdownGoalBook.edit(past, draft: trip, setsTarget: false, birthDate: nil, today: today)
                == .failure(CountdownRefusal([.titleEmpty])), "the title is still checked")
    }

    // MARK: - Birth date

    @Test func futureBirthDateIsRefused() {
        let future = CountdownRules.validateBirthDate(today.adding(days: 1), today: today, profile: nil, nowMs: 7)
        #expect(future == .failure(CountdownRefusal([.birthDateInFuture])))
        #expect((try? future.get()) == nil)
        let early = CountdownRules.validateBirthDate(F.day(1899, 12, 31), today: today, profile: nil, nowMs: 7)
        #expect(early == .failure(CountdownRefusal([.birthDateTooEarly])))
        let bornToday = CountdownRules.validateBirthDate(today, today: today, profile: nil, nowMs: 7)
        #expect(bornToday == .success(UserProfile(birthDate: today, createdMs: 7)))
        let update = CountdownRules.validateBirthDate(born, today: today, profile: UserProfile(birthDate: nil, createdMs: 3), nowMs: 7)
        #expect(update == .success(UserProfile(birthDate: born, createdMs: 3)))
    }

    // MARK: - Deletion

    @Test func deletionHappensOnlyAfterConfirmation() {
        let goal = F.dateGoal("g", "旅行", today)
        var flow = CountdownDeletionFlow()
        #expect(flow.onConfirm() == .none)
        #expect(flow.onRequestDeletion(of: goal) == .askConfirmation(PendingDeletion(goalID: "g", title: "旅行")))
        #expect(flow.pending?.goalID == "g")
        #expect(flow.onCancel() == .dismissConfirmation)
        #expect(flow.pending == nil)
        #expect(flow.onConfirm() == .none)
        _ = flow.onRequestDeletion(of: goal)
        #expect(flow.onConfirm() == .deleteGoal(id: "g"))
        #expect(flow.pending == nil)
        #expect(flow.onCancel() == .none)
    }

    @Test func deletionDialogClosesWhenItsGoalVanishes() {
        var flow = CountdownDeletionFlow()
        _ = flow.onRequestDeletion(of: F.dateGoal("g", "G", today))
        #expect(flow.onGoalsChanged([F.dateGoal("g", "G", today)]) == .none)
        #expect(flow.onGoalsChanged([F.dateGoal("h", "H", today)]) == .dismissConfirmation)
        #expect(flow.onConfirm() == .none)
    }
}
