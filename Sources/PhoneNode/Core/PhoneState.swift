import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The phone app's own durable state (not replicated): everything it must find again after a
/// restart that is not in the replicated state. It lives in the node's local table, one key
/// per part (`PhoneState.Key`), and only the parts that changed are rewritten.
struct PhoneState: Sendable, Equatable {
    /// The local-table keys, one per part.
    enum Key {
        static let ids = "phone.ids"
        static let auth = "phone.auth"
        static let app = "phone.app"
        static let notifications = "phone.notifications"
        static let motion = "phone.motion"
        static let widgets = "phone.widgets"
        static let countdownWidget = "phone.countdownWidget"
        static let observer = "phone.observer"
        static let exports = "phone.exports"
        static let effects = "phone.effects"
        static let live = "phone.live"
        static let link = "phone.link"
        /// Every key, in a fixed order.
        static let all = [ids, auth, app, notifications, motion, widgets, countdownWidget, observer, exports, effects, live, link]
    }

    /// The parts, as bits in `Key.all`'s order.
    struct Parts: OptionSet, Sendable {
        let rawValue: UInt16
        static let ids = Parts(rawValue: 1 << 0)
        static let auth = Parts(rawValue: 1 << 1)
        static let app = Parts(rawValue: 1 << 2)
        static let notifications = Parts(rawValue: 1 << 3)
        static let motion = Parts(rawValue: 1 << 4)
        static let widgets = Parts(rawValue: 1 << 5)
        static let countdownWidget = Parts(rawValue: 1 << 6)
        static let observer = Parts(rawValue: 1 << 7)
        static let exports = Parts(rawValue: 1 << 8)
        static let effects = Parts(rawValue: 1 << 9)
        static let live = Parts(rawValue: 1 << 10)
        static let link = Parts(rawValue: 1 << 11)
        /// Every part (`Key.all`).
        static let all = Parts(rawValue: (1 << 12) - 1)
    }

    /// The parts written (set, or mutated in place) since `clearTouched()`: each part's
    /// `didSet` marks it, so `save` finds what to encode without keeping and comparing a copy
    /// of the whole state. A part may be marked and still hold its old value (`save`
    /// compares what it encodes with what is stored). Not part of the state's value: equal
    /// states compare equal whatever parts they marked.
    private(set) var touched = TouchedParts()

    var ids = IDCounters() { didSet { touched.parts.insert(.ids) } }
    var auth = AuthorizationState() { didSet { touched.parts.insert(.auth) } }
    var app = AppPresence() { didSet { touched.parts.insert(.app) } }
    var notifications = NotificationState() { didSet { touched.parts.insert(.notifications) } }
    /// Motion samples since the last one that ended a run (replayed to rebuild the detector).
    var motion: [MotionActivitySample] = [] { didSet { touched.parts.insert(.motion) } }
    var widgets = FitnessWidgetState() { didSet { touched.parts.insert(.widgets) } }
    var countdownWidget = CountdownWidgetState() { didSet { touched.parts.insert(.countdownWidget) } }
    var observer = StepObserverState() { didSet { touched.parts.insert(.observer) } }
    var exports: [ExportRecord] = [] { didSet { touched.parts.insert(.exports) } }
    var effects: [EffectRecord] = [] { didSet { touched.parts.insert(.effects) } }
    var live: LiveWorkout? { didSet { touched.parts.insert(.live) } }
    var link = PhoneLinkState() { didSet { touched.parts.insert(.link) } }

    /// Forgets which parts were written (`save` stored them).
    mutating func clearTouched() { touched.parts = [] }
}

/// `PhoneState.touched`: bookkeeping that every instance compares equal by, so the state's
/// synthesized `==` still compares only its parts.
struct TouchedParts: Sendable, Equatable {
    var parts: PhoneState.Parts = []
    static func == (_: TouchedParts, _: TouchedParts) -> Bool { true }
}

// MARK: - Parts

/// Counters that make ids deterministic.
struct IDCounters: Sendable, Equatable {
    /// Samples written by this phone so far.
    var sample = 0
    /// The highest goal number used (`goal-<n>`).
    var goal = 0
    /// Set when the store was reset and the watch's state has not been applied yet: goals
    /// created meanwhile take ids `goal-<n>-<suffix>`, which no earlier store can have used
    /// (the suffix comes from this store's incarnation). Cleared by the first complete resync.
    var provisionalSuffix: String?
}

/// HealthKit read authorization and when it was first requested.
struct AuthorizationState: Sendable, Equatable {
    /// When the first launch showed the request; nil before the first launch.
    var requestedMs: EpochMs?
    var authorization = HealthAuthorization.initial
}

/// The app's foreground state and the calendar facts it has acted on.
struct AppPresence: Sendable, Equatable {
    /// The node starts with the app in the background (launched by the system); `app
    /// foreground` is the user opening it.
    var isForeground = false
    /// The time zone the pending notifications were computed in.
    var timeZone: String?
    /// The local day the goal counts were last recomputed for.
    var countdownDay: CivilDate?
    /// How many times the goal counts were recomputed (launch, foreground, date change).
    var recomputes = 0
    /// The deep link the app was last opened with (a widget tap), and the screen it showed.
    var openedURL: String?
    var openedScreen: String?
}

/// A delivered notification, as the notification centre lists it.
struct DeliveredNotification: Sendable, Equatable {
    var notification: PendingNotification
    var deliveredMs: EpochMs
    /// For a run prompt: when the run began (the workout is credited from then).
    var runStartMs: EpochMs?
    /// `accept` or `dismiss` once the user answered.
    var response: String?
    var respondedMs: EpochMs?
}

/// Pending and delivered notifications.
struct NotificationState: Sendable, Equatable {
    /// Delivered notifications kept for `show notifications` and queries.
    static let maxDeliveredKept = 100

    var pending = PendingNotificationList()
    /// The run start of the pending run prompt (delivered at once unless dated later).
    var pendingRunStartMs: EpochMs?
    /// The most recent delivered notifications, oldest first.
    var delivered: [DeliveredNotification] = []
    /// Every notification delivered since install (the list above is trimmed).
    var deliveredTotal = 0
    /// Run prompts not shown because the settings turn them off.
    var suppressedRunPrompts = 0

    mutating func record(_ d: DeliveredNotification) {
        delivered.append(d)
        deliveredTotal += 1
        if delivered.count > Self.maxDeliveredKept { delivered.removeFirst(delivered.count - Self.maxDeliveredKept) }
    }
}

/// What each widget keeps of WidgetKit's reloads: when it asks again, its daily budget
/// (the day and the reloads spent that day) and its reloads granted and denied since install.
struct WidgetReloads: Sendable, Equatable {
    /// When WidgetKit asks again (the timeline's policy; after a denied reload, the next local
    /// midnight: the budget is spent until then).
    var nextReloadMs: EpochMs?
    var budgetDay: CivilDate?
    var budgetUsed = 0
    var reloads = 0
    var denied = 0

    /// The budget as it stands: `budgetUsed` reloads spent on `budgetDay`.
    func budget(_ calendar: LocalCalendar) -> FitnessWidgetReloadBudget {
        var b = FitnessWidgetReloadBudget(calendar: calendar)
        guard let day = budgetDay else { return b }
        let noon = calendar.instant(day, hour: 12)
        for _ in 0..<min(budgetUsed, b.dailyLimit) { _ = b.requestReload(now: noon, appInForeground: false) }
        return b
    }

    /// Asks WidgetKit for a reload now: spends the budget and counts the answer.
    mutating func request(now: EpochMs, appInForeground: Bool, calendar: LocalCalendar) -> FitnessWidgetReloadDecision {
        var b = budget(calendar)
        let decision = b.requestReload(now: now, appInForeground: appInForeground)
        budgetDay = b.day
        budgetUsed = b.usedToday
        switch decision {
        case .granted: reloads += 1
        case .denied: denied += 1
        }
        return decision
    }
}

/// The fitness widgets (small and medium reload together, so they share one budget).
struct FitnessWidgetState: Sendable, Equatable {
    /// What the app last wrote to the App Group.
    var appGroup: FitnessWidgetSnapshot?
    /// The snapshot the current timeline shows (read from the App Group at its reload).
    var shown: FitnessWidgetSnapshot?
    /// The current timeline's entry date; nil before the first timeline.
    var entryMs: EpochMs?
    /// Next reload: the policy's `.after` time, or the next local midnight after a denial.
    var reload = WidgetReloads()
}

/// The countdown widget: the top goal as it was at the last reload.
struct CountdownWidgetState: Sendable, Equatable {
    /// The top goal at the last reload; nil when there was none.
    var top: CountdownGoal?
    var birthDate: CivilDate?
    var entryMs: EpochMs?
    /// The local day the entry counts from.
    var entryDay: CivilDate?
    /// Next reload: the next local midnight (the policy), granted or denied.
    var reload = WidgetReloads()
}

/// HealthKit's observer query on steps with background delivery (at most hourly).
struct StepObserverState: Sendable, Equatable {
    /// The least time between two deliveries.
    static let minimumIntervalMs: Int64 = 60 * 60 * 1000

    var lastDeliveryMs: EpochMs?
    /// The first new step data not yet delivered.
    var pendingSinceMs: EpochMs?
    var deliveries = 0

    /// When the pending data will be delivered; nil with nothing pending.
    var dueMs: EpochMs? {
        guard let since = pendingSinceMs else { return nil }
        guard let last = lastDeliveryMs else { return since }
        return max(since, last + Self.minimumIntervalMs)
    }
}

/// One CSV export written to the export folder.
struct ExportRecord: Sendable, Equatable {
    /// Exports kept in the list (older ones are forgotten, their files stay).
    static let maxKept = 20

    var name: String
    var path: String
    var rows: Int
    var bytes: Int
    var atMs: EpochMs
}

/// One effect the phone asked the link to carry out, with when.
struct EffectRecord: Sendable, Equatable {
    /// Effects kept in the log.
    static let maxKept = 100

    var atMs: EpochMs
    var effect: PhoneEffect
    /// What the link adapter did with it: `message`, `complication`, `userInfo` (a start
    /// request for an unreachable watch, or a push over the day's budget), `failed:CODE`.
    var outcome: String?
}
