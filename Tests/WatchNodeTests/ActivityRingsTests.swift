import PeerLinkCore
import FitnessDomain
import CountdownDomain
import Testing

@testable import WatchNode

let june2 = CivilDate(year: 2025, month: 6, day: 2)

@Suite struct ActivityRingsTests {
    @Test func ringsCompareTodayWithTheGoals() {
        let rings = ActivityRings(day: june2, stepsToday: 8_432, energyTodayKcal: 342.5, settings: .defaults)
        #expect(rings.steps.value == 8_432 && rings.steps.goal == 10_000 && rings.steps.fraction == 0.8432)
        #expect(rings.energy.goal == 500 && rings.energy.fraction == 0.685)
        #expect(rings.text(.ja) == "今日のアクティビティ 2025-06-02\n歩数: 8,432 / 10,000 (84%)\n消費カロリー: 342.5 / 500 kcal (68%)")
        #expect(rings.text(.en) == "Today's activity 2025-06-02\nSteps: 8,432 / 10,000 (84%)\nCalories: 342.5 / 500 kcal (68%)")
        let json = rings.jsonValue()
        #expect(json["steps"]?["value"] == 8_432 && json["steps"]?["goal"] == 10_000 && json["steps"]?["closed"] == false)
        #expect(json["energyKcal"]?["fraction"] == .double(0.685))
    }

    @Test func fractionMayExceedOne() {
        let rings = ActivityRings(day: june2, stepsToday: 15_000, energyTodayKcal: 750, settings: .defaults)
        #expect(rings.steps.fraction == 1.5 && rings.steps.isClosed)
        #expect(rings.energy.fraction == 1.5)
        #expect(rings.text(.en).contains("(150%)"))
    }

    @Test func goalChangeReachesTheRingsAndTheGauge() {
        var settings = AppSettings.defaults
        let rings = ActivityRings(day: june2, stepsToday: 6_000, energyTodayKcal: 300, settings: settings)
        var feed = ComplicationFeed(stepGoal: settings.stepGoal)
        _ = feed.onStepsChanged(6_000, at: 0)
        #expect(feed.displayed?.fraction == 0.6)

        settings.stepGoal = 8_000
        settings.activeEnergyGoalKcal = 250
        let updated = rings.applying(settings)
        #expect(updated.steps.goal == 8_000 && updated.steps.fraction == 0.75)
        #expect(updated.energy.goal == 250 && updated.energy.fraction == 1.2 && updated.energy.isClosed)
        guard case .reloaded(let entry) = feed.onSettingsChanged(settings, at: minute) else {
            Issue.record("a goal change did not reload the complication")
            return
        }
        #expect(entry.gauge == ComplicationGauge(steps: 6_000, stepGoal: 8_000))
        #expect(entry.gauge.fraction == 0.75 && entry.gauge.jsonValue()["max"] == 8_000)
    }

    @Test func zeroGoalGivesZeroFraction() {
        var settings = AppSettings.defaults
        settings.activeEnergyGoalKcal = 0
        let rings = ActivityRings(day: june2, stepsToday: 0, energyTodayKcal: 100, settings: settings)
        #expect(rings.energy.fraction == 0 && !rings.energy.isClosed)
    }
}
