import PeerLinkCore

/// One scheduled local notification (`UNNotificationRequest`).
public struct PendingNotification: Sendable, Hashable {
    /// The request identifier; adding a request with a pending id replaces it.
    public var id: String
    public var kind: FitnessNotificationKind
    public var title: String
    public var body: String
    public var trigger: NotificationTrigger
    /// The next instant it fires.
    public var fireMs: EpochMs

    /// A request from its values; `fireMs` is the trigger's next instant.
    public init(id: String, kind: FitnessNotificationKind, title: String, body: String, trigger: NotificationTrigger, fireMs: EpochMs) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.trigger = trigger
        self.fireMs = fireMs
    }

    /// As a property list.
    public var plistValue: PlistValue {
        [
            "id": .string(id), "kind": .string(kind.rawValue), "title": .string(title), "body": .string(body),
            "trigger": trigger.plistValue, "fire": .int(fireMs),
        ]
    }
}

/// What `PendingNotificationList.add` did.
public enum PendingNotificationAddOutcome: Sendable, Hashable {
    /// Added as a new request.
    case added
    /// Replaced the pending request with the same id.
    case replaced
    /// Added, and the list was full: the pending request that fires last (this id) was dropped.
    case addedDroppingLatest(droppedID: String)
    /// The list was full and the new request fires after all 64 pending ones: not kept.
    case droppedOverLimit
}

/// The app's pending local notifications, with iOS's limit.
///
/// iOS keeps at most 64 pending notifications per app and, over the limit, keeps the 64 that
/// fire soonest. So does this list: it stays sorted by (fire time, id), and after an add that
/// makes 65 it drops the last one — which may be the request just added. Ties in fire time
/// are broken by id so the outcome is deterministic.
public struct PendingNotificationList: Sendable, Hashable {
    /// `UNUserNotificationCenter`'s limit per app.
    public static let maxPending = 64

    /// The pending requests, soonest first.
    public private(set) var items: [PendingNotification] = []

    /// An empty list.
    public init() {}

    /// The number of pending requests.
    public var count: Int { items.count }

    /// The pending request with `id`, if any.
    public func item(id: String) -> PendingNotification? { items.first { $0.id == id } }

    /// `item(id:)?.fireMs`, without copying the request out.
    public func fireMs(id: String) -> EpochMs? {
        for i in items.indices where items[i].id == id { return items[i].fireMs }
        return nil
    }

    /// `item(id:) != nil`, without copying the request out.
    public func contains(id: String) -> Bool { items.contains { $0.id == id } }

    // MARK: - Updates

    /// Adds `request`, replacing any pending one with the same id, then enforces the limit.
    @discardableResult
    public mutating func add(_ request: PendingNotification) -> PendingNotificationAddOutcome {
        let replaced = items.contains { $0.id == request.id }
        items.removeAll { $0.id == request.id }
        items.append(request)
        sort()
        guard items.count > Self.maxPending else { return replaced ? .replaced : .added }
        let dropped = items.removeLast()
        return dropped.id == request.id ? .droppedOverLimit : .addedDroppingLatest(droppedID: dropped.id)
    }

    /// Removes the request with `id`; true when one was pending.
    @discardableResult
    public mutating func remove(id: String) -> Bool {
        let before = items.count
        items.removeAll { $0.id == id }
        return items.count != before
    }

    /// Removes every request of `kind`; returns their ids.
    @discardableResult
    public mutating func removeAll(kind: FitnessNotificationKind) -> [String] {
        let ids = items.filter { $0.kind == kind }.map(\.id)
        items.removeAll { $0.kind == kind }
        return ids
    }

    /// Delivers every request due at `nowMs` (fire time ≤ now), soonest first. One-shot requests
    /// leave the list; repeating ones stay with their next fire time after `nowMs`.
    public mutating func onDeliverDue(nowMs: EpochMs, calendar: LocalCalendar) -> [PendingNotification] {
        let due = items.filter { $0.fireMs <= nowMs }
        guard !due.isEmpty else { return [] }
        items.removeAll { $0.fireMs <= nowMs }
        for var request in due where request.trigger.repeats {
            request.fireMs = request.trigger.nextFireMs(after: nowMs, calendar: calendar)
            items.append(request)
        }
        sort()
        return due
    }

    /// Recomputes calendar-triggered fire times in a new time zone (travel, or a DST rule
    /// change): a calendar trigger always means wall time in the current zone.
    public mutating func onTimeZoneChange(nowMs: EpochMs, calendar: LocalCalendar) {
        for i in items.indices {
            if case .calendar = items[i].trigger {
                items[i].fireMs = items[i].trigger.nextFireMs(after: nowMs, calendar: calendar)
            }
        }
        sort()
    }

    /// True when a request is due at `nowMs` (`onDeliverDue` would deliver something).
    public func hasDue(nowMs: EpochMs) -> Bool { items.contains { $0.fireMs <= nowMs } }

    /// True when `settings` turns off a pending request's feature (`apply` would remove it).
    public func hasTurnedOff(_ settings: AppSettings) -> Bool {
        items.contains { !NotificationPolicy.allows($0.kind, settings: settings) }
    }

    /// Removes the requests whose feature `settings` turns off; returns their ids.
    @discardableResult
    public mutating func apply(_ settings: AppSettings) -> [String] {
        var removed: [String] = []
        for kind in FitnessNotificationKind.allCases where !NotificationPolicy.allows(kind, settings: settings) {
            removed += removeAll(kind: kind)
        }
        return removed
    }

    /// As a property list: an array, soonest first.
    public var plistValue: PlistValue { .array(items.map(\.plistValue)) }

    private mutating func sort() {
        items.sort { ($0.fireMs, $0.id) < ($1.fireMs, $1.id) }
    }
}
