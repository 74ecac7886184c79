import PeerLinkCore

/// One Core Motion activity flag. Flags are not exclusive: a sample may say both
/// `walking` and `automotive` (walking in a moving train), or none of them.
public enum MotionActivityFlag: String, Sendable, Hashable, CaseIterable, Codable {
    case stationary, walking, running, automotive, cycling, unknown

    /// The bit this flag takes in `MotionActivityFlags.rawValue`.
    public var bit: UInt8 {
        switch self {
        case .stationary: 1 << 0
        case .walking: 1 << 1
        case .running: 1 << 2
        case .automotive: 1 << 3
        case .cycling: 1 << 4
        case .unknown: 1 << 5
        }
    }
}

/// The set of flags of one `CMMotionActivity`, as a small option set.
public struct MotionActivityFlags: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt8

    /// The set with these bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The single-flag sets, one per `MotionActivityFlag`.
    public static let stationary = MotionActivityFlags(.stationary)
    public static let walking = MotionActivityFlags(.walking)
    public static let running = MotionActivityFlags(.running)
    public static let automotive = MotionActivityFlags(.automotive)
    public static let cycling = MotionActivityFlags(.cycling)
    public static let unknown = MotionActivityFlags(.unknown)

    /// The set holding just `flag`.
    public init(_ flag: MotionActivityFlag) { self.init(rawValue: flag.bit) }

    /// The flags in the set, in `MotionActivityFlag.allCases` order.
    public var flags: [MotionActivityFlag] { MotionActivityFlag.allCases.filter { rawValue & $0.bit != 0 } }

    /// The flag names joined with `+` (`"running+automotive"`), or `"none"` for the empty set.
    public var name: String { flags.isEmpty ? "none" : flags.map(\.rawValue).joined(separator: "+") }

    /// Parses `name`'s format; nil for an unknown flag name.
    public init?(name: String) {
        if name == "none" { self = []; return }
        var set: MotionActivityFlags = []
        for part in name.split(separator: "+", omittingEmptySubsequences: false) {
            guard let flag = MotionActivityFlag(rawValue: String(part)) else { return nil }
            set.insert(MotionActivityFlags(flag))
        }
        self = set
    }
}

/// How sure Core Motion is of an activity (`CMMotionActivityConfidence`), ordered low < high.
public enum MotionConfidence: Int, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case low = 0
    case medium = 1
    case high = 2

    /// The name used in scenario files and JSON.
    public var name: String {
        switch self {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }

    /// Parses `name`; nil when unknown.
    public init?(name: String) {
        guard let c = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = c
    }

    /// Lower confidence orders first.
    public static func < (a: MotionConfidence, b: MotionConfidence) -> Bool { a.rawValue < b.rawValue }
}

/// One activity update from the motion coprocessor (`CMMotionActivity`): when it began, its
/// flags and its confidence.
public struct MotionActivitySample: Sendable, Hashable, Codable {
    /// When the activity began (`CMMotionActivity.startDate`).
    public var atMs: EpochMs
    public var flags: MotionActivityFlags
    public var confidence: MotionConfidence

    /// A sample from its values.
    public init(atMs: EpochMs, flags: MotionActivityFlags, confidence: MotionConfidence) {
        self.atMs = atMs
        self.flags = flags
        self.confidence = confidence
    }

    /// True when the sample says running.
    public var isRunning: Bool { flags.contains(.running) }
    /// True when the sample says the device is in a vehicle.
    public var isAutomotive: Bool { flags.contains(.automotive) }

    /// As a property list: `{"at": ms, "flags": "running+walking", "confidence": "high"}`.
    public var plistValue: PlistValue {
        ["at": .int(atMs), "flags": .string(flags.name), "confidence": .string(confidence.name)]
    }

    /// Rebuilds a sample from `plistValue`'s form; nil when a field is missing or unknown.
    public init?(plistValue p: PlistValue) {
        guard let at = p["at"]?.intValue, let f = p["flags"]?.stringValue.flatMap(MotionActivityFlags.init(name:)),
              let c = p["confidence"]?.stringValue.flatMap(MotionConfidence.init(name:))
        else { return nil }
        self.init(atMs: at, flags: f, confidence: c)
    }
}
