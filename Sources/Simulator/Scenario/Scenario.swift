import PeerLink
import Shared

/// A parsed scenario: a header and timed steps, ready to run in either mode.
public struct Scenario: Sendable {
    public var name: String
    /// The file it came from (for messages).
    public var file: String
    public var startMs: EpochMs
    public var timeZone: String
    public var language: AppLanguage
    public var seed: UInt64
    public var steps: [ScenarioStep]

    /// The virtual time of the last step.
    public var endMs: EpochMs { steps.last?.atMs ?? startMs }
}

/// Where a step came from, for `file:line:col:` messages.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var description: String { "\(file):\(line):\(column)" }
}

/// One timed step.
public struct ScenarioStep: Sendable {
    public var atMs: EpochMs
    public var action: ScenarioAction
    public var location: SourceLocation
    /// The step as written (after expanding ranges), for reports.
    public var text: String
}

/// Comparison operators of expectations.
public enum ExpectOperator: String, Sendable, CaseIterable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// What a step does.
public enum ScenarioAction: Sendable {
    /// A command for one node (`watch workout start running`).
    case node(DeviceRole, NodeCommand)
    /// Both nodes hold the same replicated state and nothing is in flight.
    case expectConverged
    /// A queried value of one node compared with a literal.
    case expectValue(DeviceRole, path: [String], ExpectOperator, PlistValue)
}
