import PeerLinkCore

/// What a watch complication shows: today's steps in an `accessoryCircular` gauge.
public enum ComplicationGaugeSource: String, Sendable, Hashable, CaseIterable {
    /// Today's step count against the step goal.
    case steps
}

/// The complication's configuration, shared by both devices (the phone's settings screen and
/// the watch face can both change it).
///
/// One record per WidgetKit family; the id is the family name. Each field is its own
/// register, so turning the complication off on one device and changing its source on the
/// other both survive.
public struct ComplicationConfiguration: Sendable, Hashable {
    /// The WidgetKit family the seed uses.
    public static let circularFamily = "accessoryCircular"

    /// The WidgetKit family (the record id).
    public var family: String
    /// Whether the complication is offered on the watch face.
    public var isEnabled: Bool
    /// What the gauge measures.
    public var gaugeSource: ComplicationGaugeSource

    /// The seed's complication: circular, enabled, steps.
    public static let defaults = ComplicationConfiguration(family: circularFamily, isEnabled: true, gaugeSource: .steps)

    /// Makes a configuration.
    public init(family: String, isEnabled: Bool, gaugeSource: ComplicationGaugeSource) {
        self.family = family
        self.isEnabled = isEnabled
        self.gaugeSource = gaugeSource
    }
}

// MARK: - Replicated record

extension ComplicationConfiguration: ReplicatedRecord {
    /// The collection name in the replicated state.
    public static let collection = "complication"

    /// The family name.
    public var id: String { family }

    /// The fields: `enabled` and `gauge` (the source's raw value).
    public var fields: [String: PlistValue] {
        ["enabled": .bool(isEnabled), "gauge": .string(gaugeSource.rawValue)]
    }

    /// Rebuilds a configuration; missing fields take the defaults, an unknown gauge source or
    /// a mistyped field gives nil.
    public init?(id: String, fields f: [String: PlistValue]) {
        var isEnabled = Self.defaults.isEnabled
        if let v = f["enabled"] {
            guard let b = v.boolValue else { return nil }
            isEnabled = b
        }
        var source = Self.defaults.gaugeSource
        if let v = f["gauge"] {
            guard let s = v.stringValue.flatMap(ComplicationGaugeSource.init(rawValue:)) else { return nil }
            source = s
        }
        self.init(family: id, isEnabled: isEnabled, gaugeSource: source)
    }
}
