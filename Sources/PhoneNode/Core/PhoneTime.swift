import PeerLinkCore

/// Times typed in phone commands: `HH:MM[:SS]` (local wall time on the device's current
/// day), an ISO date-time with an offset (`2026-06-01T07:00:00+09:00`), or epoch ms.
enum PhoneTime {
    /// Milliseconds per minute.
    static let minuteMs: Int64 = 60_000
    /// Milliseconds per day (for moving a wall time back by one day).
    static let dayMs: Int64 = 86_400_000

    /// The instant `word` names at `nowMs` in `calendar`; nil when it is not a time.
    static func instant(_ word: String, nowMs: EpochMs, calendar: LocalCalendar) -> EpochMs? {
        if let wall = wallTime(word) {
            return calendar.instant(calendar.civilDate(nowMs), hour: wall.hour, minute: wall.minute, second: wall.second)
        }
        return ISOInstant.parseOrEpochMs(word)
    }

    /// `HH:MM` or `HH:MM:SS` as numbers; nil for anything else.
    static func wallTime(_ word: String) -> (hour: Int, minute: Int, second: Int)? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
              let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60 else { return nil }
        let s = parts.count == 3 ? Int(parts[2]) : 0
        guard let s, s < 60 else { return nil }
        return (h, m, s)
    }

    /// The interval `[from, to)` of a sample command.
    ///
    /// Rules: `to` defaults to now and `from` to `to − defaultLengthMs`. Wall times are on
    /// today's local date; when a wall-time `from` is not before `to` it is taken on the day
    /// before (so `sleep asleepCore 23:00 07:00` typed in the morning spans the night).
    static func interval(from: String?, to: String?, defaultLengthMs: Int64, nowMs: EpochMs, calendar: LocalCalendar)
        -> Result<(startMs: EpochMs, endMs: EpochMs), PhoneCommandError>
    {
        var endMs = nowMs
        if let to {
            guard let t = instant(to, nowMs: nowMs, calendar: calendar) else { return .failure(.badTime(to)) }
            endMs = t
        }
        var startMs = endMs - defaultLengthMs
        if let from {
            guard let f = instant(from, nowMs: nowMs, calendar: calendar) else { return .failure(.badTime(from)) }
            startMs = f
            if startMs >= endMs, wallTime(from) != nil {
                let back = calendar.civilDate(f).adding(days: -1)
                let w = wallTime(from)!
                startMs = calendar.instant(back, hour: w.hour, minute: w.minute, second: w.second)
            }
        }
        guard startMs < endMs else { return .failure(.emptyInterval) }
        return .success((startMs, endMs))
    }

    /// `HH:MM:SS` local, for replies.
    static func clock(_ ms: EpochMs, _ calendar: LocalCalendar) -> String {
        let t = calendar.timeOfDay(ms)
        return two(t.hour) + ":" + two(t.minute) + ":" + two(t.second)
    }

    /// `YYYY-MM-DD HH:MM[:SS]` local (seconds only when not 0): the form the node's log has
    /// always used; kept for the log lines until the log's own times change.
    static func logDateTime(_ ms: EpochMs, _ calendar: LocalCalendar) -> String {
        let t = calendar.timeOfDay(ms)
        return "\(calendar.civilDate(ms)) \(two(t.hour)):\(two(t.minute))" + (t.second == 0 ? "" : ":\(two(t.second))")
    }

    /// `YYYY-MM-DD HH:MM:SS` local, for texts.
    static func dateTime(_ ms: EpochMs, _ calendar: LocalCalendar) -> String {
        calendar.dateTimeText(ms)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// A phone command that could not be carried out; its message says why.
enum PhoneCommandError: Error, Equatable {
    case usage(String)
    case badTime(String)
    case emptyInterval
    case outOfRange(LocalizedText)

    /// Why, in `language`.
    func message(_ language: AppLanguage) -> String {
        switch self {
        case .usage(let u): L10n.usage(u)(language)
        case .badTime(let w): L10n.phoneBadTime(w)(language)
        case .emptyInterval: L10n.phoneEmptyInterval(language)
        case .outOfRange(let m): m(language)
        }
    }
}
