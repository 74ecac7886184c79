import PeerLinkCore

/// The four HealthKit types the fitness app reads.
public enum HealthDataType: String, Sendable, Hashable, CaseIterable, Codable {
    case steps
    case activeEnergy
    case heartRate
    case sleepAnalysis

    /// The type that `kind` belongs to.
    public init(kind: HealthSampleKind) {
        switch kind {
        case .steps: self = .steps
        case .activeEnergy: self = .activeEnergy
        case .heartRate: self = .heartRate
        case .sleep: self = .sleepAnalysis
        }
    }

    /// The row title on the settings screen.
    public var title: LocalizedText {
        switch self {
        case .steps: L10n.fitnessSteps
        case .activeEnergy: L10n.fitnessActiveCalories
        case .heartRate: L10n.fitnessHeartRate
        case .sleepAnalysis: L10n.fitnessSleep
        }
    }
}

/// What the user answered for one type.
public enum HealthAuthorizationStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case notDetermined
    case granted
    case denied

    /// The status text on the settings screen.
    public var text: LocalizedText {
        switch self {
        case .notDetermined: L10n.fitnessAuthNotDetermined
        case .granted: L10n.fitnessAuthGranted
        case .denied: L10n.fitnessAuthDenied
        }
    }
}

/// Read authorization per type.
///
/// On a real iPhone a read denial is never revealed: a denied type simply has no data. The
/// simulator knows the answer, and every view treats `denied` and `notDetermined` like "no
/// data": a placeholder, never 0. `readable(_:)` drops the samples of unreadable types, so a
/// calculation over its result cannot show denied data.
public struct HealthAuthorization: Sendable, Hashable {
    /// The status of each type; a missing type is `notDetermined`.
    public private(set) var statuses: [HealthDataType: HealthAuthorizationStatus]

    /// Every type not yet asked (first launch).
    public static let initial = HealthAuthorization(statuses: [:])
    /// Every type granted.
    public static let allGranted = HealthAuthorization(
        statuses: Dictionary(uniqueKeysWithValues: HealthDataType.allCases.map { ($0, .granted) }))

    /// Authorization from explicit statuses; missing types are `notDetermined`.
    public init(statuses: [HealthDataType: HealthAuthorizationStatus]) {
        self.statuses = statuses
    }

    /// The status of `type`.
    public func status(_ type: HealthDataType) -> HealthAuthorizationStatus { statuses[type] ?? .notDetermined }

    /// True when samples of `type` may be shown.
    public func canRead(_ type: HealthDataType) -> Bool { status(type) == .granted }

    /// True when some type was never asked: the app shows the authorization request.
    public var needsAuthorizationRequest: Bool { HealthDataType.allCases.contains { status($0) == .notDetermined } }

    /// Records the user's answer for `type`.
    public mutating func set(_ status: HealthAuthorizationStatus, for type: HealthDataType) {
        statuses[type] = status
    }

    /// The samples whose type may be read.
    public func readable(_ samples: [HealthSample]) -> [HealthSample] {
        samples.filter { canRead(HealthDataType(kind: $0.kind)) }
    }

    // MARK: - Output

    /// `{"steps": "granted", …}` with every type.
    public var plistValue: PlistValue {
        .dictionary(Dictionary(uniqueKeysWithValues: HealthDataType.allCases.map { ($0.rawValue, .string(status($0).rawValue)) }))
    }

    /// Rebuilds from `plistValue`'s form; unknown keys are ignored, an unknown status fails.
    public init?(plistValue: PlistValue) {
        guard let d = plistValue.dictionaryValue else { return nil }
        var statuses: [HealthDataType: HealthAuthorizationStatus] = [:]
        for (key, value) in d {
            guard let type = HealthDataType(rawValue: key) else { continue }
            guard let status = value.stringValue.flatMap(HealthAuthorizationStatus.init(rawValue:)) else { return nil }
            statuses[type] = status
        }
        self.init(statuses: statuses)
    }

    /// The settings screen's section: a heading and one "type: status" line per type.
    public func text(_ language: AppLanguage) -> String {
        let lines = HealthDataType.allCases.map { "\($0.title(language)): \(status($0).text(language))" }
        return ([L10n.fitnessHealthKitStatus(language)] + lines).joined(separator: "\n")
    }
}
