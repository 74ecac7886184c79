import PeerLinkCore

/// The goal and profile commands of `CountdownCommands`.
extension CountdownCommands {
    // MARK: - Add and edit

    /// `goal add TITLE… (--date D | --age N)`, or `--title T` instead of the leading words.
    static func add(_ args: [String], _ input: CountdownCommandInput) -> CountdownCommandResult {
        let titleOption = option("title", in: args)
        let title = titleOption.value ?? leadingWords(args)
        let date = option("date", in: args), age = option("age", in: args)
        guard date.present != age.present, !input.newGoalID.isEmpty else { return usageError(input) }
        var draft = CountdownGoalDraft(title: title, isAgeGoal: age.present)
        switch parseTarget(date: date, age: age, into: &draft, input) {
        case .some(let refusal): return refusal
        case .none: break
        }
        let created = CountdownGoalBook.create(
            id: input.newGoalID, draft: draft, createdMs: input.nowMs, existing: input.goals,
            birthDate: input.profile?.birthDate, today: input.today)
        switch created {
        case .failure(let refusal):
            return refuse(refusalText(refusal, input.language), input)
        case .success(let saved):
            let goals = input.goals + [saved.goal]
            let text = withWarnings(L10n.countdownCommandAdded(saved.goal.title)(input.language), saved.warnings, input.language)
            return ok(text, savedValue(saved, goals: goals, input), input,
                      writes: [.setGoalFields(id: saved.goal.id, fields: saved.goal.fields)], usedID: true)
        }
    }

    /// `goal edit REF [--title T] [--date D | --age N]`: only the changed fields are written,
    /// and with a changed target the kind and the target together
    /// (`CountdownGoal.fields(editedFrom:)`). The target is validated only when the edit sets
    /// it, so a goal reached or passed can still be renamed.
    static func edit(_ args: [String], _ input: CountdownCommandInput) -> CountdownCommandResult {
        guard let ref = args.first, !ref.hasPrefix("--") else { return usageError(input) }
        let title = option("title", in: args), date = option("date", in: args), age = option("age", in: args)
        guard !(date.present && age.present), title.present || date.present || age.present else { return usageError(input) }
        guard let goal = resolve(ref, input) else { return notFound(ref, input) }
        var draft = CountdownGoalDraft(goal: goal)
        if title.present {
            guard let t = title.value else { return usageError(input) }
            draft.title = t
        }
        let setsTarget = date.present || age.present
        if setsTarget {
            draft.isAgeGoal = age.present
            if let refusal = parseTarget(date: date, age: age, into: &draft, input) { return refusal }
        }
        switch CountdownGoalBook.edit(goal, draft: draft, setsTarget: setsTarget, birthDate: input.profile?.birthDate, today: input.today) {
        case .failure(let refusal):
            return refuse(refusalText(refusal, input.language), input)
        case .success(let saved):
            let changed = saved.goal.fields(changedFrom: goal)
            if changed.isEmpty {
                return ok(L10n.countdownCommandNoChange(input.language), ["id": .string(goal.id), "changed": .array([])], input)
            }
            let goals = input.goals.map { $0.id == goal.id ? saved.goal : $0 }
            var value = savedValue(saved, goals: goals, input)
            value = merged(value, ["changed": .array(changed.keys.sorted().map { .string($0) })])
            let text = withWarnings(L10n.countdownCommandUpdated(saved.goal.title)(input.language), saved.warnings, input.language)
            return ok(text, value, input, writes: [.setGoalFields(id: goal.id, fields: saved.goal.fields(editedFrom: goal))])
        }
    }

    /// Fills the draft's target from `--date` or `--age`; a refusal when the value is malformed.
    static func parseTarget(
        date: (present: Bool, value: String?), age: (present: Bool, value: String?),
        into draft: inout CountdownGoalDraft, _ input: CountdownCommandInput
    ) -> CountdownCommandResult? {
        if date.present {
            guard let s = date.value, let day = CivilDate(iso: s) else {
                return refuse(L10n.countdownCommandBadDate(input.language), input)
            }
            draft.targetDate = day
        } else if age.present {
            guard let s = age.value, let n = Int(s) else {
                return refuse(CountdownValidationIssue.targetAgeOutOfRange.message(input.language), input)
            }
            draft.targetAge = n
        }
        return nil
    }

    /// The reply value of a saved goal: its id, display, position and warnings.
    static func savedValue(_ saved: CountdownSavedGoal, goals: [CountdownGoal], _ input: CountdownCommandInput) -> PlistValue {
        let display = CountdownDisplay(goal: saved.goal, birthDate: input.profile?.birthDate, today: input.today)
        return [
            "id": .string(saved.goal.id), "goal": display.jsonValue(input.language),
            "position": .int(Int64(position(of: saved.goal.id, in: goals) ?? 0)),
            "warnings": .array(saved.warnings.map { .string($0.message(input.language)) }),
        ]
    }

    /// `text` followed by the warnings: "…を追加しました（目標日が過去です）".
    static func withWarnings(_ text: String, _ warnings: [CountdownValidationIssue], _ language: AppLanguage) -> String {
        guard !warnings.isEmpty else { return text }
        let joined = warnings.map { $0.message(language) }.joined(separator: language == .ja ? "、" : "; ")
        return language == .ja ? "\(text)（\(joined)）" : "\(text) (\(joined))"
    }

    static func merged(_ value: PlistValue, _ extra: [String: PlistValue]) -> PlistValue {
        .dictionary((value.dictionaryValue ?? [:]).merging(extra) { _, new in new })
    }

    // MARK: - Delete with confirmation

    /// `goal delete REF [--confirm]`: opens the dialog, or deletes at once with `--confirm`.
    static func delete(_ args: [String], _ input: CountdownCommandInput) -> CountdownCommandResult {
        guard let ref = args.first, !ref.hasPrefix("--") else { return usageError(input) }
        guard let goal = resolve(ref, input) else { return notFound(ref, input) }
        var flow = input.deletion
        let asked = flow.onRequestDeletion(of: goal)
        if option("confirm", in: args).present {
            _ = flow.onConfirm()
            return deleted(goal, flow, input)
        }
        guard case .askConfirmation(let request) = asked else { return usageError(input) }
        let question = request.question(input.language)
        let value: PlistValue = [
            "pending": true, "goalId": .string(goal.id), "title": .string(goal.title), "question": .string(question),
            "confirmLabel": .string(request.confirmLabel(input.language)), "cancelLabel": .string(request.cancelLabel(input.language)),
        ]
        return ok(question, value, input, deletion: flow)
    }

    /// `goal confirm`: deletes the goal the dialog asks about.
    static func confirm(_ input: CountdownCommandInput) -> CountdownCommandResult {
        var flow = input.deletion
        let title = flow.pending?.title ?? ""
        guard case .deleteGoal(let id) = flow.onConfirm() else {
            return refuse(L10n.countdownCommandNothingToConfirm(input.language), input)
        }
        guard let goal = input.goals.first(where: { $0.id == id }) else {
            var result = refuse(L10n.countdownCommandGoalNotFound(title)(input.language), input)
            result.deletion = flow
            return result
        }
        return deleted(goal, flow, input)
    }

    /// `goal cancel`: closes the dialog; the goal stays.
    static func cancel(_ input: CountdownCommandInput) -> CountdownCommandResult {
        var flow = input.deletion
        guard case .dismissConfirmation = flow.onCancel() else {
            return refuse(L10n.countdownCommandNothingToConfirm(input.language), input)
        }
        return ok(L10n.countdownCommandDeletionCancelled(input.language), ["cancelled": true], input, deletion: flow)
    }

    static func deleted(_ goal: CountdownGoal, _ flow: CountdownDeletionFlow, _ input: CountdownCommandInput) -> CountdownCommandResult {
        ok(L10n.countdownCommandDeleted(goal.title)(input.language), ["deleted": .string(goal.id)], input,
           writes: [.deleteGoal(id: goal.id)], deletion: flow)
    }

    // MARK: - Move

    /// `goal move REF POSITION` (1 = top; `top`, `bottom`): writes only changed priorities.
    static func move(_ args: [String], _ input: CountdownCommandInput) -> CountdownCommandResult {
        guard args.count == 2 else { return usageError(input) }
        guard let goal = resolve(args[0], input) else { return notFound(args[0], input) }
        let target: Int
        switch args[1] {
        case "top": target = 1
        case "bottom": target = input.goals.count
        default:
            guard let n = Int(args[1]), n >= 1 else { return usageError(input) }
            target = min(n, input.goals.count)
        }
        let changed = CountdownGoalBook.move(goalID: goal.id, to: target - 1, in: input.goals)
        if changed.isEmpty {
            return ok(L10n.countdownCommandNoChange(input.language), ["id": .string(goal.id), "position": .int(Int64(target))], input)
        }
        let before = Dictionary(uniqueKeysWithValues: input.goals.map { ($0.id, $0) })
        let writes = changed.map { CountdownWrite.setGoalFields(id: $0.id, fields: $0.fields(changedFrom: before[$0.id])) }
        let after = input.goals.map { g in changed.first { $0.id == g.id } ?? g }
        let position = position(of: goal.id, in: after) ?? target
        return ok(L10n.countdownCommandMoved(goal.title, position: position)(input.language),
                  ["id": .string(goal.id), "position": .int(Int64(position)), "rewritten": .int(Int64(changed.count))],
                  input, writes: writes)
    }

    // MARK: - List and profile

    /// `goal list` / `goals`: every goal's count for today, in list order.
    static func list(_ input: CountdownCommandInput) -> CountdownCommandResult {
        let list = CountdownDisplayList.recompute(goals: input.goals, profile: input.profile, nowMs: input.nowMs, calendar: input.calendar)
        return ok(list.text(input.language, withIDs: true), listValue(list, input), input)
    }

    /// `profile` shows the birth date; `profile birth-date YYYY-MM-DD` stores it (a future date
    /// is refused).
    static func profile(_ args: [String], _ input: CountdownCommandInput) -> CountdownCommandResult {
        if args.isEmpty { return ok(profileText(input), profileValue(input), input) }
        guard args.count == 2, args[0] == "birth-date" else { return usageError(input) }
        guard let day = CivilDate(iso: args[1]) else { return refuse(L10n.countdownCommandBadDate(input.language), input) }
        switch CountdownRules.validateBirthDate(day, today: input.today, profile: input.profile, nowMs: input.nowMs) {
        case .failure(let refusal):
            return refuse(refusalText(refusal, input.language), input)
        case .success(let profile):
            let before = input.profile?.fields ?? [:]
            let changed = profile.fields.filter { before[$0.key] != $0.value }
            var updated = input
            updated.profile = profile
            let text = changed.isEmpty ? L10n.countdownCommandNoChange(input.language) : L10n.countdownCommandBirthDateSaved(input.language)
            return ok(text, profileValue(updated), input, writes: changed.isEmpty ? [] : [.setProfileFields(changed)])
        }
    }
}
