
/// The session's activation, the two apps' states and whether the peer app is reachable
/// (`WCSession.isReachable`): on the watch, the watch app in the foreground (or in a
/// workout); on the phone, the watch app reported so; on both, only while a link is up and
/// the session is activated.
struct Reachability: Sendable, Equatable {
    /// `WCSession.activationState`.
    var activation: ActivationState = .notActivated
    /// This node's app state (set by the app shell).
    var local = AppState()
    /// The peer's app state as last reported on this link (nil: none yet, or no link).
    var peer: AppState?
    /// The last reachability reported to the app.
    var isReachable = false

    /// Reachability now, for `role` (`linkUp`: the session's).
    func compute(role: DeviceRole, linkUp: Bool) -> Bool {
        guard linkUp, activation == .activated else { return false }
        switch role {
        case .watch: return local.watchAppReachable
        case .phone: return peer?.watchAppReachable ?? false
        }
    }
}
