import PeerLinkCore

/// One value for each device, read and written by role: what the simulated network keeps per
/// node (its generation, when its wire is free, its last arrival, its last tick).
///
/// A dictionary keyed by the role hashed the role on every access, several times per frame and
/// per clock step; here an access is a branch.
public struct PerRole<Value> {
    public var phone: Value
    public var watch: Value

    /// The same value for both devices.
    public init(both value: Value) {
        phone = value
        watch = value
    }

    public subscript(role: DeviceRole) -> Value {
        get { role == .phone ? phone : watch }
        set { if role == .phone { phone = newValue } else { watch = newValue } }
    }
}

extension PerRole: Sendable where Value: Sendable {}

/// A set of device roles as two flags: `contains` is a branch (a `Set<DeviceRole>` hashed the
/// role at every question).
struct RoleSet: Sendable, Equatable {
    private var phone = false
    private var watch = false

    func contains(_ role: DeviceRole) -> Bool { role == .phone ? phone : watch }

    mutating func insert(_ role: DeviceRole) {
        if role == .phone { phone = true } else { watch = true }
    }

    mutating func remove(_ role: DeviceRole) {
        if role == .phone { phone = false } else { watch = false }
    }
}
