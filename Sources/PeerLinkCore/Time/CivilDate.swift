import Foundation

/// A calendar day (proleptic Gregorian) with no time and no time zone.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`; nil when malformed or not a real day.
    public init?(iso: String) {
        let parts = iso.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...CivilDate.daysIn(year: y, month: m)).contains(d)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// `YYYY-MM-DD`, as `String(format: "%04d-%02d-%02d")` writes it (written by hand: the
    /// formatter was a tenth of a simulated workout's time).
    public var description: String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(10)
        Self.appendPadded(year, width: 4, to: &utf8)
        utf8.append(UInt8(ascii: "-"))
        Self.appendPadded(month, width: 2, to: &utf8)
        utf8.append(UInt8(ascii: "-"))
        Self.appendPadded(day, width: 2, to: &utf8)
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Appends `n` in decimal, zero-padded to `width` characters like printf's `%0Nd` (a minus
    /// sign counts toward the width and comes before the zeros).
    static func appendPadded(_ n: Int, width: Int, to out: inout [UInt8]) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        var digitCount = 1
        var rest = n.magnitude / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        for _ in 0..<max(0, width - (n < 0 ? 1 : 0) - digitCount) { out.append(UInt8(ascii: "0")) }
        let first = out.count
        var m = n.magnitude
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(m % 10))
            m /= 10
        } while m > 0
        out[first...].reverse()
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (negative before), by Howard Hinnant's `days_from_civil`.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(to other: CivilDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    /// The day `n` days later.
    public func adding(days n: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + n) }

    /// ISO weekday: 1 Monday … 7 Sunday.
    public var isoWeekday: Int {
        let w = (daysSinceEpoch % 7 + 7 + 3) % 7  // 1970-01-01 was a Thursday (ISO 4).
        return w + 1
    }
}

/// Converts instants to local days and back in one time zone, with Foundation's Gregorian
/// calendar (so DST and historical offsets come from the system's tz database).
public struct LocalCalendar: Sendable {
    public let timeZone: TimeZone
    private let calendar: Calendar

    /// Nil for an unknown zone identifier.
    public init?(identifier: String) {
        guard let tz = TimeZone(identifier: identifier) else { return nil }
        self.init(timeZone: tz)
    }

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        c.firstWeekday = 2
        calendar = c
    }

    /// The local day that contains `ms`.
    public func civilDate(_ ms: EpochMs) -> CivilDate {
        let c = calendar.dateComponents([.year, .month, .day], from: Date(epochMs: ms))
        return CivilDate(year: c.year!, month: c.month!, day: c.day!)
    }

    /// Local hour, minute and second of `ms`.
    public func timeOfDay(_ ms: EpochMs) -> (hour: Int, minute: Int, second: Int) {
        let c = calendar.dateComponents([.hour, .minute, .second], from: Date(epochMs: ms))
        return (c.hour!, c.minute!, c.second!)
    }

    /// The instant of local wall time `hour:minute` on `day`. A time skipped by a DST jump
    /// resolves to the first valid instant after it; a repeated time to its first occurrence.
    public func instant(_ day: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) -> EpochMs {
        var dc = DateComponents()
        dc.year = day.year; dc.month = day.month; dc.day = day.day
        dc.hour = hour; dc.minute = minute; dc.second = second
        if let d = calendar.date(from: dc) {
            // Foundation may land on a shifted hour inside a DST gap; keep its answer only
            // when it is the requested local day.
            if civilDate(d.epochMs) == day { return d.epochMs }
        }
        // Fallback: the next valid instant after the gap.
        dc.hour = hour + 1; dc.minute = 0; dc.second = 0
        return calendar.date(from: dc)!.epochMs
    }

    /// Local midnight at the start of the day that contains `ms`.
    public func startOfDay(_ ms: EpochMs) -> EpochMs { calendar.startOfDay(for: Date(epochMs: ms)).epochMs }

    /// Local midnight at the start of `day`.
    public func startOfDay(_ day: CivilDate) -> EpochMs { startOfDay(instant(day, hour: 12)) }
}

/// The local day around an instant and the instant it ends, remembered so that code asking
/// "which day is it, when does it end?" many times a day (timers, deadlines) does the
/// calendar arithmetic once a day instead of on every question.
public struct LocalDayWindow: Sendable, Equatable {
    /// The time zone it was computed in.
    public let zoneIdentifier: String
    /// The local day that contains `fromMs`.
    public let day: CivilDate
    /// The instant it was computed at (in `day`).
    public let fromMs: EpochMs
    /// The next local midnight: `CountdownCalendar.nextLocalMidnight(after: fromMs, calendar:)`.
    public let nextMidnightMs: EpochMs

    /// The day that contains `ms` in `calendar`, and its end.
    public init(at ms: EpochMs, calendar: LocalCalendar) {
        zoneIdentifier = calendar.timeZone.identifier
        day = calendar.civilDate(ms)
        fromMs = ms
        nextMidnightMs = calendar.startOfDay(day.adding(days: 1))
    }

    /// True when `ms` lies in the same local day of the same time zone, from `fromMs` on
    /// (so `day` and `nextMidnightMs` are its answers too).
    public func contains(_ ms: EpochMs, calendar: LocalCalendar) -> Bool {
        ms >= fromMs && ms < nextMidnightMs && calendar.timeZone.identifier == zoneIdentifier
    }

    /// This window when it contains `ms`, else the window computed at `ms`.
    public func refreshed(at ms: EpochMs, calendar: LocalCalendar) -> LocalDayWindow {
        contains(ms, calendar: calendar) ? self : LocalDayWindow(at: ms, calendar: calendar)
    }
}

extension Optional where Wrapped == LocalDayWindow {
    /// The window that contains `ms`: this one while it still holds, else a new one, which
    /// replaces it.
    public mutating func refresh(at ms: EpochMs, calendar: LocalCalendar) -> LocalDayWindow {
        let w = self?.refreshed(at: ms, calendar: calendar) ?? LocalDayWindow(at: ms, calendar: calendar)
        self = w
        return w
    }
}

extension Date {
    /// The date `ms` milliseconds after 1970.
    public init(epochMs ms: EpochMs) { self.init(timeIntervalSince1970: Double(ms) / 1000) }
    /// Milliseconds since 1970, rounded down.
    public var epochMs: EpochMs { EpochMs((timeIntervalSince1970 * 1000).rounded(.down)) }
}
