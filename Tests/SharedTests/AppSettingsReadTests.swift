import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// `AppSettings.current(in:)` reads the settings record's registers by name; it must equal the
/// typed read through the record's fields with the defaults for a missing record, whatever
/// the record holds: nothing, some fields, mistyped fields, other fields, a tombstone.
@Suite struct AppSettingsReadTests {
    static func reference(_ r: ReplicaState) -> AppSettings { r.record(AppSettings.self, id: AppSettings.recordID) ?? .defaults }

    @Test func readingTheRegistersEqualsTheTypedRecord() {
        var r = ReplicaState(replica: 1, schema: .fitnessAndCountdown)
        let key = RecordKey(AppSettings.collection, AppSettings.recordID)
        var now: Int64 = 1_000
        #expect(AppSettings.current(in: r) == Self.reference(r), "no record")
        let writes: [(String, PlistValue)] = [
            ("stepGoal", 12_000), ("other", "x"), ("notifications", false), ("energyGoal", .double(3)), ("energyGoal", 700),
            ("weeklySummary", 1), ("weeklySummary", false), ("runDetection", false), ("stepGoal", "many"), ("notifications", true),
        ]
        for (name, value) in writes {
            now += 1_000
            _ = r.set(key, field: name, to: value, wallMs: now)
            #expect(AppSettings.current(in: r) == Self.reference(r), "after \(name) = \(value)")
        }
        _ = r.set(key, AppSettings(stepGoal: 5, activeEnergyGoalKcal: 6, notificationsEnabled: false, weeklySummaryEnabled: true,
                                   runDetectionEnabled: false).fields, wallMs: now + 1_000)
        #expect(AppSettings.current(in: r) == Self.reference(r), "every field")
        _ = r.delete(key, wallMs: now + 2_000)
        #expect(AppSettings.current(in: r) == .defaults && Self.reference(r) == .defaults, "deleted")
    }
}
