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
