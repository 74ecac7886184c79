import PeerLinkCore

/// `TimelineReloadPolicy`: the *earliest* time WidgetKit may ask for the next timeline.
public enum FitnessWidgetReloadPolicy: Sendable, Hashable {
    case atEnd
    case after(EpochMs)
    case never

    /// As a property list: `{"policy": "after", "at": ms}`.
    public var plistValue: PlistValue {
        switch self {
        case .atEnd: ["policy": "atEnd"]
        case .after(let ms): ["policy": "after", "at": .int(ms)]
        case .never: ["policy": "never"]
        }
    }
}

/// A timeline: its entries and when WidgetKit may ask again.
public struct FitnessWidgetTimeline<Entry: Sendable & Hashable>: Sendable, Hashable {
    public var entries: [Entry]
    public var policy: FitnessWidgetReloadPolicy

    /// A timeline of `entries` with `policy`.
    public init(entries: [Entry], policy: FitnessWidgetReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}

// MARK: - Budget

/// Whether WidgetKit honours a reload request.
public enum FitnessWidgetReloadDecision: String, Sendable, Hashable {
    case granted
    case denied
}

/// WidgetKit's daily reload budget for one widget.
///
/// ## Rules
/// - `dailyLimit` (default 72, the figure an Apple engineer gave) background reloads per
///   local day; the 72nd is granted, the 73rd denied.
/// - A reload while the app is in the foreground is always granted and does not count.
/// - The count resets at local midnight in `calendar` (the day of `now` differs from the day
///   of the last counted reload; a clock set back to an earlier day also starts afresh).
/// - A denied request changes nothing.
public struct FitnessWidgetReloadBudget: Sendable {
    /// Reloads a frequently viewed widget gets per day.
    public static let defaultDailyLimit = 72

    public let dailyLimit: Int
    /// The device's current time zone; set it again after travel.
    public var calendar: LocalCalendar
    /// The local day the count belongs to; nil before the first counted reload.
    public private(set) var day: CivilDate?
    /// Background reloads counted on `day`.
    public private(set) var usedToday = 0

    /// A fresh budget.
    public init(calendar: LocalCalendar, dailyLimit: Int = FitnessWidgetReloadBudget.defaultDailyLimit) {
        self.calendar = calendar
        self.dailyLimit = max(0, dailyLimit)
    }

    /// Reloads still allowed on the local day of `nowMs`.
    public func remaining(nowMs: EpochMs) -> Int {
        calendar.civilDate(nowMs) == day ? max(0, dailyLimit - usedToday) : dailyLimit
    }

    /// Asks for a reload at `now`.
    public mutating func requestReload(now nowMs: EpochMs, appInForeground: Bool) -> FitnessWidgetReloadDecision {
        if appInForeground { return .granted }
        let today = calendar.civilDate(nowMs)
        if today != day {
            day = today
            usedToday = 0
        }
        guard usedToday < dailyLimit else { return .denied }
        usedToday += 1
        return .granted
    }

    /// As a property list: `{"limit": 72, "used": 3, "day": "2026-03-29"}`.
    public var plistValue: PlistValue {
        var d: [String: PlistValue] = ["limit": .int(Int64(dailyLimit)), "used": .int(Int64(usedToday))]
        if let day { d["day"] = .string(day.description) }
        return .dictionary(d)
    }
}
