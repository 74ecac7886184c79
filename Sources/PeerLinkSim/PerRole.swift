import PeerLinkCore

/// One value for each device, read and written by role: what the simulated network keeps per
/// node (its generation, when its wire is free, its last arrival, its last tick).
///
/// A dictionary keyed by the role hashed the role on every access, several times per frame and
/// per clock step; here an access is a branch.
struct PerRole<Value> {
    var phone: Value
    var watch: Value

    /// The same value for both devices.
    init(both value: Value) {
        phone = value
        watch = value
    }

    subscript(role: DeviceRole) -> Value {
        get { role == .phone ? phone : watch }
        set { if role == .phone { phone = newValue } else { watch = newValue } }
    }
}

extension PerRole: Sendable where Value: Sendable {}
