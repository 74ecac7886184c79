import PeerLinkCore
import CountdownDomain
import Testing

@testable import WatchNode

/// The step gauge's reload budget at the node level (default 4 per sliding hour).
@Suite struct WatchAppComplicationTests {
    @Test func aPushSavedOnTheOldZonesPreviousDayIsNotTodayAfterTravelWest() throws {
        // Pushed at 07:00 JST on 1 June (15:00 PDT on 31 May); the watch flies to Los Angeles
        // and lands at 20:00 JST = 04:00 PDT, the same date 1 June.
        let pair = try EnginePair(now: morning)
        pair.connect()
        pair.onPhone("push {\"complication\": {\"todaySteps\": 5000, \"savedAt\": \(morning)}}")
        #expect(pair.watchValue("steps today")?.intValue == 5_000)
        pair.advance(by: 13 * 3_600 * second)
        #expect(pair.watchValue("steps today")?.intValue == 5_000, "still 1 June in Tokyo")
        pair.watch.setCalendar(LocalCalendar(identifier: "America/Los_Angeles")!, now: pair.now)
        pair.pump()
        #expect(pair.watchValue("steps today")?.intValue == 0, "the push belongs to 31 May in Los Angeles")
        #expect(pair.watchValue("complication value")?.intValue == 0)
    }

    @Test func fifthChangeInAnHourIsDeferredToTheBudgetsEdge() throws {
        let store = MemoryStore()
        var watch = try makeWatchEngine(store: store, now: morning)
        #expect(watch.run("app background", at: morning).isOK, "foreground reloads would not count")
        let minute: EpochMs = 60_000
        for i in 1...4 {
            watch.run("steps 100", at: morning + EpochMs(i) * minute)
            #expect(watch.value("complication value", at: morning + EpochMs(i) * minute)?.intValue == Int64(100 * i))
        }
        #expect(watch.value("complication reloads", at: morning + 4 * minute)?.intValue == 4)
        watch.run("steps 100", at: morning + 5 * minute)
        watch.run("steps 100", at: morning + 6 * minute)
        #expect(watch.value("complication value", at: morning + 6 * minute)?.intValue == 400, "the budget is spent")
        #expect(watch.value("complication pending", at: morning + 6 * minute)?.intValue == 600, "the newest value waits")
        #expect(watch.value("rings steps value", at: morning + 6 * minute)?.intValue == 600, "the app itself is current")
        let edge = morning + minute + 60 * minute
        #expect(watch.app.nextDeadline(watch.ctx) == edge, "the first counted reload leaves the window")

        // A crash does not give a fresh budget.
        watch = try makeWatchEngine(store: store, now: morning + 30 * minute, incarnation: 101)
        #expect(watch.value("complication value", at: morning + 30 * minute)?.intValue == 400)
        #expect(watch.value("complication pending", at: morning + 30 * minute)?.intValue == 600)
        #expect(watch.app.nextDeadline(watch.ctx) == edge)

        watch.tick(now: edge - 1)
        #expect(watch.value("complication value", at: edge - 1)?.intValue == 400)
        watch.tick(now: edge)
        #expect(watch.value("complication value", at: edge)?.intValue == 600)
        #expect(watch.value("complication pending", at: edge) == .bool(false))
        #expect(watch.value("complication reloads", at: edge)?.intValue == 4, "never beyond the budget")
        #expect(watch.value("complication total-reloads", at: edge)?.intValue == 6, "the launch render, 4, then the deferred one")
    }

    @Test func foregroundReloadsDoNotCountAndShowADeferredValue() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning, complication: .init(maxReloadsPerWindow: 1, windowMs: 3_600_000))
        watch.run("app background", at: morning)
        watch.run("steps 10", at: morning + 1_000)
        watch.run("steps 10", at: morning + 2_000)
        #expect(watch.value("complication pending", at: morning + 2_000)?.intValue == 20)
        watch.run("app foreground", at: morning + 3_000)
        #expect(watch.value("complication value", at: morning + 3_000)?.intValue == 20)
        watch.run("steps 10", at: morning + 4_000)
        #expect(watch.value("complication value", at: morning + 4_000)?.intValue == 30)
        #expect(watch.value("complication reloads", at: morning + 4_000)?.intValue == 1)
    }

    @Test func unchangedValuesCostNoReload() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        watch.run("app background", at: morning)
        watch.run("steps 0", at: morning + 1_000)
        watch.run("settings step-goal 10000", at: morning + 2_000)
        #expect(watch.value("complication reloads", at: morning + 2_000)?.intValue == 0)
    }
}
