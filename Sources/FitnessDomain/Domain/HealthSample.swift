import PeerLinkCore

/// The stages of HealthKit's sleep analysis, with HealthKit's raw values.
public enum SleepStage: Int, Sendable, Hashable, CaseIterable, Codable {
    case inBed = 0
    case asleepUnspecified = 1
    case awake = 2
    case asleepCore = 3
    case asleepDeep = 4
    case asleepREM = 5

    /// True for the stages that count as asleep.
    public var isAsleep: Bool {
        switch self {
        case .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM: true
        case .inBed, .awake: false
        }
    }

    /// The name used in scenario files, JSON and text (`inBed`, `asleepCore`…).
    public var name: String {
        switch self {
        case .inBed: "inBed"
        case .asleepUnspecified: "asleepUnspecified"
        case .awake: "awake"
        case .asleepCore: "asleepCore"
        case .asleepDeep: "asleepDeep"
        case .asleepREM: "asleepREM"
        }
    }

    public init?(name: String) {
        guard let s = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = s
    }
}

/// What a health sample measures.
public enum HealthSampleKind: Sendable, Hashable {
    /// Step count (cumulative; unit: count).
    case steps
    /// Active energy burned (cumulative; unit: kcal).
    case activeEnergy
    /// Heart rate (discrete; unit: beats per minute).
    case heartRate
    /// A sleep analysis category sample; `value` is unused (1).
    case sleep(SleepStage)

    /// The name used in storage, scenario files and JSON.
    public var name: String {
        switch self {
        case .steps: "steps"
        case .activeEnergy: "activeEnergy"
        case .heartRate: "heartRate"
        case .sleep(let stage): "sleep.\(stage.name)"
        }
    }

    public init?(name: String) {
        switch name {
        case "steps": self = .steps
        case "activeEnergy": self = .activeEnergy
        case "heartRate": self = .heartRate
        default:
            guard name.hasPrefix("sleep."), let stage = SleepStage(name: String(name.dropFirst(6))) else { return nil }
            self = .sleep(stage)
        }
    }

    /// True when `word` names this kind or its family (`sleep` matches every sleep stage).
    public func matches(_ word: String) -> Bool { name == word || name.hasPrefix(word + ".") }

    /// How many of `samples` are of the kind or family `word` names (all of them when nil):
    /// both apps' `samples count [KIND]`.
    public static func count(_ samples: [HealthSample], matching word: String?) -> Int {
        guard let word else { return samples.count }
        return samples.reduce(0) { $0 + ($1.kind.matches(word) ? 1 : 0) }
    }

    /// Cumulative kinds are summed; discrete ones are averaged, min/maxed or taken latest.
    public var isCumulative: Bool {
        switch self {
        case .steps, .activeEnergy: true
        case .heartRate, .sleep: false
        }
    }
}

/// One sample, as HealthKit stores it: a value over an interval, from one device.
///
/// Samples are immutable once written: in the replicated state they form a grow-only set
/// keyed by `id`.
public struct HealthSample: Sendable, Hashable {
    public var id: String
    public var kind: HealthSampleKind
    public var source: DeviceRole
    public var startMs: EpochMs
    /// Equal to `startMs` for instantaneous samples such as heart rate.
    public var endMs: EpochMs
    public var value: Double

    public init(id: String, kind: HealthSampleKind, source: DeviceRole, startMs: EpochMs, endMs: EpochMs, value: Double) {
        self.id = id
        self.kind = kind
        self.source = source
        self.startMs = startMs
        self.endMs = endMs
        self.value = value
    }
}

extension HealthSample: ReplicatedRecord {
    public static let collection = "sample"

    public var fields: [String: PlistValue] {
        ["kind": .string(kind.name), "source": .string(source.rawValue), "start": .int(startMs), "end": .int(endMs), "value": .double(value)]
    }

    public init?(id: String, fields f: [String: PlistValue]) {
        guard let kindName = f["kind"]?.stringValue, let kind = HealthSampleKind(name: kindName),
              let sourceName = f["source"]?.stringValue, let source = DeviceRole(rawValue: sourceName),
              let start = f["start"]?.intValue, let end = f["end"]?.intValue, let value = f["value"]?.doubleValue
        else { return nil }
        self.init(id: id, kind: kind, source: source, startMs: start, endMs: end, value: value)
    }
}

extension ReplicaSchema {
    /// The phone's and the watch's replicated state (the fitness tracker and the countdown
    /// goals): health samples and a saved workout's sample series are grow-only sets, as
    /// HealthKit samples are immutable once saved; workouts, goals, the profile and the
    /// settings are records that change and go.
    public static let fitnessAndCountdown = ReplicaSchema(growOnly: [HealthSample.collection, HealthSampleSeries.collection])
}
