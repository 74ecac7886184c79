/// A `LinkConfig` held by reference. The session and five of its channels each kept the
/// configuration inline (216 bytes apiece), which was most of the session's 2 KB and so of
/// every copy of the node's context, and the engine hands the context to the app by value
/// after every entry point (`NodeEngine.deadlines`). It never changes once made, so holding
/// it by reference changes nothing else.
///
/// The session's own also keeps what its handshakes start from (`handshakePrefix`, made once
/// from the pairing secret); a channel's has none.
final class SharedLinkConfig: Sendable {
    let value: LinkConfig
    /// `NoisePSKPrefix` of the pairing secret; nil without a usable secret, or in a channel's.
    let handshakePrefix: NoisePSKPrefix?

    init(_ value: LinkConfig, handshakePrefix: NoisePSKPrefix? = nil) {
        self.value = value
        self.handshakePrefix = handshakePrefix
    }
}
