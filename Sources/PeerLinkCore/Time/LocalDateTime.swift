import Foundation

/// Instants as a person reads them: local date-times in a time zone, and offsets from a start.
/// (Epoch milliseconds stay in JSON; they are never shown to a person.)
extension LocalCalendar {
    /// `2026-06-01 07:31:05` in this calendar's zone; `withMillis` adds `.123`, `withZone`
    /// adds the zone's offset at that instant (` +09:00`).
    public func dateTimeText(_ ms: EpochMs, withMillis: Bool = false, withZone: Bool = false) -> String {
        let (h, m, s) = timeOfDay(ms)
        var out = Array(civilDate(ms).description.utf8)
        out.append(UInt8(ascii: " "))
        CivilDate.appendPadded(h, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        CivilDate.appendPadded(m, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        CivilDate.appendPadded(s, width: 2, to: &out)
        if withMillis {
            out.append(UInt8(ascii: "."))
            CivilDate.appendPadded(Int((ms % 1000 + 1000) % 1000), width: 3, to: &out)
        }
        if withZone {
            out.append(UInt8(ascii: " "))
            out += Array(Self.offsetText(seconds: timeZone.secondsFromGMT(for: Date(epochMs: ms))).utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `+09:00`, `-07:00`, `+05:45`.
    static func offsetText(seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        var out: [UInt8] = [UInt8(ascii: seconds < 0 ? "-" : "+")]
        CivilDate.appendPadded(minutes / 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        CivilDate.appendPadded(minutes % 60, width: 2, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Durations between instants as a person reads them.
public enum ElapsedText {
    /// The offset of `ms` from `startMs`: `+0s`, `+31m05s`, `+2h03m00s`, `+1d02h00m00s`, or
    /// `-5m00s` before the start. Milliseconds are dropped (rounded down).
    public static func offset(_ ms: EpochMs, from startMs: EpochMs) -> String {
        let d = ms - startMs
        let sign = d < 0 ? "-" : "+"
        var s = abs(d) / 1000
        let days = s / 86_400; s %= 86_400
        let hours = s / 3600; s %= 3600
        let minutes = s / 60; s %= 60
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if days > 0 { return "\(sign)\(days)d\(two(hours))h\(two(minutes))m\(two(s))s" }
        if hours > 0 { return "\(sign)\(hours)h\(two(minutes))m\(two(s))s" }
        if minutes > 0 { return "\(sign)\(minutes)m\(two(s))s" }
        return "\(sign)\(s)s"
    }
}
