import PeerLinkCore
import PhoneNode
import Testing

@Suite("Phone notifications")
struct PhoneNotificationTests {
    typealias F = PhoneFixture

    @Test func weeklySummaryFiresMondayNineAcrossTheBerlinSpringForwardWeek() throws {
        let nodes = try LinkedNodes(start: F.local("Europe/Berlin", 2026, 3, 22, 20), zone: "Europe/Berlin")
        nodes.connect()
        nodes.phoneRun("authorize grant all")
        // The week 2026-03-23 00:00 CET … 2026-03-30 00:00 CEST (167 hours).
        nodes.phoneRun("steps 700 --from 2026-03-22T23:40:00+01:00 --to 2026-03-22T23:50:00+01:00")  // Sunday before: out
        nodes.phoneRun("steps 1000 --from 2026-03-23T00:30:00+01:00 --to 2026-03-23T00:40:00+01:00")  // first hour: in
        nodes.phoneRun("steps 2000 --from 2026-03-29T23:30:00+02:00 --to 2026-03-29T23:40:00+02:00")  // last hour, after the jump: in
        nodes.phoneRun("steps 500 --from 2026-03-30T00:10:00+02:00 --to 2026-03-30T00:20:00+02:00")  // next Monday: out
        nodes.phoneRun("hr 60 --at 2026-03-24T12:00:00+01:00")
        nodes.phoneRun("hr 80 --at 2026-03-29T12:00:00+02:00")
        nodes.watchRun("workout w-1 ended \(F.local("Europe/Berlin", 2026, 3, 28, 8))")
        nodes.disconnect()
        let p = nodes.phone
        // The first Monday (still CET) fires at 08:00 UTC, the second (CEST) at 07:00 UTC: 09:00 local both times.
        p.advance(to: F.utc(2026, 3, 23, 8) - 1)
        #expect(p.q("notifications delivered count")?.int == 0)
        p.advance(to: F.utc(2026, 3, 23, 8))
        #expect(p.q("notification last fire")?.intValue == F.utc(2026, 3, 23, 8))
        #expect(p.q("notification weekly fire")?.intValue == F.utc(2026, 3, 30, 7))
        p.advance(to: F.utc(2026, 3, 30, 7))
        #expect(p.q("notifications delivered count")?.int == 2)
        #expect(p.q("notification last fire")?.intValue == F.utc(2026, 3, 30, 7))
        #expect(p.q("notification last delivered")?.intValue == F.utc(2026, 3, 30, 7))
        #expect(p.q("notification last title") == "先週の運動サマリー")
        #expect(p.q("notification last body") == "合計歩数 3,000歩、平均心拍数 70 bpm、ワークアウト回数 1回")
        #expect(p.q("notifications pending count")?.int == 1)
    }

    @Test func weeklySummaryFollowsAFlightFromTokyoToLosAngeles() throws {
        let p = try PhoneHarness(start: F.utc(2026, 6, 7, 1), zone: "Asia/Tokyo", language: .en)  // Sunday 10:00 JST
        p.ok("authorize grant all")
        #expect(p.q("notification weekly fire")?.intValue == F.utc(2026, 6, 8, 0))  // Monday 09:00 JST
        // In the Tokyo week only / in the Los Angeles week only.
        p.ok("steps 1000 --from 2026-06-01T03:00:00Z --to 2026-06-01T03:10:00Z")
        p.ok("steps 2500 --from 2026-06-08T05:00:00Z --to 2026-06-08T05:10:00Z")
        // Depart Sunday 17:00 JST, land Sunday 11:00 PDT: the shell's `tz` changes the zone.
        p.advance(to: F.utc(2026, 6, 7, 18))
        try p.setZone("America/Los_Angeles")
        #expect(p.q("notification weekly fire")?.intValue == F.utc(2026, 6, 8, 16))  // Monday 09:00 PDT
        p.advance(to: F.utc(2026, 6, 8, 16) - 1)
        #expect(p.q("notifications delivered count")?.int == 0)
        p.advance(to: F.utc(2026, 6, 8, 16))
        #expect(p.q("notifications delivered count")?.int == 1)
        #expect(p.q("notification last fire")?.intValue == F.utc(2026, 6, 8, 16))
        #expect(p.q("notification last body") == "Steps: 2,500 · Average heart rate: — · Workouts: 0")
        #expect(p.q("notification weekly fire")?.intValue == F.utc(2026, 6, 15, 16))
    }

    @Test func settingsTogglesRemoveAndRestoreTheWeeklySummary() throws {
        let p = try PhoneHarness(start: F.local("Asia/Tokyo", 2026, 6, 3, 12))
        #expect(p.q("notifications pending count")?.int == 1)
        p.ok("settings weekly-summary off")
        #expect(p.q("notifications pending count")?.int == 0)
        p.ok("settings weekly-summary on")
        p.ok("settings notifications off")
        #expect(p.q("notification weekly") == "none")
        p.advance(to: F.local("Asia/Tokyo", 2026, 6, 8, 10))
        #expect(p.q("notifications delivered count")?.int == 0)
        p.ok("settings notifications on")
        #expect(p.q("notification weekly fire")?.intValue == F.local("Asia/Tokyo", 2026, 6, 15, 9))
    }

    @Test func runDetectionDoesNotFireWhileDriving() throws {
        let p = try PhoneHarness(start: F.local("Asia/Tokyo", 2026, 6, 1, 7))
        for minute in 0..<6 {
            p.ok("motion running+automotive high --at 07:0\(minute)")
        }
        p.ok("motion automotive high --at 07:06")
        p.ok("motion running low --at 07:07")
        p.ok("motion running low --at 07:08")
        p.ok("motion running low --at 07:09")
        #expect(p.q("notifications delivered count")?.int == 0)
        #expect(!p.run("motion running high --at 07:05").isOK)  // older than the last sample
    }

    @Test func acceptingTheRunPromptAsksTheWatchToStartFromTheRunStart() throws {
        let p = try PhoneHarness(start: F.local("Asia/Tokyo", 2026, 6, 1, 7, 3))
        p.ok("motion walking high --at 06:59")
        p.ok("motion running medium --at 07:00")
        p.ok("motion running high --at 07:01")
        #expect(p.q("notifications delivered count")?.int == 0)
        p.ok("motion running high --at 07:02")
        #expect(p.q("notifications delivered count")?.int == 1)
        #expect(p.q("notification last title") == "ワークアウトを開始しますか？")
        #expect(p.q("notification last runStart")?.intValue == F.local("Asia/Tokyo", 2026, 6, 1, 7))
        p.ok("motion running high --at 07:03")  // the same run: no second prompt
        #expect(p.q("notifications delivered count")?.int == 1)
        try p.restart()
        let reply = p.ok("notification respond fitness.runDetected accept")
        #expect(reply.value["effect"] == ["startWorkout": ["activity": "running", "startMs": .int(F.local("Asia/Tokyo", 2026, 6, 1, 7))]])
        #expect(p.q("effect last kind") == "startWorkout")
        #expect(p.q("effect last startMs")?.intValue == F.local("Asia/Tokyo", 2026, 6, 1, 7))
        #expect(p.q("notification last response") == "accept")
        #expect(!p.run("notification respond fitness.runDetected accept").isOK)
    }

    @Test func runPromptRespectsSettingsAndARunningWorkout() throws {
        let p = try PhoneHarness(start: F.local("Asia/Tokyo", 2026, 6, 1, 7, 10))
        p.ok("settings run-detection off")
        for m in 0..<3 { p.ok("motion running high --at 06:5\(m)") }
        #expect(p.q("notifications delivered count")?.int == 0)
        #expect(p.q("notifications suppressed")?.int == 1)
        p.ok("settings run-detection on")
        p.ok("motion stationary high --at 06:55")
        p.ok("live running --hr 140")
        for m in 6..<9 { p.ok("motion running high --at 06:5\(m)") }
        #expect(p.q("notifications delivered count")?.int == 0)
        p.ok("live ended")
        p.ok("motion stationary high --at 06:59")
        for m in 0..<3 { p.ok("motion running high --at 07:0\(m)") }
        #expect(p.q("notifications delivered count")?.int == 1)
        p.ok("notification respond last dismiss")
        #expect(p.q("effects count")?.int == 0)
    }
}
