import PeerLinkCore

/// What a goal's countdown shows today.
///
/// The rule for a count of 0 (seed 1.3 and 3.3): a **date goal** on its day shows
/// `targetDateIsToday` ("今日が目標日です"); an **age goal** on the birthday it reaches its target
/// age shows `achieved` ("目標達成！"). Seed 1.3 names the date goal's day explicitly, and 3.3
/// ("日数が0になる") then covers the other countdown that can reach 0, the age goal. After that
/// day a date goal shows `targetDatePassed` ("目標日が過去です", seed 1.2) and an age goal
/// `targetAgeNotAboveCurrentAge` (seed 2.3), the same messages the editor refuses with.
public enum CountdownStatus: Sendable, Hashable {
    /// The target is `daysLeft` days away (at least 1).
    case counting(daysLeft: Int)
    /// A date goal whose target date is today.
    case targetDateIsToday
    /// An age goal whose target birthday is today.
    case achieved
    /// A date goal whose target date was `daysAgo` days ago (at least 1).
    case targetDatePassed(daysAgo: Int)
    /// An age goal whose target age is not above the current age (and not reached today).
    case targetAgeNotAboveCurrentAge(currentAge: Int)
    /// An age goal while no birth date is stored.
    case birthDateMissing
    /// A date goal with no date or an age goal with no age (an incomplete record).
    case targetMissing

    // MARK: - Derived values

    /// Days left for the widget and the list: the count while counting, 0 on the day itself,
    /// nil when there is no countdown (past, invalid or missing data).
    public var daysLeft: Int? {
        switch self {
        case .counting(let days): days
        case .targetDateIsToday, .achieved: 0
        case .targetDatePassed, .targetAgeNotAboveCurrentAge, .birthDateMissing, .targetMissing: nil
        }
    }

    /// True when the status is an error message rather than a count or a celebration.
    public var isError: Bool { daysLeft == nil }

    /// A stable name for machine output (JSON, scenario expectations).
    public var code: String {
        switch self {
        case .counting: "counting"
        case .targetDateIsToday: "today"
        case .achieved: "achieved"
        case .targetDatePassed: "past"
        case .targetAgeNotAboveCurrentAge: "ageNotAboveCurrent"
        case .birthDateMissing: "birthDateMissing"
        case .targetMissing: "targetMissing"
        }
    }

    // MARK: - Texts

    /// The text shown beside the title: "あと12日", or the status message.
    public var message: LocalizedText {
        switch self {
        case .counting(let days): L10n.countdownDaysLeft(days)
        case .targetDateIsToday: L10n.countdownTargetDateIsToday
        case .achieved: L10n.countdownAchieved
        case .targetDatePassed: L10n.countdownTargetDatePassed
        case .targetAgeNotAboveCurrentAge: L10n.countdownTargetAgeNotAboveCurrentAge
        case .birthDateMissing: L10n.countdownBirthDateMissing
        case .targetMissing: L10n.countdownTargetMissing
        }
    }

    /// The short text for a watch complication: "12日" / "12d", "今日", "達成", or "--".
    public var shortMessage: LocalizedText {
        switch self {
        case .counting(let days): L10n.countdownShortDays(days)
        case .targetDateIsToday: L10n.countdownShortToday
        case .achieved: L10n.countdownShortAchieved
        case .targetDatePassed, .targetAgeNotAboveCurrentAge, .birthDateMissing, .targetMissing:
            L10n.countdownShortUnavailable
        }
    }
}

// MARK: - Computing a status

extension CountdownStatus {
    /// The status of `goal` on the local day `today`, with the stored `birthDate` (if any).
    public init(goal: CountdownGoal, birthDate: CivilDate?, today: CivilDate) {
        if goal.isAgeGoal {
            guard let targetAge = goal.targetAge else { self = .targetMissing; return }
            guard let birthDate else { self = .birthDateMissing; return }
            let target = CountdownCalendar.dayOfTurning(targetAge, birthDate: birthDate)
            let days = CountdownCalendar.daysLeft(from: today, to: target)
            if days > 0 {
                self = .counting(daysLeft: days)
            } else if days == 0 {
                self = .achieved
            } else {
                self = .targetAgeNotAboveCurrentAge(currentAge: CountdownCalendar.age(of: birthDate, on: today))
            }
        } else {
            guard let targetDate = goal.targetDate else { self = .targetMissing; return }
            let days = CountdownCalendar.daysLeft(from: today, to: targetDate)
            if days > 0 {
                self = .counting(daysLeft: days)
            } else if days == 0 {
                self = .targetDateIsToday
            } else {
                self = .targetDatePassed(daysAgo: -days)
            }
        }
    }
}
