/// Milliseconds since 1970-01-01T00:00:00Z. Every instant in the domain is one of these:
/// integers keep traces and digests identical across runs and machines.
public typealias EpochMs = Int64

/// The earlier of two optional instants (nil when both are). For deadlines asked after every
/// entry point: `[a, b, c].compactMap { $0 }.min()` allocated two arrays a call.
@inlinable
public func earliest(_ a: EpochMs?, _ b: EpochMs?) -> EpochMs? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}

/// Which device wrote something.
///
/// `CustomStringConvertible` gives interpolation (`"\(role)"`, traces and logs) the same text
/// as before, `phone` or `watch`, without the reflection an enum's default description costs
/// (it was a twentieth of the simulator's time, two interpolations per frame).
public enum DeviceRole: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case phone
    case watch

    public var description: String { rawValue }

    /// The other device.
    public var peer: DeviceRole { self == .phone ? .watch : .phone }

    /// The replica id used as the tie-break in hybrid logical clocks (phone 1, watch 2).
    public var replicaID: UInt16 { self == .phone ? 1 : 2 }
}

/// A value that is stored as one record of the replicated state.
///
/// A record is a set of named fields, each its own last-writer-wins register, so two devices
/// editing different fields of one record never lose each other's edit.
public protocol ReplicatedRecord: Sendable {
    /// The collection name, e.g. `"workout"`.
    static var collection: String { get }
    /// The record id, unique in its collection.
    var id: String { get }
    /// The fields as property-list values.
    var fields: [String: PlistValue] { get }
    /// Rebuilds a record from its fields; nil when a required field is missing or mistyped.
    init?(id: String, fields: [String: PlistValue])
}
