import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// `PhoneState` to and from the property-list values of the node's local table.
///
/// Decoding is tolerant: a part that does not decode starts from its default and is named in
/// `problems` (the app logs it), so one bad row never stops the phone from launching.
extension PhoneState {
    // MARK: - Whole state

    /// Every part under its key (`live` only while there is a live workout).
    func encoded() -> [String: PlistValue] {
        var out: [String: PlistValue] = [:]
        for key in Key.all { if let v = encoded(key) { out[key] = v } }
        return out
    }

    /// The part stored under `key`; nil for `live` without a live workout (and unknown keys).
    func encoded(_ key: String) -> PlistValue? {
        switch key {
        case Key.ids:
            var d: [String: PlistValue] = ["sample": .int(Int64(ids.sample)), "goal": .int(Int64(ids.goal))]
            if let suffix = ids.provisionalSuffix { d["provisionalSuffix"] = .string(suffix) }
            return .dictionary(d)
        case Key.auth: return encode(auth)
        case Key.app: return encode(app)
        case Key.notifications: return encode(notifications)
        case Key.motion: return .array(motion.map(\.plistValue))
        case Key.widgets: return encode(widgets)
        case Key.countdownWidget: return encode(countdownWidget)
        case Key.observer:
            return optionalInts(["last": observer.lastDeliveryMs, "pendingSince": observer.pendingSinceMs], ["deliveries": observer.deliveries])
        case Key.exports:
            return .array(exports.map { ["name": .string($0.name), "path": .string($0.path), "rows": .int(Int64($0.rows)), "bytes": .int(Int64($0.bytes)), "at": .int($0.atMs)] })
        case Key.effects:
            return .array(effects.map { e in
                var d: [String: PlistValue] = ["at": .int(e.atMs), "payload": e.effect.payload]
                if let o = e.outcome { d["outcome"] = .string(o) }
                return .dictionary(d)
            })
        case Key.link: return link.plistValue
        case Key.live: return live?.plistValue
        default: return nil
        }
    }

    /// The state stored in `local`, and the keys that did not decode.
    static func decode(_ local: [String: PlistValue]) -> (PhoneState, problems: [String]) {
        var s = PhoneState()
        var problems: [String] = []
        func part<T>(_ key: String, _ read: (PlistValue) -> T?) -> T? {
            guard let v = local[key] else { return nil }
            guard let t = read(v) else { problems.append(key); return nil }
            return t
        }
        if let v = part(Key.ids, { v -> IDCounters? in
            guard let a = v["sample"]?.intValue, let b = v["goal"]?.intValue else { return nil }
            return IDCounters(sample: Int(a), goal: Int(b), provisionalSuffix: v["provisionalSuffix"]?.stringValue)
        }) { s.ids = v }
        if let v = part(Key.auth, decodeAuth) { s.auth = v }
        if let v = part(Key.app, decodeApp) { s.app = v }
        if let v = part(Key.notifications, decodeNotifications) { s.notifications = v }
        if let v = part(Key.motion, { $0.arrayValue.map { $0.compactMap(MotionActivitySample.init(plistValue:)) } }) { s.motion = v }
        if let v = part(Key.widgets, decodeWidgets) { s.widgets = v }
        if let v = part(Key.countdownWidget, decodeCountdownWidget) { s.countdownWidget = v }
        if let v = part(Key.observer, { v -> StepObserverState? in
            StepObserverState(lastDeliveryMs: v["last"]?.intValue, pendingSinceMs: v["pendingSince"]?.intValue,
                              deliveries: Int(v["deliveries"]?.intValue ?? 0))
        }) { s.observer = v }
        if let v = part(Key.exports, { $0.arrayValue?.compactMap { e -> ExportRecord? in
            guard let n = e["name"]?.stringValue, let p = e["path"]?.stringValue, let r = e["rows"]?.intValue,
                  let b = e["bytes"]?.intValue, let at = e["at"]?.intValue else { return nil }
            return ExportRecord(name: n, path: p, rows: Int(r), bytes: Int(b), atMs: at)
        } }) { s.exports = v }
        if let v = part(Key.effects, { $0.arrayValue?.compactMap { e -> EffectRecord? in
            guard let at = e["at"]?.intValue, let effect = e["payload"].flatMap(PhoneEffect.init(payload:)) else { return nil }
            return EffectRecord(atMs: at, effect: effect, outcome: e["outcome"]?.stringValue)
        } }) { s.effects = v }
        if let v = part(Key.link, PhoneLinkState.init(plistValue:)) { s.link = v }
        if let v = part(Key.live, { v in v["receivedMs"]?.intValue.flatMap { LiveWorkout(fields: v, receivedMs: $0) } }) { s.live = v }
        return (s, problems)
    }

    // MARK: - Parts

    private func encode(_ a: AuthorizationState) -> PlistValue {
        var d: [String: PlistValue] = ["statuses": a.authorization.plistValue]
        if let r = a.requestedMs { d["requested"] = .int(r) }
        return .dictionary(d)
    }

    private static func decodeAuth(_ v: PlistValue) -> AuthorizationState? {
        guard let statuses = v["statuses"].flatMap(HealthAuthorization.init(plistValue:)) else { return nil }
        return AuthorizationState(requestedMs: v["requested"]?.intValue, authorization: statuses)
    }

    private func encode(_ a: AppPresence) -> PlistValue {
        var d: [String: PlistValue] = ["foreground": .bool(a.isForeground), "recomputes": .int(Int64(a.recomputes))]
        if let tz = a.timeZone { d["timeZone"] = .string(tz) }
        if let day = a.countdownDay { d["countdownDay"] = .string(day.description) }
        if let url = a.openedURL { d["openedURL"] = .string(url) }
        if let screen = a.openedScreen { d["openedScreen"] = .string(screen) }
        return .dictionary(d)
    }

    private static func decodeApp(_ v: PlistValue) -> AppPresence? {
        guard let fg = v["foreground"]?.boolValue else { return nil }
        return AppPresence(isForeground: fg, timeZone: v["timeZone"]?.stringValue,
                           countdownDay: v["countdownDay"]?.stringValue.flatMap(CivilDate.init(iso:)),
                           recomputes: Int(v["recomputes"]?.intValue ?? 0),
                           openedURL: v["openedURL"]?.stringValue, openedScreen: v["openedScreen"]?.stringValue)
    }

    private func encode(_ n: NotificationState) -> PlistValue {
        var d: [String: PlistValue] = [
            "pending": n.pending.plistValue, "deliveredTotal": .int(Int64(n.deliveredTotal)),
            "suppressed": .int(Int64(n.suppressedRunPrompts)),
            "delivered": .array(n.delivered.map { item in
                var e: [String: PlistValue] = ["notification": item.notification.plistValue, "delivered": .int(item.deliveredMs)]
                if let r = item.runStartMs { e["runStart"] = .int(r) }
                if let r = item.response { e["response"] = .string(r) }
                if let r = item.respondedMs { e["responded"] = .int(r) }
                return .dictionary(e)
            }),
        ]
        if let r = n.pendingRunStartMs { d["pendingRunStart"] = .int(r) }
        return .dictionary(d)
    }

    private static func decodeNotifications(_ v: PlistValue) -> NotificationState? {
        guard let pending = v["pending"]?.arrayValue, let delivered = v["delivered"]?.arrayValue else { return nil }
        var n = NotificationState()
        for p in pending {
            guard let item = PendingNotification(plistValue: p) else { return nil }
            n.pending.add(item)
        }
        for e in delivered {
            guard let item = e["notification"].flatMap(PendingNotification.init(plistValue:)), let at = e["delivered"]?.intValue else { return nil }
            n.delivered.append(DeliveredNotification(notification: item, deliveredMs: at, runStartMs: e["runStart"]?.intValue,
                                                     response: e["response"]?.stringValue, respondedMs: e["responded"]?.intValue))
        }
        n.pendingRunStartMs = v["pendingRunStart"]?.intValue
        n.deliveredTotal = Int(v["deliveredTotal"]?.intValue ?? Int64(n.delivered.count))
        n.suppressedRunPrompts = Int(v["suppressed"]?.intValue ?? 0)
        return n
    }

    private func encode(_ w: FitnessWidgetState) -> PlistValue {
        var d = fields(of: w.reload, entryMs: w.entryMs)
        if let g = w.appGroup { d["appGroup"] = g.plistValue }
        if let s = w.shown { d["shown"] = s.plistValue }
        return .dictionary(d)
    }

    private static func decodeWidgets(_ v: PlistValue) -> FitnessWidgetState? {
        guard v.dictionaryValue != nil else { return nil }
        return FitnessWidgetState(
            appGroup: v["appGroup"].flatMap(FitnessWidgetSnapshot.init(plistValue:)),
            shown: v["shown"].flatMap(FitnessWidgetSnapshot.init(plistValue:)),
            entryMs: v["entry"]?.intValue, reload: Self.decodeReloads(v))
    }

    private func encode(_ w: CountdownWidgetState) -> PlistValue {
        var d = fields(of: w.reload, entryMs: w.entryMs)
        if let top = w.top { d["top"] = .dictionary(top.fields.merging(["id": .string(top.id)]) { a, _ in a }) }
        if let b = w.birthDate { d["birthDate"] = .string(b.description) }
        if let day = w.entryDay { d["entryDay"] = .string(day.description) }
        return .dictionary(d)
    }

    private static func decodeCountdownWidget(_ v: PlistValue) -> CountdownWidgetState? {
        guard v.dictionaryValue != nil else { return nil }
        let top = v["top"].flatMap { t in t["id"]?.stringValue.flatMap { CountdownGoal(id: $0, fields: t.dictionaryValue ?? [:]) } }
        return CountdownWidgetState(
            top: top, birthDate: v["birthDate"]?.stringValue.flatMap(CivilDate.init(iso:)),
            entryMs: v["entry"]?.intValue, entryDay: v["entryDay"]?.stringValue.flatMap(CivilDate.init(iso:)),
            reload: Self.decodeReloads(v))
    }

    /// A widget's entry date and reloads, as keys of its dictionary (`entry`, `nextReload`,
    /// `budgetDay`, `used`, `reloads`, `denied`).
    private func fields(of r: WidgetReloads, entryMs: EpochMs?) -> [String: PlistValue] {
        var d = optionalInts(["entry": entryMs, "nextReload": r.nextReloadMs],
                             ["used": r.budgetUsed, "reloads": r.reloads, "denied": r.denied]).dictionaryValue ?? [:]
        if let day = r.budgetDay { d["budgetDay"] = .string(day.description) }
        return d
    }

    /// Reads what `fields(of:entryMs:)` wrote.
    private static func decodeReloads(_ v: PlistValue) -> WidgetReloads {
        WidgetReloads(nextReloadMs: v["nextReload"]?.intValue, budgetDay: v["budgetDay"]?.stringValue.flatMap(CivilDate.init(iso:)),
                      budgetUsed: Int(v["used"]?.intValue ?? 0), reloads: Int(v["reloads"]?.intValue ?? 0), denied: Int(v["denied"]?.intValue ?? 0))
    }

    /// A dictionary of the present optional times and the counters.
    private func optionalInts(_ optional: [String: EpochMs?], _ counters: [String: Int]) -> PlistValue {
        var d: [String: PlistValue] = [:]
        for (k, v) in optional { if let v { d[k] = .int(v) } }
        for (k, v) in counters { d[k] = .int(Int64(v)) }
        return .dictionary(d)
    }
}

// MARK: - Notifications from their property lists

extension PendingNotification {
    /// Rebuilds a request from `plistValue`'s form; nil when a field is missing or unknown.
    init?(plistValue p: PlistValue) {
        guard let id = p["id"]?.stringValue, let kind = p["kind"]?.stringValue.flatMap(FitnessNotificationKind.init(rawValue:)),
              let title = p["title"]?.stringValue, let body = p["body"]?.stringValue, let fire = p["fire"]?.intValue,
              let t = p["trigger"]
        else { return nil }
        let trigger: NotificationTrigger
        if let at = t["at"]?.intValue {
            trigger = .at(at)
        } else if let c = t["calendar"], let wd = c["weekday"]?.intValue, let h = c["hour"]?.intValue, let m = c["minute"]?.intValue,
                  let r = c["repeats"]?.boolValue {
            trigger = .calendar(WeeklyCalendarTrigger(weekday: Int(wd), hour: Int(h), minute: Int(m), repeats: r))
        } else {
            return nil
        }
        self.init(id: id, kind: kind, title: title, body: body, trigger: trigger, fireMs: fire)
    }
}
