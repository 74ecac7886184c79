import Foundation
import Testing
@testable import PeerLinkCore
@testable import CountdownDomain

/// The remembered local day must answer exactly what the calendar would, and notice when the
/// day, the zone or the clock direction makes it stale.
@Suite("Local day window and civil date text")
struct LocalDayWindowTests {
    static func calendar(_ zone: String) -> LocalCalendar { LocalCalendar(timeZone: TimeZone(identifier: zone)!) }

    @Test(arguments: ["Asia/Tokyo", "Europe/Berlin", "America/New_York"])
    func agreesWithTheCalendarEveryQuarterHourAcrossDSTChanges(zone: String) {
        let cal = Self.calendar(zone)
        // 2026-03-07 … 2026-03-31 covers the US (8 March) and EU (29 March) DST starts.
        let start = cal.instant(CivilDate(year: 2026, month: 3, day: 7), hour: 0)
        var window: LocalDayWindow?
        var ms = start
        while ms < start + 25 * 86_400_000 {
            let w = window?.refreshed(at: ms, calendar: cal) ?? LocalDayWindow(at: ms, calendar: cal)
            #expect(w.day == cal.civilDate(ms), "\(zone) at \(ms)")
            #expect(w.nextMidnightMs == CountdownCalendar.nextLocalMidnight(after: ms, calendar: cal), "\(zone) at \(ms)")
            window = w
            ms += 15 * 60_000
        }
    }

    @Test func aZoneChangeOrAClockGoingBackIsNotContained() {
        let tokyo = Self.calendar("Asia/Tokyo")
        let ms = tokyo.instant(CivilDate(year: 2026, month: 11, day: 29), hour: 10)
        let w = LocalDayWindow(at: ms, calendar: tokyo)
        #expect(w.contains(ms + 60_000, calendar: tokyo))
        #expect(!w.contains(ms + 60_000, calendar: Self.calendar("Europe/Berlin")))
        #expect(!w.contains(ms - 1, calendar: tokyo))
        #expect(!w.contains(w.nextMidnightMs, calendar: tokyo))
    }

    @Test(arguments: [(2026, 3, 7), (1, 1, 1), (999, 12, 31), (10_000, 1, 2), (-5, 6, 7)])
    func descriptionMatchesPrintf(year: Int, month: Int, day: Int) {
        let d = CivilDate(year: year, month: month, day: day)
        #expect(d.description == String(format: "%04d-%02d-%02d", year, month, day))
    }
}
