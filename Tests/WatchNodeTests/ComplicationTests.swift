import PeerLinkCore
import CountdownDomain
import Testing

@testable import WatchNode

let minute: EpochMs = 60_000

@Suite struct ComplicationTests {
    // MARK: - Gauge

    @Test(arguments: [
        (0, "0"), (842, "842"), (999, "999"), (1_000, "1k"), (1_099, "1k"), (1_100, "1.1k"), (8_432, "8.4k"),
        (9_999, "9.9k"), (10_000, "10k"), (12_345, "12k"), (999_999, "999k"), (1_000_000, "1M"), (1_250_000, "1.2M"),
        (12_500_000, "12M"), (-5, "0"),
    ])
    func labelIsCompactAndRoundedDown(steps: Int, label: String) {
        #expect(ComplicationGauge.compactLabel(steps) == label)
    }

    @Test func fractionIsClampedToZeroOne() {
        #expect(ComplicationGauge(steps: 8_432, stepGoal: 10_000).fraction == 0.8432)
        #expect(ComplicationGauge(steps: 25_000, stepGoal: 10_000).fraction == 1)
        #expect(ComplicationGauge(steps: -3, stepGoal: 10_000).fraction == 0)
    }

    @Test func gaugeRendersAsTextAndJSON() {
        let g = ComplicationGauge(steps: 8_432, stepGoal: 10_000)
        #expect(g.text(.ja) == "歩数ゲージ: 8.4k (8,432 / 10,000, 84%)")
        #expect(g.text(.en) == "Steps gauge: 8.4k (8,432 / 10,000, 84%)")
        let json = g.jsonValue()
        #expect(json["value"] == 8_432 && json["max"] == 10_000 && json["fraction"] == .double(0.8432))
        #expect(json["label"] == "8.4k" && json["gaugeStyle"] == "accessoryCircularCapacity" && json["family"] == "accessoryCircular")
    }

    // MARK: - Reload budget

    @Test func reloadsStampedAheadOfAClockThatWentBackHoldTheBudgetOneWindowNotTheSizeOfTheStep() {
        var feed = ComplicationFeed(stepGoal: 10_000)
        // Four reloads while the wall clock read two hours ahead.
        for i in 0..<4 {
            guard case .reloaded = feed.onStepsChanged(100 * (i + 1), at: EpochMs(120 + i) * minute) else {
                Issue.record("reload \(i + 1) should be granted")
                return
            }
        }
        // The clock is corrected to 0:10: the reloads count from now.
        let moved = feed.onClock(at: 10 * minute)
        let movedAgain = feed.onClock(at: 10 * minute)
        #expect(moved && !movedAgain, "nothing left ahead of the clock")
        let deferred = feed.onStepsChanged(500, at: 11 * minute)
        #expect(deferred == .deferred(untilMs: 70 * minute), "one window from the correction, not 3:00")
        #expect(feed.nextTickMs == 70 * minute)
        let early = feed.onTick(at: 69 * minute)
        #expect(early == .deferred(untilMs: 70 * minute), "a step back frees no budget early")
        guard case .reloaded(let entry) = feed.onTick(at: 70 * minute) else {
            Issue.record("the pending value shows when the window has moved")
            return
        }
        #expect(entry.gauge.steps == 500)
    }

    @Test func fourthReloadInAnHourIsGrantedFifthDeferredThenGrantedWhenTheWindowMoves() {
        var feed = ComplicationFeed(stepGoal: 10_000)
        for (i, t) in [EpochMs(0), 10, 20, 30].enumerated() {
            guard case .reloaded = feed.onStepsChanged(1_000 * (i + 1), at: t * minute) else {
                Issue.record("reload \(i + 1) at \(t) min was not granted")
                return
            }
        }
        #expect(feed.onStepsChanged(5_000, at: 40 * minute) == .deferred(untilMs: 60 * minute))
        #expect(feed.onStepsChanged(5_500, at: 50 * minute) == .deferred(untilMs: 60 * minute), "newest value replaces pending")
        #expect(feed.displayed?.steps == 4_000)
        #expect(feed.pending?.steps == 5_500 && feed.nextTickMs == 60 * minute)
        #expect(feed.onTick(at: 60 * minute - 1) == .deferred(untilMs: 60 * minute), "1 ms early")
        guard case .reloaded(let entry) = feed.onTick(at: 60 * minute) else {
            Issue.record("pending value not applied when the window moved")
            return
        }
        #expect(entry.gauge.steps == 5_500 && entry.dateMs == 60 * minute)
        #expect(feed.pending == nil && feed.displayed?.steps == 5_500)
        #expect(feed.timeline.count == 5)
        #expect(feed.reloadsUsed(at: 60 * minute) == 4)
    }

    @Test func unchangedValueDoesNotSpendBudget() {
        var feed = ComplicationFeed(stepGoal: 10_000)
        _ = feed.onStepsChanged(100, at: 0)
        #expect(feed.onStepsChanged(100, at: minute) == .unchanged)
        #expect(feed.reloadsUsed(at: minute) == 1)
    }

    @Test func foregroundReloadsDoNotCount() {
        var feed = ComplicationFeed(stepGoal: 10_000, settings: .init(maxReloadsPerWindow: 1, windowMs: 60 * minute))
        _ = feed.onStepsChanged(1, at: 0)
        guard case .reloaded = feed.onStepsChanged(2, at: minute, appInForeground: true) else {
            Issue.record("foreground reload refused")
            return
        }
        #expect(feed.reloadsUsed(at: minute) == 1)
        #expect(feed.onStepsChanged(3, at: 2 * minute) == .deferred(untilMs: 60 * minute))
    }

    @Test func phoneComplicationUserInfoReloadsTheGauge() {
        var feed = ComplicationFeed(stepGoal: 10_000)
        let payload = ComplicationUserInfo(steps: 8_432, stepGoal: 12_000).plistValue()
        guard case .success(let info) = ComplicationUserInfo.parse(payload) else {
            Issue.record("payload did not parse")
            return
        }
        guard case .reloaded(let entry) = feed.onComplicationUserInfo(info, at: 0) else {
            Issue.record("not reloaded")
            return
        }
        #expect(entry.gauge == ComplicationGauge(steps: 8_432, stepGoal: 12_000))
        #expect(feed.text(.en) == "Steps gauge: 8.4k (8,432 / 12,000, 70%)")
        #expect(feed.jsonValue()["gauge"]?["max"] == 12_000)
    }

    @Test func malformedComplicationUserInfoIsRefused() {
        #expect((try? ComplicationUserInfo.parse(["note": 1]).get()) == nil, "neither steps nor goal")
        #expect((try? ComplicationUserInfo.parse(.int(3)).get()) == nil, "not a dictionary")
        #expect((try? ComplicationUserInfo.parse(["todaySteps": -1]).get()) == nil)
        #expect((try? ComplicationUserInfo.parse(["todaySteps": "ten"]).get()) == nil)
        #expect((try? ComplicationUserInfo.parse(["todaySteps": 10, "stepGoal": 5]).get()) == nil)
        // A goal alone is a push (the phone may not read steps): steps count as 0.
        #expect((try? ComplicationUserInfo.parse(["stepGoal": 10_000]).get()) == ComplicationUserInfo(steps: 0, stepGoal: 10_000))
    }
}
