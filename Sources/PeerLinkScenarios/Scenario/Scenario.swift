import PeerLinkCore
import PeerLinkSim

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
    /// The workload a sweep of this scenario mixes in (`workload NAME` in the header); nil:
    /// the default for its app (`WorkloadKind.default(for:)`).
    public var workload: WorkloadKind? = nil

    /// The virtual time of the last step.
    public var endMs: EpochMs { steps.last?.atMs ?? startMs }
}

/// Where a step came from, for `file:line:col:` messages.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
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
    /// `expect always …`: an expectation no fault can change, which sweeps keep (checked once
    /// the nodes have recovered, see `SeedSweep`).
    public var always = false
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
    /// A node command that must be refused (its error text is shown in the report).
    case expectRefusal(DeviceRole, NodeCommand)
    /// A change to the link's faults.
    case link(LinkFaultChange)
    /// `kill -9` of a node (it stays down until `restart`).
    case kill(DeviceRole)
    /// Starts a killed node again over its store.
    case restart(DeviceRole)
    /// A change to a node's wall clock.
    case clock(DeviceRole, ClockChange)
    /// Kills the node, writes random bytes into its store file, and restarts it.
    case corruptStore(DeviceRole)
    /// A stranger connects straight to the phone and tries to pair with the wrong secret.
    case stranger
    /// Kills the node, cuts the tail off its write-ahead log (the last commits are lost, as
    /// after a torn write), and restarts it: the store is intact but older than what the
    /// node had acknowledged.
    case rollbackStore(DeviceRole)
    /// Kills the node, changes bytes in the part of its partial incoming file that it has
    /// committed, and restarts it; armed until the node holds such a file (`ScenarioRunner`).
    case damagePartialFile(DeviceRole)
    /// An operation of a sweep's workload (`SeedSweep`).
    case workload(WorkloadOp)
    /// The workload's reference model checked against both nodes (after the recovery).
    case checkWorkload
}

/// A change to the link faults (`link …` steps).
public enum LinkFaultChange: Sendable, Equatable {
    case down, up, reset, clear
    case latency(Int64, jitterMs: Int64)
    case bandwidth(Int64?)
    case loss(Double), duplicate(Double), reorder(Double)
    /// A relay flips one byte of a record body in this percentage of records.
    case tamper(Double)
    case slice(Int?)
    case closeAfter(Int64?)

    /// Applies the change to the current faults.
    public func apply(to f: inout LinkFaults) {
        switch self {
        case .down: f.down = true
        case .up: f.down = false
        case .reset: break
        case .clear: f = LinkFaults()
        case .latency(let l, let j): f.latencyMs = l; f.jitterMs = j
        case .bandwidth(let b): f.bandwidthBytesPerSecond = b
        case .loss(let p): f.lossPercent = p
        case .duplicate(let p): f.duplicatePercent = p
        case .reorder(let p): f.reorderPercent = p
        case .tamper(let p): f.tamperPercent = p
        case .slice(let n): f.sliceBytes = n
        case .closeAfter(let n): f.closeAfterBytes = n
        }
    }

    /// The change that undoes this one (for `… for DURATION`).
    public var inverse: LinkFaultChange? {
        switch self {
        case .down: .up
        case .up, .reset, .clear: nil
        case .latency: .latency(0, jitterMs: 0)
        case .bandwidth: .bandwidth(nil)
        case .loss: .loss(0)
        case .duplicate: .duplicate(0)
        case .reorder: .reorder(0)
        case .tamper: .tamper(0)
        case .slice: .slice(nil)
        case .closeAfter: .closeAfter(nil)
        }
    }
}

/// A change to a node's wall clock (`clock ROLE …` steps). The monotonic clock that drives
/// timers is never touched: only the wall time the node stamps writes and reads days from.
public enum ClockChange: Sendable, Equatable {
    /// Jumps the wall clock by this much (negative: back).
    case bump(Int64)
    /// The wall clock runs fast (positive) or slow by this many parts per million.
    case drift(ppm: Int64)
    /// The wall clock stops / starts again.
    case freeze, unfreeze
    /// Back to true time.
    case reset
}
