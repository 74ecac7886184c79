/// A hybrid logical clock timestamp: physical milliseconds, a counter, and the replica id
/// that breaks ties. Ordered lexicographically in that order, so any two distinct writes are
/// ordered and every replica orders them the same way.
public struct HLCTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The physical part: milliseconds since 1970 (the largest wall time seen).
    public var wallMs: Int64
    /// Orders events within one `wallMs`.
    public var counter: UInt32
    /// The writer (`DeviceRole.replicaID`): the tie-break.
    public var replica: UInt16

    /// Makes a timestamp.
    public init(wallMs: Int64, counter: UInt32, replica: UInt16) {
        self.wallMs = wallMs
        self.counter = counter
        self.replica = replica
    }

    /// Before every real timestamp.
    public static let zero = HLCTimestamp(wallMs: 0, counter: 0, replica: 0)

    /// Wall time, then counter, then replica.
    public static func < (a: HLCTimestamp, b: HLCTimestamp) -> Bool {
        if a.wallMs != b.wallMs { return a.wallMs < b.wallMs }
        if a.counter != b.counter { return a.counter < b.counter }
        return a.replica < b.replica
    }

    /// `wallMs.counter@replica`.
    public var description: String { "\(wallMs).\(counter)@\(replica)" }
}

/// The hybrid logical clock of one replica (Kulkarni et al., 2014).
///
/// Invariants:
/// - Every timestamp it issues is greater than every timestamp it issued or observed before,
///   so a write made after seeing another always wins over it.
/// - It never goes backwards when the wall clock does; it waits for nothing and refuses
///   nothing: a peer clock hours ahead only pulls `wallMs` forward.
/// - A frozen wall clock only advances the counter; an exhausted counter borrows the next
///   millisecond rather than wrap.
/// The clock does no I/O: the wall time comes in with each call.
public struct HybridLogicalClock: Sendable {
    /// The replica id stamped on every timestamp this clock issues.
    public let replica: UInt16
    /// The greatest timestamp issued or observed.
    public private(set) var last: HLCTimestamp

    /// A clock for `replica` that has issued or observed `last` (default: nothing yet).
    public init(replica: UInt16, last: HLCTimestamp = .zero) {
        self.replica = replica
        self.last = HLCTimestamp(wallMs: last.wallMs, counter: last.counter, replica: replica)
    }

    /// A timestamp for a local write at wall time `wallMs`.
    public mutating func tick(wallMs: Int64) -> HLCTimestamp {
        if wallMs > last.wallMs {
            last = HLCTimestamp(wallMs: wallMs, counter: 0, replica: replica)
        } else {
            advanceCounter(from: last)
        }
        return last
    }

    /// Takes in a timestamp received from a peer, so later local writes order after it.
    public mutating func observe(_ remote: HLCTimestamp, wallMs: Int64) {
        let maxWall = max(wallMs, last.wallMs, remote.wallMs)
        if maxWall == last.wallMs && maxWall == remote.wallMs {
            advanceCounter(from: last.counter >= remote.counter ? last : remote)
        } else if maxWall == last.wallMs {
            advanceCounter(from: last)
        } else if maxWall == remote.wallMs {
            advanceCounter(from: remote)
        } else {
            last = HLCTimestamp(wallMs: maxWall, counter: 0, replica: replica)
        }
    }

    /// Raises `last` to at least `stamp` without issuing (used when loading a store).
    public mutating func raise(to stamp: HLCTimestamp) {
        if stamp > last { last = HLCTimestamp(wallMs: stamp.wallMs, counter: stamp.counter, replica: replica) }
    }

    private mutating func advanceCounter(from base: HLCTimestamp) {
        if base.counter == UInt32.max {
            // Counter exhausted: borrow the next millisecond rather than wrap.
            last = HLCTimestamp(wallMs: base.wallMs + 1, counter: 0, replica: replica)
        } else {
            last = HLCTimestamp(wallMs: base.wallMs, counter: base.counter + 1, replica: replica)
        }
    }
}
