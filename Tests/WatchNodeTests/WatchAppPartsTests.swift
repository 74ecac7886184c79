import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// The small pure parts the watch app is built from: command words, phone payloads, the
/// workout file, the feed's durable form, today's totals.
@Suite struct WatchAppPartsTests {
    @Test func durationsUseTheScenarioUnits() {
        #expect(WatchCommandWords.durationMs("250ms") == 250)
        #expect(WatchCommandWords.durationMs("5s") == 5_000)
        #expect(WatchCommandWords.durationMs("1h30m") == 5_400_000)
        #expect(WatchCommandWords.durationMs("1d") == 86_400_000)
        for bad in ["", "5", "s", "0s", "1d1ms", "5x", "-5s", "99999999999999999999s"] {
            #expect(WatchCommandWords.durationMs(bad) == nil, "\(bad)")
        }
        #expect(WatchCommandWords.runtimeKind("physical-therapy") == .physicalTherapy)
        #expect(WatchCommandWords.runtimeKind("smartAlarm") == .smartAlarm)
        #expect(WatchCommandWords.runtimeKind("nap") == nil)
    }

    @Test func phonePayloadsAreRecognizedOrLeftAlone() {
        let start = StartWorkoutRequest(activity: .running, startMs: 42).plistValue()
        #expect(PhonePayload.parse(start, isComplication: false) == .success(.startWorkout(StartWorkoutRequest(activity: .running, startMs: 42))))
        // The phone's App Group snapshot under "complication", on either channel.
        let snapshot: PlistValue = ["complication": ["todaySteps": 10, "stepGoal": 9000, "todayCalories": 12.5, "savedAt": 77]]
        let expected = PhonePayload.complication(ComplicationUserInfo(steps: 10, stepGoal: 9000, savedAtMs: 77))
        #expect(PhonePayload.parse(snapshot, isComplication: true) == .success(expected))
        #expect(PhonePayload.parse(snapshot, isComplication: false) == .success(expected), "budget spent: ordinary user info")
        #expect(ComplicationUserInfo(steps: 10, stepGoal: 9000, savedAtMs: 77).payload()["complication"]?["todaySteps"] == 10)
        #expect(PhonePayload.parse(["steps": 10], isComplication: false) == nil, "one shape: unwrapped data is not ours")
        #expect(PhonePayload.parse(["other": 1], isComplication: false) == nil)
        guard case .failure? = PhonePayload.parse(["todaySteps": 10], isComplication: true) else {
            Issue.record("complication user info without the complication key is malformed")
            return
        }
        guard case .failure? = PhonePayload.parse(["startWorkout": ["activity": "swimming", "startMs": 1]], isComplication: false) else {
            Issue.record("an unknown activity is refused")
            return
        }
    }

    @Test func workoutFileRoundTripsEverySampleExactly() {
        let record = WorkoutRecord(id: "w9", activity: .cycling, location: .outdoor, state: .ended, startMs: 1_000, endMs: 9_000,
                                   totalEnergyKcal: 0.1 + 0.2, elapsedMs: 8_000, heartRateAverage: 101.5, heartRateSampleCount: 2)
        let samples = [
            HealthSample(id: "w9.0000", kind: .heartRate, source: .watch, startMs: 1_500, endMs: 1_500, value: 100),
            HealthSample(id: "w9.0001", kind: .activeEnergy, source: .watch, startMs: 1_000, endMs: 5_000, value: 0.1 + 0.2),
            HealthSample(id: "w9.0002", kind: .heartRate, source: .watch, startMs: 8_000, endMs: 8_000, value: 103),
        ]
        let file = WorkoutSampleFile(record: record, samples: samples)
        let bytes = file.encode()
        #expect(WorkoutSampleFile.decode(bytes) == .success(file))
        #expect(file.metadata(for: bytes)["byteCount"]?.intValue == Int64(bytes.count))
        guard case .failure = WorkoutSampleFile.decode(Array(bytes.dropLast())) else {
            Issue.record("a truncated file must be refused")
            return
        }
    }

    @Test func feedRestoresItsBudgetAndPendingValue() {
        var feed = ComplicationFeed(stepGoal: 10_000, settings: .init(maxReloadsPerWindow: 2, windowMs: 1_000))
        _ = feed.onStepsChanged(1, at: 0)
        _ = feed.onStepsChanged(2, at: 10)
        _ = feed.onStepsChanged(3, at: 20)
        let restored = ComplicationFeed(restoring: feed.plistValue(), settings: feed.settings)
        #expect(restored?.countedReloadsMs == [0, 10])
        #expect(restored?.pending == ComplicationGauge(steps: 3, stepGoal: 10_000))
        #expect(restored?.displayed == feed.displayed)
        #expect(restored?.nextTickMs == 1_000)
        #expect(ComplicationFeed(restoring: ["reloads": "x"]) == nil)
    }

    @Test func pushedStepsCountOnlyForTheirDayAndNeverLower() {
        let day = CivilDate(year: 2026, month: 6, day: 1)
        let push = PhoneStepsPush(day: day, steps: 5_000, stepGoal: nil)
        #expect(push.steps(on: day, calendar: tokyo, computed: 4_000) == 5_000)
        #expect(push.steps(on: day, calendar: tokyo, computed: 6_000) == 6_000)
        #expect(push.steps(on: day.adding(days: 1), calendar: tokyo, computed: nil) == 0)
        #expect(PhoneStepsPush(restoring: push.plistValue()) == push, "a push stored without savedAt keeps its day")
    }

    @Test func pushedStepsBelongToTheDayOfTheirSaveInTheCurrentZone() {
        let losAngeles = LocalCalendar(identifier: "America/Los_Angeles")!
        // Saved 07:00 JST on 1 June, which is 15:00 PDT on 31 May.
        let push = PhoneStepsPush(savedAtMs: morning, calendar: tokyo, steps: 5_000, stepGoal: nil)
        let june1 = CivilDate(year: 2026, month: 6, day: 1)
        #expect(push.day == june1)
        #expect(push.steps(on: june1, calendar: tokyo, computed: nil) == 5_000)
        #expect(push.steps(on: june1, calendar: losAngeles, computed: 10) == 10, "not 1 June in Los Angeles")
        #expect(push.steps(on: june1.adding(days: -1), calendar: losAngeles, computed: 10) == 5_000)
        #expect(PhoneStepsPush(restoring: push.plistValue()) == push)
    }

    @Test func pushedGoalStandsOnlyWhileNewerThanTheReplicatedGoal() {
        let day = CivilDate(year: 2026, month: 6, day: 1)
        let phoneWrite = HLCTimestamp(wallMs: 1_000, counter: 0, replica: 1)
        let push = PhoneStepsPush(day: day, steps: 0, stepGoal: 8_000, stepGoalStamp: phoneWrite)
        #expect(push.isStepGoalNewer(thanReplicated: nil), "nothing written on the watch: the push stands")
        #expect(push.isStepGoalNewer(thanReplicated: HLCTimestamp(wallMs: 999, counter: 7, replica: 2)))
        #expect(!push.isStepGoalNewer(thanReplicated: phoneWrite), "the same write arrived through the replica")
        #expect(!push.isStepGoalNewer(thanReplicated: HLCTimestamp(wallMs: 1_000, counter: 1, replica: 2)), "a later write wins")
        let unstamped = PhoneStepsPush(day: day, steps: 0, stepGoal: 8_000)
        #expect(unstamped.isStepGoalNewer(thanReplicated: nil))
        #expect(!unstamped.isStepGoalNewer(thanReplicated: .zero), "a goal without a stamp is older than every write")
        #expect(!PhoneStepsPush(day: day, steps: 0, stepGoal: nil).isStepGoalNewer(thanReplicated: nil))
        #expect(PhoneStepsPush(restoring: push.plistValue()) == push)
        // On the wire: the stamp rides next to the goal, and a malformed one is refused.
        let info = ComplicationUserInfo(steps: 3, stepGoal: 8_000, savedAtMs: 5, stepGoalStamp: phoneWrite)
        #expect(PhonePayload.parse(info.payload(), isComplication: true) == .success(.complication(info)))
        guard case .failure? = PhonePayload.parse(["complication": ["stepGoal": 8_000, "stepGoalStamp": "late"]], isComplication: true) else {
            Issue.record("a stepGoalStamp that is not a stamp is malformed")
            return
        }
    }

    @Test func todayTotalsRoundStepsAsThePhoneDoes() {
        let day = CivilDate(year: 2026, month: 6, day: 1)
        let start = tokyo.startOfDay(day)
        // Watch 0–10 min 1,000 steps; phone 5–15 min 601 steps → 1,000 + 300.5 → 1,301 (rounded half up).
        let samples = [
            HealthSample(id: "a", kind: .steps, source: .watch, startMs: start, endMs: start + 600_000, value: 1_000),
            HealthSample(id: "b", kind: .steps, source: .phone, startMs: start + 300_000, endMs: start + 900_000, value: 601),
            HealthSample(id: "c", kind: .steps, source: .phone, startMs: start - 600_000, endMs: start - 1, value: 999),
        ]
        let totals = TodayTotals.compute(samples: samples, day: day, calendar: tokyo)
        #expect(totals.steps == 1_301 && totals.energyKcal == nil)
    }
}
