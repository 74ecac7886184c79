import PeerLinkCore
import FitnessDomain
@testable import PhoneNode
import Testing

/// A timer tick with nothing due writes no part of the phone's state: `save` encodes and
/// compares every part marked written, and ticks are the phone's most frequent event. The
/// questions asked instead of the updates must answer as the updates act.
@Suite("Phone ticks")
struct PhoneTickTouchTests {
    typealias F = PhoneFixture

    @Test func dueWorkWithNothingDueMarksNoPart() throws {
        let p = try PhoneHarness(start: F.local("Asia/Tokyo", 2026, 6, 7, 10))
        for line in ["authorize grant all", "app foreground", "settings weekly-summary on"] { _ = p.run(line) }
        for minutes in [1, 30, 24 * 60] {
            p.advance(by: Int64(minutes) * 60_000)
            var app = p.engine.app
            var ctx = p.engine.ctx
            app.state.clearTouched()
            app.runDue(&ctx)
            #expect(app.state.touched.parts.isEmpty, "after \(minutes) min")
            #expect(app.state == p.engine.app.state)
        }
    }

    @Test func theListsQuestionsAnswerAsItsUpdatesAct() throws {
        let calendar = try #require(LocalCalendar(identifier: "Asia/Tokyo"))
        var list = PendingNotificationList()
        list.add(PendingNotification(id: WeeklySummary.notificationID, kind: .weeklySummary, title: "t", body: "b",
                                     trigger: .calendar(.weeklySummary), fireMs: 10_000))
        list.add(PendingNotification(id: "run", kind: .runDetected, title: "t", body: "b", trigger: .at(5_000), fireMs: 5_000))
        var runOnly = PendingNotificationList()
        runOnly.add(PendingNotification(id: "run", kind: .runDetected, title: "t", body: "b", trigger: .at(5_000), fireMs: 5_000))
        for l in [list, runOnly, PendingNotificationList()] {
            for id in [WeeklySummary.notificationID, "run", "other", ""] {
                #expect(l.fireMs(id: id) == l.item(id: id)?.fireMs, "\(id)")
                #expect(l.contains(id: id) == (l.item(id: id) != nil), "\(id)")
            }
            for now: EpochMs in [0, 4_999, 5_000, 9_999, 10_000, 20_000] {
                var copy = l
                let delivered = copy.onDeliverDue(nowMs: now, calendar: calendar)
                #expect(l.hasDue(nowMs: now) == !delivered.isEmpty, "at \(now)")
                if !l.hasDue(nowMs: now) { #expect(copy == l) }
            }
            for master in [false, true] {
                for weekly in [false, true] {
                    for run in [false, true] {
                        let s = AppSettings(stepGoal: 1, activeEnergyGoalKcal: 1, notificationsEnabled: master, weeklySummaryEnabled: weekly,
                                            runDetectionEnabled: run)
                        var copy = l
                        let removed = copy.apply(s)
                        #expect(l.hasTurnedOff(s) == !removed.isEmpty, "\(master) \(weekly) \(run)")
                        if !l.hasTurnedOff(s) { #expect(copy == l) }
                    }
                }
            }
        }
    }
}
