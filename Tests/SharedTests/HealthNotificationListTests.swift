import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// The 64-pending limit (iOS keeps the soonest 64), replacement by id, delivery and settings.
@Suite struct HealthNotificationListTests {
    let tokyo = HealthFixture.tokyo
    let base: EpochMs = 1_780_000_000_000

    func oneShot(_ id: String, minute: Int64) -> PendingNotification {
        let at = base + minute * 60_000
        return PendingNotification(id: id, kind: .runDetected, title: "t", body: "b", trigger: .at(at), fireMs: at)
    }

    func full() -> PendingNotificationList {
        var list = PendingNotificationList()
        for i in 1...64 { #expect(list.add(oneShot("n\(i)", minute: Int64(i))) == .added) }
        return list
    }

    @Test func sixtyFifthFiringLastIsNotKept() {
        var list = full()
        #expect(list.count == PendingNotificationList.maxPending)
        #expect(list.add(oneShot("late", minute: 100)) == .droppedOverLimit)
        #expect(list.count == 64 && list.item(id: "late") == nil)
    }

    @Test func sixtyFifthFiringSoonerDropsTheLatest() {
        var list = full()
        #expect(list.add(oneShot("early", minute: 0)) == .addedDroppingLatest(droppedID: "n64"))
        #expect(list.count == 64)
        #expect(list.items.first?.id == "early" && list.items.last?.id == "n63")
    }

    @Test func sameIDReplacesWithoutCountingTwice() {
        var list = full()
        #expect(list.add(oneShot("n10", minute: 500)) == .replaced)
        #expect(list.count == 64 && list.items.last?.id == "n10")
    }

    @Test func deliveryRemovesOneShotsAndReschedulesRepeats() {
        var list = PendingNotificationList()
        let weekly = WeeklySummary.make(samples: [], workouts: [], forFireAtMs: base, calendar: tokyo)
            .makeNotification(nowMs: base, calendar: tokyo, language: .en)
        list.add(weekly)
        list.add(oneShot("run", minute: 1))
        let delivered = list.onDeliverDue(nowMs: weekly.fireMs, calendar: tokyo)
        #expect(delivered.map(\.id) == ["run", WeeklySummary.notificationID])
        #expect(list.items.map(\.id) == [WeeklySummary.notificationID])
        #expect(list.items[0].fireMs == weekly.fireMs + 7 * 24 * HealthFixture.hourMs)
        #expect(list.onDeliverDue(nowMs: weekly.fireMs, calendar: tokyo).isEmpty)
    }

    @Test func turningAFeatureOffRemovesItsRequests() {
        var list = PendingNotificationList()
        list.add(oneShot("run", minute: 1))
        list.add(WeeklySummary.make(samples: [], workouts: [], forFireAtMs: base, calendar: tokyo)
            .makeNotification(nowMs: base, calendar: tokyo, language: .ja))
        var settings = AppSettings.defaults
        #expect(list.apply(settings).isEmpty)
        settings.weeklySummaryEnabled = false
        #expect(list.apply(settings) == [WeeklySummary.notificationID])
        settings.notificationsEnabled = false
        #expect(list.apply(settings) == ["run"])
        #expect(list.count == 0)
    }
}
