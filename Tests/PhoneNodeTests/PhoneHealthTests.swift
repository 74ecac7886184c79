import PeerLinkCore
import FitnessDomain
import PhoneNode
import Testing

@Suite("Phone health store")
struct PhoneHealthTests {
    static let tokyo = "Asia/Tokyo"

    @Test func overlappingPhoneAndWatchStepsAreNotAddedTogether() throws {
        let p = try PhoneHarness(start: PhoneFixture.local(Self.tokyo, 2026, 6, 1, 12))
        p.ok("authorize grant all")
        p.ok("steps 1000 --from 08:00 --to 08:10 --source watch")
        p.ok("steps 600 --from 08:05 --to 08:15")
        // The watch fills 08:00–08:10; the phone only its gap 08:10–08:15: 1,000 + 600 × 5/10.
        #expect(p.q("steps today")?.int == 1_300)
        #expect(p.q("steps 2026-06-01")?.int == 1_300)
        #expect(p.q("samples count steps")?.int == 2)
        #expect(p.q("dashboard steps")?.int == 1_300)
    }

    @Test func watchStepsArrivingBySyncMergeOnceAndDeduplicate() throws {
        let nodes = try LinkedNodes(start: PhoneFixture.local(Self.tokyo, 2026, 6, 1, 12))
        nodes.connect()
        nodes.phoneRun("authorize grant all")
        nodes.phoneRun("steps 600 --from 08:05 --to 08:15")
        let start = PhoneFixture.local(Self.tokyo, 2026, 6, 1, 8)
        nodes.watchRun("sample steps 1000 \(start) \(start + 10 * PhoneFixture.minuteMs)")
        #expect(nodes.converged)
        #expect(nodes.phone.q("steps today")?.int == 1_300)
        // A reconnect resends nothing new and changes nothing: the sample set is grow-only.
        nodes.disconnect()
        nodes.connect()
        #expect(nodes.phone.q("samples count")?.int == 2)
        #expect(nodes.phone.q("steps today")?.int == 1_300)
        #expect(nodes.converged)
    }

    @Test func lastNightMergesOverlappingSourcesAcrossMidnight() throws {
        let p = try PhoneHarness(start: PhoneFixture.local(Self.tokyo, 2026, 6, 2, 9))
        p.ok("authorize grant all")
        // The phone saw 23:00–07:00 asleep; the watch the stages. Typed at 09:00, a FROM after TO is the evening before.
        p.ok("sleep asleepUnspecified 23:00 07:00")
        p.ok("sleep asleepCore 23:30 01:00 --source watch")
        p.ok("sleep asleepDeep 01:00 02:30 --source watch")
        p.ok("sleep asleepREM 02:30 03:30 --source watch")
        p.ok("sleep awake 03:30 03:45 --source watch")
        p.ok("sleep asleepCore 03:45 06:45 --source watch")
        // An afternoon nap the day before lies outside the 18:00–12:00 window.
        p.ok("sleep asleepUnspecified 2026-06-01T14:00:00+09:00 2026-06-01T15:00:00+09:00")
        #expect(p.q("sleep lastnight hours")?.doubleValue == 8.0)
        #expect(p.q("sleep lastnight core")?.doubleValue == 270)
        #expect(p.q("sleep lastnight deep")?.doubleValue == 90)
        #expect(p.q("sleep lastnight rem")?.doubleValue == 60)
        // The watch's awake quarter hour is covered by the phone's asleep sample: asleep, unspecified.
        #expect(p.q("sleep lastnight unspecified")?.doubleValue == 60)
        #expect(p.q("sleep lastnight awake")?.doubleValue == 0)
        // 60 (8 h) + 25 × (150/480)/0.35 + 15 = 97.3
        #expect(p.q("sleep lastnight score")?.int == 97)
        #expect(p.q("sleep lastnight evaluation") == "good")
    }

    @Test func deniedOrEmptyTypesShowPlaceholdersNeverZero() throws {
        let p = try PhoneHarness(start: PhoneFixture.local(Self.tokyo, 2026, 6, 1, 12))
        #expect(p.q("authorization requested") == true)
        #expect(p.q("authorization steps") == "notDetermined")
        #expect(p.logs.contains { $0.1.contains("HealthKit authorization requested") })
        p.ok("steps 500 --from 09:00 --to 09:10")
        #expect(p.q("steps today") == "—")
        let dashboard = p.ok("show dashboard").text
        #expect(dashboard.contains("今日の歩数: —"))
        #expect(dashboard.contains("ヘルスケアデータへのアクセスを許可してください"))
        p.ok("authorize grant steps")
        #expect(p.q("steps today")?.int == 500)
        #expect(p.q("energy today") == "—")
        #expect(p.q("hr latest") == "—")
        #expect(p.q("sleep lastnight score") == "—")
        p.ok("authorize deny steps")
        #expect(p.q("authorization steps") == "denied")
        #expect(p.q("steps today") == "—")
        #expect(!p.ok("show dashboard").text.contains("0歩"))
    }

    @Test func stepObserverDeliversAtMostHourlyAndPushesTheComplication() throws {
        let p = try PhoneHarness(start: PhoneFixture.local(Self.tokyo, 2026, 6, 1, 8))
        p.ok("authorize grant all")
        p.ok("steps 400 --from 07:50 --to 08:00")
        #expect(p.q("observer deliveries")?.int == 1)
        #expect(p.q("effect last kind") == "complication")
        #expect(p.q("effect last todaySteps")?.int == 400)
        p.advance(by: 10 * PhoneFixture.minuteMs)
        p.ok("steps 300 --from 08:00 --to 08:10")
        p.advance(to: PhoneFixture.local(Self.tokyo, 2026, 6, 1, 8, 59))
        #expect(p.q("observer deliveries")?.int == 1)
        #expect(p.q("observer pending") == true)
        p.advance(to: PhoneFixture.local(Self.tokyo, 2026, 6, 1, 9))
        #expect(p.q("observer deliveries")?.int == 2)
        #expect(p.q("effect last todaySteps")?.int == 700)
        #expect(p.q("widget small steps")?.int == 700)
        #expect(p.q("effects count")?.int == 2)
    }

    @Test func complicationPushNamesTheWriteOfItsStepGoal() throws {
        let p = try PhoneHarness(start: PhoneFixture.local(Self.tokyo, 2026, 6, 1, 12))
        p.ok("complication push")
        #expect(p.q("effect last stepGoal")?.int == 10_000)
        #expect(p.q("effect last stepGoalStamp") == nil, "the default goal was never written")
        p.ok("settings step-goal 8000")
        p.ok("complication push")
        let stamp = try #require(AppSettings.stepGoalStamp(in: p.engine.ctx.replica))
        #expect(p.q("effect last stepGoal")?.int == 8_000)
        #expect(p.q("effect last stepGoalStamp") == stamp.plistValue, "the watch compares it with its own goal's write")
        try p.restart()
        #expect(p.q("effect last stepGoalStamp") == stamp.plistValue, "kept with the effect")
    }

    @Test func badSamplesAreRefusedAndIdsAreDeterministic() throws {
        let start = PhoneFixture.local(Self.tokyo, 2026, 6, 1, 12)
        let p = try PhoneHarness(start: start)
        #expect(!p.run("steps -5").isOK)
        #expect(!p.run("hr 500").isOK)
        #expect(!p.run("sleep snoozing 23:00 07:00").isOK)
        #expect(!p.run("steps 100 --from 25:00").isOK)
        #expect(!p.run("energy 10 --source tablet").isOK)
        #expect(p.q("samples count")?.int == 0)
        #expect(p.ok("hr 64").value["kind"] == "heartRate")
        #expect(p.ok("steps 10").value["kind"] == "steps")
        #expect(p.q("samples count")?.int == 2)
        try p.restart()
        let third = p.ok("energy 12.5")
        #expect(p.run("records sample").text.contains("ph-\(start)-1 "))
        #expect(third.text.hasSuffix("[ph-\(start)-3]"))
    }
}
