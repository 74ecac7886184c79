import PeerLinkCore
import FitnessDomain

/// Locale-independent number and duration formatting for the watch's text renderings.
///
/// Foundation's formatters depend on the machine's locale and ICU version; traces and tests
/// must be byte-identical everywhere, so the few formats the watch needs are written out here.
public enum WatchFormat {
    // MARK: - Numbers

    /// `8432` → `"8,432"`; negative numbers keep their sign.
    public static func grouped(_ n: Int) -> String {
        // Under a thousand there is nothing to group (a heart rate, on every sample).
        if n > -1_000, n < 1_000 { return String(n) }
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return n < 0 ? "-" + out : out
    }

    /// One decimal place, rounded half away from zero: `87.25` → `"87.3"`.
    public static func oneDecimal(_ x: Double) -> String {
        guard x.isFinite else { return "0.0" }
        let tenths = Int64((x * 10).rounded(.toNearestOrAwayFromZero))
        let sign = tenths < 0 ? "-" : ""
        let m = tenths.magnitude
        return "\(sign)\(grouped(Int(m / 10))).\(m % 10)"
    }

    /// A whole number, rounded half away from zero, grouped: `141.6` → `"142"`.
    public static func whole(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        return grouped(Int(x.rounded(.toNearestOrAwayFromZero)))
    }

    /// A fraction as a whole percentage, rounded down so 99.9 % never reads as 100 %:
    /// `0.8432` → `"84%"`, `1.25` → `"125%"`.
    public static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite, fraction > 0 else { return "0%" }
        return "\(Int((fraction * 100).rounded(.down)))%"
    }

    /// `a + b + c + d` in one allocation (the `hr` reply's text, on every sample).
    public static func joined(_ a: String, _ b: String, _ c: String, _ d: String) -> String {
        let count = a.utf8.count + b.utf8.count + c.utf8.count + d.utf8.count
        guard count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: count) { out in
            var p = PointerText.put(a, at: out.baseAddress!)
            p = PointerText.put(b, at: p)
            p = PointerText.put(c, at: p)
            p = PointerText.put(d, at: p)
            return p - out.baseAddress!
        }
    }

    // MARK: - Durations

    /// Elapsed time as a stopwatch shows it: `"MM:SS"` under an hour, `"H:MM:SS"` from one
    /// hour on. Seconds are whole and rounded down (1,999 ms reads `00:01`).
    public static func elapsed(_ elapsedMs: Int64) -> String { FitnessFormat.elapsed(elapsedMs) }
}

// MARK: - Localized names of the shared workout values

extension WorkoutActivityType {
    /// The name the watch shows for this activity (ランニング / Running…).
    public var watchTitle: LocalizedText {
        switch self {
        case .running: L10n.watchActivityRunning
        case .walking: L10n.watchActivityWalking
        case .cycling: L10n.watchActivityCycling
        }
    }
}

extension WorkoutLocation {
    /// The name the watch shows for this location (屋内 / Indoor…).
    public var watchTitle: LocalizedText {
        switch self {
        case .indoor: L10n.watchLocationIndoor
        case .outdoor: L10n.watchLocationOutdoor
        }
    }
}

extension WorkoutSessionState {
    /// The name the watch shows for this session state.
    public var watchTitle: LocalizedText {
        switch self {
        case .notStarted: L10n.watchStateNotStarted
        case .prepared: L10n.watchStatePrepared
        case .running: L10n.watchStateRunning
        case .paused: L10n.watchStatePaused
        case .stopped: L10n.watchStateStopped
        case .ended: L10n.watchStateEnded
        }
    }
}
