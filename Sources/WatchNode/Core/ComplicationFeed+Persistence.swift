import PeerLinkCore
import CountdownDomain

/// The feed's durable form, so a restarted watch app neither forgets what the face shows nor
/// gets a fresh reload budget (a crash loop must not reload the complication without bound).
///
/// Layout: `["reloads": [int ms], "total": int, "latest": [steps, goal], "shown": [ms, steps, goal]?,
/// "pending": [steps, goal]?]`. Only the displayed entry of the timeline is kept.
extension ComplicationFeed {
    // MARK: - Encoding

    /// The feed as a property list.
    public func plistValue() -> PlistValue {
        var d: [String: PlistValue] = [
            "reloads": .array(countedReloadsMs.map { .int($0) }), "total": .int(Int64(totalReloads)),
            "latest": Self.pair(latest),
        ]
        if let entry = timeline.last {
            d["shown"] = [.int(entry.dateMs), .int(Int64(entry.gauge.steps)), .int(Int64(entry.gauge.stepGoal))]
        }
        if let pending { d["pending"] = Self.pair(pending) }
        return .dictionary(d)
    }

    /// Restores a feed written by `plistValue()` under `settings`; nil when malformed. Counted
    /// reloads beyond the budget (a smaller budget setting than before) keep only the newest.
    public init?(restoring value: PlistValue, settings: Settings = .defaults) {
        guard let reloads = value["reloads"]?.int64ArrayValue, let total = value["total"]?.intValue,
              let latest = Self.gauge(value["latest"])
        else { return nil }
        self.init(stepGoal: latest.stepGoal, settings: settings)
        self.latest = latest
        countedReloadsMs = Array(reloads.sorted().suffix(settings.maxReloadsPerWindow))
        totalReloads = Int(clamping: max(0, total))
        if let shown = value["shown"]?.arrayValue {
            guard shown.count == 3, let at = shown[0].intValue, let g = Self.gauge(.array(Array(shown[1...]))) else { return nil }
            timeline = [ComplicationEntry(dateMs: at, gauge: g)]
        }
        if let p = value["pending"] {
            guard let g = Self.gauge(p) else { return nil }
            pending = g
        }
    }

    // MARK: - Helpers

    static func pair(_ g: ComplicationGauge) -> PlistValue { [.int(Int64(g.steps)), .int(Int64(g.stepGoal))] }

    static func gauge(_ v: PlistValue?) -> ComplicationGauge? {
        guard let a = v?.arrayValue, a.count == 2, let steps = a[0].intValue, let goal = a[1].intValue,
              steps >= 0, steps <= Int64(Int32.max), goal >= 0, goal <= Int64(Int32.max)
        else { return nil }
        return ComplicationGauge(steps: Int(steps), stepGoal: Int(goal))
    }
}
