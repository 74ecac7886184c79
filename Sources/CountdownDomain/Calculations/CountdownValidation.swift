import PeerLinkCore

/// The limits the countdown editor enforces.
public enum CountdownRules {
    /// The longest title, in characters (grapheme clusters), after trimming.
    public static let maxTitleCharacters = 100
    /// The target ages an age goal accepts.
    public static let targetAgeRange = 1...150
    /// The earliest birth year accepted.
    public static let earliestBirthYear = 1900
    /// The most goals a list holds; creation is refused beyond it.
    public static let maxGoals = 500
}

/// A goal as typed in the add or edit screen, before it is validated.
public struct CountdownGoalDraft: Sendable, Hashable {
    /// The title as typed; saved trimmed of surrounding white space.
    public var title: String
    /// True for an age goal.
    public var isAgeGoal: Bool
    /// The target date (date goals).
    public var targetDate: CivilDate?
    /// The target age (age goals).
    public var targetAge: Int?

    /// Makes a draft.
    public init(title: String, isAgeGoal: Bool, targetDate: CivilDate? = nil, targetAge: Int? = nil) {
        self.title = title
        self.isAgeGoal = isAgeGoal
        self.targetDate = targetDate
        self.targetAge = targetAge
    }

    /// The draft the edit screen starts from (seed 4.1).
    public init(goal: CountdownGoal) {
        self.init(title: goal.title, isAgeGoal: goal.isAgeGoal, targetDate: goal.targetDate, targetAge: goal.targetAge)
    }

    /// The title with leading and trailing white space and newlines removed.
    public var trimmedTitle: String {
        String(title.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

/// One problem found in a draft or a birth date.
///
/// Blocking issues refuse the save; `targetDateInPast` is only a warning (the seed's design:
/// "目標日: 過去日付の警告"), and the saved goal then shows "目標日が過去です".
public enum CountdownValidationIssue: Sendable, Hashable {
    /// The title is empty or only white space.
    case titleEmpty
    /// The title is longer than `CountdownRules.maxTitleCharacters`.
    case titleTooLong
    /// A date goal without a date.
    case targetDateMissing
    /// A date goal whose date is before today (warning).
    case targetDateInPast
    /// An age goal without an age.
    case targetAgeMissing
    /// An age outside `CountdownRules.targetAgeRange`.
    case targetAgeOutOfRange
    /// An age goal while no birth date is stored.
    case birthDateMissing
    /// A target age not greater than the current age.
    case targetAgeNotAboveCurrentAge(currentAge: Int)
    /// A birth date after today.
    case birthDateInFuture
    /// A birth date before `CountdownRules.earliestBirthYear`.
    case birthDateTooEarly
    /// The list already holds `CountdownRules.maxGoals` goals.
    case tooManyGoals

    /// True when the issue refuses the save.
    public var isBlocking: Bool { self != .targetDateInPast }

    /// The inline message the form shows.
    public var message: LocalizedText {
        switch self {
        case .titleEmpty: L10n.countdownTitleEmpty
        case .titleTooLong: L10n.countdownTitleTooLong(maxCharacters: CountdownRules.maxTitleCharacters)
        case .targetDateMissing: L10n.countdownTargetDateMissing
        case .targetDateInPast: L10n.countdownTargetDatePassed
        case .targetAgeMissing: L10n.countdownTargetAgeMissing
        case .targetAgeOutOfRange: L10n.countdownTargetAgeOutOfRange(CountdownRules.targetAgeRange)
        case .birthDateMissing: L10n.countdownBirthDateMissing
        case .targetAgeNotAboveCurrentAge: L10n.countdownTargetAgeNotAboveCurrentAge
        case .birthDateInFuture: L10n.countdownBirthDateInFuture
        case .birthDateTooEarly: L10n.countdownBirthDateTooEarly(earliestYear: CountdownRules.earliestBirthYear)
        case .tooManyGoals: L10n.countdownTooManyGoals(CountdownRules.maxGoals)
        }
    }
}

// MARK: - Validating

extension CountdownRules {
    /// Every issue with `draft` on the local day `today`, blocking ones first, in form order
    /// (title, then target). The target age is checked against the age on `today`: a target
    /// age equal to the current age is refused even on the birthday it was reached.
    ///
    /// `checkingTarget` false leaves the target out (an edit that does not set it, such as a
    /// rename): the seed's target rules apply when the user sets a target (要件2.3 "WHEN
    /// ユーザーが目標年齢を設定する", design "目標年齢: 現在年齢以下の拒否", "目標日: 過去日付の警告"),
    /// and a goal whose target has since been reached or passed must still be renamable.
    public static func validate(
        _ draft: CountdownGoalDraft, birthDate: CivilDate?, today: CivilDate, checkingTarget: Bool = true
    ) -> [CountdownValidationIssue] {
        var issues: [CountdownValidationIssue] = []
        let title = draft.trimmedTitle
        if title.isEmpty {
            issues.append(.titleEmpty)
        } else if title.count > maxTitleCharacters {
            issues.append(.titleTooLong)
        }
        if checkingTarget { issues += targetIssues(draft, birthDate: birthDate, today: today) }
        return issues.filter(\.isBlocking) + issues.filter { !$0.isBlocking }
    }

    /// The issues with the draft's target: a missing or out-of-range one, an age not above the
    /// current age (or no birth date to count it from), a date before today (a warning).
    static func targetIssues(
        _ draft: CountdownGoalDraft, birthDate: CivilDate?, today: CivilDate
    ) -> [CountdownValidationIssue] {
        var issues: [CountdownValidationIssue] = []
        if draft.isAgeGoal {
            if let age = draft.targetAge {
                if !targetAgeRange.contains(age) {
                    issues.append(.targetAgeOutOfRange)
                } else if let birthDate {
                    let current = CountdownCalendar.age(of: birthDate, on: today)
                    if age <= current { issues.append(.targetAgeNotAboveCurrentAge(currentAge: current)) }
                } else {
                    issues.append(.birthDateMissing)
                }
            } else {
                issues.append(.targetAgeMissing)
            }
        } else if let date = draft.targetDate {
            if date < today { issues.append(.targetDateInPast) }
        } else {
            issues.append(.targetDateMissing)
        }
        return issues
    }

    /// Checks a birth date entered on the local day `today`: refused when after today
    /// (the seed's design: "生年月日: 未来日付の拒否") or before `earliestBirthYear`.
    /// Returns the profile to store, or the issue.
    public static func validateBirthDate(
        _ birthDate: CivilDate, today: CivilDate, profile: UserProfile?, nowMs: EpochMs
    ) -> Result<UserProfile, CountdownRefusal> {
        if birthDate > today { return .failure(CountdownRefusal([.birthDateInFuture])) }
        if birthDate.year < earliestBirthYear { return .failure(CountdownRefusal([.birthDateTooEarly])) }
        return .success(UserProfile(birthDate: birthDate, createdMs: profile?.createdMs ?? nowMs))
    }
}

/// A refused save: the blocking issues (and any warnings) found, in form order.
public struct CountdownRefusal: Error, Sendable, Hashable {
    /// The issues; at least one is blocking.
    public var issues: [CountdownValidationIssue]

    /// Makes a refusal.
    public init(_ issues: [CountdownValidationIssue]) { self.issues = issues }

    /// The messages in `language`, one per issue.
    public func messages(_ language: AppLanguage = .default) -> [String] { issues.map { $0.message(language) } }
}
