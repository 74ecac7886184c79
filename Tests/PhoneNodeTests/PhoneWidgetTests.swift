import PeerLinkCore
import FitnessDomain
import CountdownDomain
import PhoneNode
import Testing

@Suite("Phone widgets")
struct PhoneWidgetTests {
    typealias F = PhoneFixture
    static let tokyo = "Asia/Tokyo"

    @Test func reloadBudgetGrantsTheSeventySecondAndDeniesTheSeventyThird() throws {
        // Installed at midnight, in the background: a timeline every 15 minutes, each counted.
        let p = try PhoneHarness(start: F.local(Self.tokyo, 2026, 6, 1, 0))
        let day = F.day(2026, 6, 1)
        p.advance(to: day, 17, 30)
        #expect(p.q("widget reloads")?.int == 71)
        p.advance(to: day, 17, 45)
        #expect(p.q("widget reloads")?.int == 72)
        #expect(p.q("widget budget remaining")?.int == 0)
        #expect(p.q("widget denied")?.int == 0)
        p.advance(to: day, 18, 0)
        #expect(p.q("widget denied")?.int == 1)
        #expect(p.q("widget reloads")?.int == 72)
        #expect(p.q("widget small date")?.intValue == F.local(Self.tokyo, 2026, 6, 1, 17, 45))
        #expect(p.q("widget next")?.intValue == F.local(Self.tokyo, 2026, 6, 2, 0))
        p.advance(to: day, 23, 59)
        #expect(p.q("widget denied")?.int == 1)
        // After local midnight the budget is fresh.
        p.advance(to: F.day(2026, 6, 2), 0, 0)
        #expect(p.q("widget reloads")?.int == 73)
        #expect(p.q("widget budget used")?.int == 1)
    }

    @Test func theObserverAndTheWidgetTimerDoNotWaitForAClockBumpOnceItIsCorrected() throws {
        let day = F.day(2026, 6, 1)
        let p = try PhoneHarness(start: F.local(Self.tokyo, 2026, 6, 1, 8))
        p.ok("authorize grant all")
        p.ok("steps 100")
        #expect(p.q("observer deliveries")?.int == 1)
        p.jumpClock(by: 2 * 3_600_000)  // 10:00: an hour since the last delivery has passed
        p.ok("steps 100")
        #expect(p.q("observer deliveries")?.int == 2)
        p.jumpClock(by: -2 * 3_600_000 + 5 * 60_000)  // corrected: 08:05
        #expect(try #require(p.q("widget next")?.intValue) <= F.local(Self.tokyo, 2026, 6, 1, 8, 20), "15 minutes from now, not 10:15")
        p.ok("steps 100")
        p.advance(to: day, 9, 6)
        #expect(p.q("observer deliveries")?.int == 3, "an hour from the correction, not 11:00")
        #expect(p.q("widget small steps")?.int == 300)
    }

    @Test func theFitnessWidgetShowsNoStepsFromMidnightNotTheEndedDaysUntilItsNextReload() throws {
        let p = try PhoneHarness(start: F.local(Self.tokyo, 2026, 6, 1, 23, 37))
        p.ok("authorize grant all")
        p.ok("app foreground")
        p.ok("steps 5000 --from 23:00 --to 23:37")
        p.ok("app background")
        p.advance(to: F.day(2026, 6, 1), 23, 55)
        #expect(p.q("widget small steps")?.int == 5_000)
        p.advance(to: F.local(Self.tokyo, 2026, 6, 2, 0) + 30_000)
        #expect(p.q("widget small steps") == "—" && p.q("widget medium steps") == "—")
        #expect(p.q("widget small date")?.intValue == F.local(Self.tokyo, 2026, 6, 2, 0), "the timeline's midnight entry")
        #expect(try #require(p.q("widget next")?.intValue) > F.local(Self.tokyo, 2026, 6, 2, 0), "no reload since 23:52")
    }

    @Test func reloadsInTheForegroundAreFree() throws {
        let p = try PhoneHarness(start: F.local(Self.tokyo, 2026, 6, 1, 0))
        p.advance(to: F.day(2026, 6, 1), 18, 0)
        #expect(p.q("widget denied")?.int == 1)
        p.advance(to: F.day(2026, 6, 1), 18, 30)
        p.ok("app foreground")
        #expect(p.q("widget reloads")?.int == 73)
        p.advance(to: F.day(2026, 6, 1), 18, 45)
        #expect(p.q("widget reloads")?.int == 74)
        #expect(p.q("widget budget used")?.int == 72)
        p.ok("app background")
        p.advance(to: F.day(2026, 6, 1), 19, 0)
        #expect(p.q("widget denied")?.int == 2)
        #expect(p.q("widget reloads")?.int == 74)
    }

    @Test func widgetsShowTheAppGroupWithTheDeepLink() throws {
        let p = try PhoneHarness(start: F.local(Self.tokyo, 2026, 6, 1, 9), language: .en)
        p.ok("app foreground")
        p.ok("authorize grant all")
        #expect(p.q("widget small steps") == "—")
        p.ok("steps 8432 --from 07:00 --to 09:00")
        p.ok("hr 71.6")
        #expect(p.q("widget small steps")?.int == 8_432)
        #expect(p.q("widget small ring")?.doubleValue == 0.8432)
        #expect(p.q("widget small url") == "fitness://dashboard")
        #expect(p.q("widget medium kcal") == "—")
        #expect(p.q("widget medium hr")?.doubleValue == 71.6)
        let text = p.ok("show widgets").text
        #expect(text.contains("[small] Today's steps 8,432 steps (84%)"))
        #expect(text.contains("[medium] Steps 8,432 steps | Active calories — | Heart rate 72 bpm"))
        #expect(p.ok("show widgets").value["policy"] == ["policy": "after", "at": .int(p.now + 15 * F.minuteMs)])
    }

    @Test func yesterdaysAppGroupShowsNoStepsAfterMidnight() throws {
        let p = try PhoneHarness(start: F.local(Self.tokyo, 2026, 6, 1, 23))
        p.ok("authorize grant all")
        p.ok("steps 900 --from 22:50 --to 23:00")
        #expect(p.q("widget small steps")?.int == 900)
        p.advance(to: F.day(2026, 6, 2), 0, 15)
        #expect(p.q("widget small steps") == "—")
        #expect(p.q("widget small goal")?.int == 10_000)
    }

    @Test func afterTravelWestTheWidgetsShowTheNewZonesDayNotTheOldOnes() throws {
        let p = try PhoneHarness(start: F.local(Self.tokyo, 2026, 6, 10, 6))
        p.ok("authorize grant all")
        p.advance(to: F.day(2026, 6, 10), 7, 0)
        p.ok("steps 5000 --from 06:00 --to 07:00")  // 9 June 14:00–15:00 in Los Angeles
        p.advance(to: F.day(2026, 6, 10), 17, 0)
        p.ok("steps 1000 --from 16:30 --to 17:00")  // 10 June 00:30–01:00 in Los Angeles
        p.advance(to: F.day(2026, 6, 10), 17, 1)
        #expect(p.q("widget small steps")?.int == 6_000)
        // Land at 20:00 JST = 04:00 PDT, the same date: the App Group still holds the Tokyo day.
        p.advance(to: F.day(2026, 6, 10), 20, 0)
        try p.setZone("America/Los_Angeles")
        #expect(p.q("steps today")?.int == 1_000)
        #expect(p.q("widget small steps")?.int == 1_000)
        #expect(p.q("widget medium steps")?.int == 1_000)
        // A snapshot of the Tokyo day is not today's in Los Angeles, though its date is today's.
        let la = try #require(LocalCalendar(identifier: "America/Los_Angeles"))
        let tokyoDay = FitnessWidgetSnapshot.make(
            samples: [], settings: .defaults, authorization: HealthAuthorization(statuses: [:]), nowMs: F.local(Self.tokyo, 2026, 6, 10, 17),
            calendar: try #require(LocalCalendar(identifier: Self.tokyo)))
        #expect(!tokyoDay.isForToday(nowMs: p.now, calendar: la))
        #expect(tokyoDay.isForToday(nowMs: F.local(Self.tokyo, 2026, 6, 10, 20), calendar: try #require(LocalCalendar(identifier: Self.tokyo))))
        #expect(FitnessWidgetSnapshot(plistValue: tokyoDay.plistValue) == tokyoDay, "the day's bounds are kept in the App Group")
        let pushed = PhoneEffect.pushComplication(tokyoDay, stepGoalStamp: nil).payload["complication"]
        #expect(pushed?["dayStart"] == nil && pushed?["dayEnd"] == nil, "the watch's payload is unchanged")
        #expect(pushed?["savedAt"] != nil)
    }

    @Test func widgetStateSurvivesARestart() throws {
        let p = try PhoneHarness(start: F.local(Self.tokyo, 2026, 6, 1, 0))
        p.advance(to: F.day(2026, 6, 1), 18, 0)
        try p.restart()
        #expect(p.q("widget reloads")?.int == 72)
        #expect(p.q("widget denied")?.int == 1)
        #expect(p.q("widget budget remaining")?.int == 0)
        p.advance(to: F.day(2026, 6, 1), 20, 0)
        #expect(p.q("widget denied")?.int == 1)
    }
}
