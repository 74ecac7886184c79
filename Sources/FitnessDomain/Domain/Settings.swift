import PeerLinkCore

/// The app settings both devices share (one record, id `"settings"`, each field its own register).
public struct AppSettings: Sendable, Hashable {
    /// Daily step goal; the seed's widget code defaults to 10,000.
    public var stepGoal: Int
    /// Daily active-energy goal in kcal, for the calorie ring (the watch's Move ring; default 500).
    public var activeEnergyGoalKcal: Int
    public var notificationsEnabled: Bool
    public var weeklySummaryEnabled: Bool
    public var runDetectionEnabled: Bool

    /// The allowed step goals: the settings screen refuses anything else.
    public static let stepGoalRange = 1_000...100_000

    public static let defaults = AppSettings(
        stepGoal: 10_000, activeEnergyGoalKcal: 500, notificationsEnabled: true, weeklySummaryEnabled: true,
        runDetectionEnabled: true)

    public init(stepGoal: Int, activeEnergyGoalKcal: Int, notificationsEnabled: Bool, weeklySummaryEnabled: Bool, runDetectionEnabled: Bool) {
        self.stepGoal = stepGoal
        self.activeEnergyGoalKcal = activeEnergyGoalKcal
        self.notificationsEnabled = notificationsEnabled
        self.weeklySummaryEnabled = weeklySummaryEnabled
        self.runDetectionEnabled = runDetectionEnabled
    }
}

extension AppSettings: ReplicatedRecord {
    public static let collection = "settings"
    /// The one record id.
    public static let recordID = "settings"
    public var id: String { Self.recordID }

    public var fields: [String: PlistValue] {
        [
            "stepGoal": .int(Int64(stepGoal)), "energyGoal": .int(Int64(activeEnergyGoalKcal)),
            "notifications": .bool(notificationsEnabled), "weeklySummary": .bool(weeklySummaryEnabled),
            "runDetection": .bool(runDetectionEnabled),
        ]
    }

    /// Missing fields take their defaults, so a partly synced record is still usable.
    public init?(id: String, fields f: [String: PlistValue]) {
        let d = Self.defaults
        self.init(
            stepGoal: f["stepGoal"]?.intValue.map { Int($0) } ?? d.stepGoal,
            activeEnergyGoalKcal: f["energyGoal"]?.intValue.map { Int($0) } ?? d.activeEnergyGoalKcal,
            notificationsEnabled: f["notifications"]?.boolValue ?? d.notificationsEnabled,
            weeklySummaryEnabled: f["weeklySummary"]?.boolValue ?? d.weeklySummaryEnabled,
            runDetectionEnabled: f["runDetection"]?.boolValue ?? d.runDetectionEnabled)
    }
}

extension AppSettings {
    /// The settings record's key.
    static let key = RecordKey(collection, recordID)

    /// `replica.record(AppSettings.self, id: recordID) ?? .defaults`, read from the record's
    /// registers by name: no dictionary of its fields is built (the phone reads the settings
    /// on every timer tick; tested to agree).
    public static func current(in replica: ReplicaState) -> AppSettings {
        guard let e = replica.entry(key), e.isLive else { return defaults }
        let d = defaults
        return AppSettings(
            stepGoal: e["stepGoal"]?.value.intValue.map { Int($0) } ?? d.stepGoal,
            activeEnergyGoalKcal: e["energyGoal"]?.value.intValue.map { Int($0) } ?? d.activeEnergyGoalKcal,
            notificationsEnabled: e["notifications"]?.value.boolValue ?? d.notificationsEnabled,
            weeklySummaryEnabled: e["weeklySummary"]?.value.boolValue ?? d.weeklySummaryEnabled,
            runDetectionEnabled: e["runDetection"]?.value.boolValue ?? d.runDetectionEnabled)
    }

    /// The stamp of the replicated write that set the step goal; nil while no device wrote one
    /// (the default is older than every write).
    public static func stepGoalStamp(in replica: ReplicaState) -> HLCTimestamp? {
        replica.entry(RecordKey(collection, recordID))?["stepGoal"]?.stamp
    }
}
