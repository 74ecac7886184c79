/// Durations as commands and scenarios write them: units `ms`, `s`, `m`, `h`, `d`, combined
/// (`1h30m`, `250ms`, `5s`). Pure parsing, shared by the engine's commands and the apps'.
public enum DurationWords {
    /// Parses `text`; nil when malformed, zero, or over `maxMs`. A bare number is refused (the
    /// unit must be explicit).
    public static func parseMs(_ text: String, maxMs: Int64) -> Int64? {
        var total: Int64 = 0
        var number: Int64?
        let chars = Array(text)
        guard !chars.isEmpty else { return nil }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if let d = c.wholeNumberValue, c.isASCII {
                let (times10, o1) = (number ?? 0).multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(Int64(d))
                guard !o1, !o2 else { return nil }
                number = next
                i += 1
                continue
            }
            guard let n = number else { return nil }
            let unit: Int64
            if c == "m", i + 1 < chars.count, chars[i + 1] == "s" {
                unit = 1
                i += 2
            } else {
                switch c {
                case "s": unit = 1_000
                case "m": unit = 60_000
                case "h": unit = 3_600_000
                case "d": unit = 86_400_000
                default: return nil
                }
                i += 1
            }
            let (part, o1) = n.multipliedReportingOverflow(by: unit)
            let (sum, o2) = total.addingReportingOverflow(part)
            guard !o1, !o2 else { return nil }
            total = sum
            number = nil
        }
        guard number == nil, total > 0, total <= maxMs else { return nil }
        return total
    }
}
