import Testing
@testable import PeerLinkCore
@testable import FitnessDomain
@testable import CountdownDomain

/// Everything the issue lists as replicated can be written on one device and read, typed,
/// on the other; records two devices edit merge per field.
@Suite("Replica record types")
struct ReplicaRecordTypesTests {
    let t = ReplicaFixture.start

    @Test func everyKindOfRecordReplicatesTyped() throws {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        let settings = AppSettings(stepGoal: 12_000, activeEnergyGoalKcal: 600, notificationsEnabled: false, weeklySummaryEnabled: true, runDetectionEnabled: false)
        let profile = UserProfile(birthDate: CivilDate(year: 1990, month: 4, day: 1), createdMs: t)
        let dateGoal = CountdownGoal(id: "g1", title: "東京マラソン", targetDate: CivilDate(year: 2026, month: 3, day: 1), isAgeGoal: false, createdMs: t, priority: 10)
        let ageGoal = CountdownGoal(id: "g2", title: "40歳", targetAge: 40, isAgeGoal: true, createdMs: t + 1, priority: 20)
        let workout = WorkoutRecord(
            id: "w1", activity: .running, location: .outdoor, state: .ended, startMs: t, endMs: t + 3_600_000,
            events: [WorkoutEvent(kind: .pause, atMs: t + 600_000), WorkoutEvent(kind: .resume, atMs: t + 660_000)],
            totalEnergyKcal: 512.5, elapsedMs: 3_540_000, heartRateAverage: 150, heartRateMin: 98, heartRateMax: 181, heartRateSampleCount: 700)
        let samples = [
            HealthSample(id: "s1", kind: .steps, source: .watch, startMs: t, endMs: t + 60_000, value: 120),
            HealthSample(id: "s2", kind: .activeEnergy, source: .phone, startMs: t, endMs: t + 60_000, value: 9.5),
            HealthSample(id: "s3", kind: .heartRate, source: .watch, startMs: t, endMs: t, value: 142),
            HealthSample(id: "s4", kind: .sleep(.asleepREM), source: .watch, startMs: t - 3_600_000, endMs: t, value: 0),
        ]
        let complication = ComplicationConfiguration.defaults
        phone.state.put(settings, wallMs: t)
        phone.state.put(profile, wallMs: t)
        phone.state.put(dateGoal, wallMs: t)
        phone.state.put(ageGoal, wallMs: t)
        watch.state.put(workout, wallMs: t)
        for s in samples { watch.state.put(s, wallMs: t) }
        watch.state.put(complication, wallMs: t)
        syncUntilQuiet(&phone, &watch, nowMs: t + 1)
        for side in [phone.state, watch.state] {
            #expect(side.record(AppSettings.self, id: AppSettings.recordID) == settings)
            #expect(side.record(UserProfile.self, id: UserProfile.recordID) == profile)
            #expect(side.all(CountdownGoal.self) == [dateGoal, ageGoal])
            #expect(side.record(WorkoutRecord.self, id: "w1") == workout)
            #expect(side.all(HealthSample.self) == samples)
            #expect(side.record(ComplicationConfiguration.self, id: ComplicationConfiguration.circularFamily) == complication)
        }
        #expect(phone.state.digest() == watch.state.digest())
    }

    @Test func theComplicationConfigurationIsSmallAndStrict() {
        let c = ComplicationConfiguration.defaults
        #expect(c.id == "accessoryCircular" && c.isEnabled && c.gaugeSource == .steps)
        #expect(ComplicationConfiguration(id: c.id, fields: c.fields) == c)
        #expect(ComplicationConfiguration(id: c.id, fields: [:]) == c, "missing fields take the defaults")
        #expect(ComplicationConfiguration(id: c.id, fields: ["gauge": "calories"]) == nil)
        #expect(ComplicationConfiguration(id: c.id, fields: ["enabled": "yes"]) == nil)
    }

    /// Both devices edit different fields of one record while apart; both edits survive.
    func editsOfDifferentFieldsSurvive<R: ReplicatedRecord & Equatable>(_ base: R, phoneEdit: [String: PlistValue], watchEdit: [String: PlistValue], expected: R) {
        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        watch.skewMs = -ReplicaFixture.hourMs
        phone.state.put(base, wallMs: t)
        syncUntilQuiet(&phone, &watch, nowMs: t)
        let key = RecordKey(R.collection, base.id)
        phone.state.set(key, phoneEdit, wallMs: t + 10)
        watch.state.set(key, watchEdit, wallMs: t + 20 + watch.skewMs)
        syncUntilQuiet(&phone, &watch, nowMs: t + 30)
        #expect(phone.state.record(R.self, id: base.id) == expected)
        #expect(watch.state.record(R.self, id: base.id) == expected)
    }

    @Test func goalTitleAndPriorityEditedOnDifferentDevicesBothSurvive() {
        let base = CountdownGoal(id: "g1", title: "Trip", targetDate: CivilDate(year: 2026, month: 5, day: 1), isAgeGoal: false, createdMs: t, priority: 10)
        var expected = base
        expected.title = "Trip to Kyoto"
        expected.priority = 5
        var titled = base; titled.title = expected.title
        var moved = base; moved.priority = 5
        editsOfDifferentFieldsSurvive(base, phoneEdit: titled.fields(changedFrom: base), watchEdit: moved.fields(changedFrom: base), expected: expected)
    }

    @Test func aLaterTargetEditWinsWholeOverAConcurrentKindSwitch() {
        let base = CountdownGoal(id: "g1", title: "Milestone", targetAge: 40, isAgeGoal: true, createdMs: t, priority: 10)
        var toDate = base
        toDate.isAgeGoal = false
        toDate.targetDate = CivilDate(year: 2026, month: 12, day: 1)
        var olderAge = base
        olderAge.targetAge = 45
        #expect(olderAge.fields(editedFrom: base) == ["targetAge": 45, "isAgeGoal": true], "the kind goes with the target")
        var renamed = base
        renamed.title = "Big one"
        #expect(renamed.fields(editedFrom: base) == ["title": "Big one"], "a rename writes only the title")

        var phone = ReplicaPeer(role: .phone, incarnation: 1), watch = ReplicaPeer(role: .watch, incarnation: 2)
        phone.state.put(base, wallMs: t)
        syncUntilQuiet(&phone, &watch, nowMs: t)
        let key = RecordKey(CountdownGoal.collection, base.id)
        phone.state.set(key, toDate.fields(editedFrom: base), wallMs: t + 10)
        watch.state.set(key, olderAge.fields(editedFrom: base), wallMs: t + 20)
        phone.state.set(key, renamed.fields(editedFrom: base), wallMs: t + 30)
        syncUntilQuiet(&phone, &watch, nowMs: t + 40)
        var expected = olderAge
        expected.title = renamed.title
        expected.targetDate = toDate.targetDate  // kept as typed, not counted
        #expect(phone.state.record(CountdownGoal.self, id: base.id) == expected)
        #expect(watch.state.record(CountdownGoal.self, id: base.id) == expected)
    }

    @Test func settingsEditedOnDifferentDevicesBothSurvive() {
        var expected = AppSettings.defaults
        expected.stepGoal = 8_000
        expected.notificationsEnabled = false
        editsOfDifferentFieldsSurvive(AppSettings.defaults, phoneEdit: ["stepGoal": 8_000], watchEdit: ["notifications": false], expected: expected)
    }

    @Test func complicationFieldsEditedOnDifferentDevicesBothSurvive() {
        let expected = ComplicationConfiguration(family: ComplicationConfiguration.circularFamily, isEnabled: false, gaugeSource: .steps)
        editsOfDifferentFieldsSurvive(ComplicationConfiguration.defaults, phoneEdit: ["enabled": false], watchEdit: ["gauge": "steps"], expected: expected)
    }
}
