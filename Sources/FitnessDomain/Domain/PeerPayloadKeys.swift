import PeerLinkCore

/// The keys and `type` tags of what the phone and watch apps send each other (the table in
/// docs/PROTOCOL.md §5), defined once so that both sides agree by construction.
public enum PeerPayloadKeys {
    /// User info or message from the phone: `["startWorkout": ["activity", "startMs"]]`.
    public static let startWorkout = "startWorkout"
    /// Complication user info from the phone: `["complication": App Group snapshot]`.
    public static let complication = "complication"
    /// In complication user info: the stamp of the replicated write the pushed `stepGoal`
    /// came from (`HLCTimestamp.plistValue`); absent when the phone holds no such write.
    public static let stepGoalStamp = "stepGoalStamp"
    /// The phone's application context: `["settings": settings snapshot]`.
    public static let settings = "settings"
    /// The `type` of the watch's live workout metrics message.
    public static let liveMetricsType = "workout.liveMetrics"
    /// The `type` of the watch's message that ends mirroring.
    public static let mirroringStoppedType = "workout.mirroringStopped"
}
