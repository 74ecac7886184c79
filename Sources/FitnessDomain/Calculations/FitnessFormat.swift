import PeerLinkCore

/// Locale-free number formatting for the fitness texts, CSV and widgets: the same output on
/// every machine (no `NumberFormatter`, no `String(format:)` locale surprises).
public enum FitnessFormat {
    /// Decimal places for kcal in texts and the CSV.
    public static let kcalDecimals = 1
    /// Decimal places for sleep hours in the CSV.
    public static let sleepHoursDecimals = 2

    /// `n` with a comma every three digits: 52340 → "52,340", -1200 → "-1,200".
    public static func grouped(_ n: Int) -> String { NumberText.grouped(n) }

    /// `value` rounded half away from zero to `decimals` places, with exactly that many
    /// places: (342.46, 1) → "342.5", (7.5, 2) → "7.50", (2, 0) → "2".
    public static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<max(decimals, 0) { scale *= 10 }
        // Correct the binary error of the product (e.g. 1.005 × 100 = 100.49999…) before rounding.
        let scaled = (value * scale * 1e9).rounded() / 1e9
        let units = Int64(scaled.rounded(.toNearestOrAwayFromZero))
        let negative = units < 0
        let magnitude = units.magnitude
        let divisor = UInt64(scale)
        var text = String(magnitude / divisor)
        if decimals > 0 {
            let fraction = String(magnitude % divisor)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return negative && magnitude != 0 ? "-" + text : text
    }

    /// Rounds a count (steps) half away from zero.
    public static func roundedCount(_ value: Double) -> Int { Int(value.rounded(.toNearestOrAwayFromZero)) }

    /// Elapsed time as a stopwatch shows it: `"MM:SS"` under an hour, `"H:MM:SS"` from one
    /// hour on; whole seconds, rounded down (1,999 ms reads `00:01`). The phone and the watch
    /// show a workout's time the same way.
    public static func elapsed(_ elapsedMs: Int64) -> String {
        let totalSeconds = max(0, elapsedMs) / 1000
        let h = totalSeconds / 3600, m = (totalSeconds % 3600) / 60, s = totalSeconds % 60
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(two(m)):\(two(s))"
    }

    // MARK: - Values with units, or the placeholder

    /// "8,432歩" / "8,432 steps", or "—".
    public static func steps(_ steps: Int?) -> LocalizedText {
        guard let steps else { return L10n.fitnessPlaceholder }
        return L10n.fitnessStepsValue(grouped(steps), count: steps)
    }

    /// "342.5 kcal", or "—".
    public static func kcal(_ kcal: Double?) -> String {
        guard let kcal else { return L10n.fitnessPlaceholder.ja }
        return fixed(kcal, decimals: kcalDecimals) + " kcal"
    }

    /// "72 bpm" (rounded to a whole beat), or "—".
    public static func bpm(_ bpm: Double?) -> String {
        guard let bpm else { return L10n.fitnessPlaceholder.ja }
        return String(roundedCount(bpm)) + " bpm"
    }

    /// "84%" of a fraction (0.843 → "84%"), or "—".
    public static func percent(_ fraction: Double?) -> String {
        guard let fraction else { return L10n.fitnessPlaceholder.ja }
        return String(roundedCount(fraction * 100)) + "%"
    }
}
