/// A session's `LinkConfig`, held once, by reference, by the session and each of its
/// channels. They each kept the configuration inline (216 bytes apiece), which was most of
/// the session's 2 KB and so of every copy of the node's context, and the engine hands the
/// context to the app by value after every entry point (`NodeEngine.deadlines`). It never
/// changes once made, so sharing it changes nothing else.
///
/// It also keeps what the session's handshakes start from (`handshakeStart`), made from the
/// same configuration, once: the two cannot disagree.
final class SharedLinkConfig: Sendable {
    let value: LinkConfig
    /// `HandshakeMachine.handshakeStart(for: value)`: the pairing secret's prefix, or why
    /// there is none.
    let handshakeStart: Result<NoisePSKPrefix, LinkRefusal>

    init(_ value: LinkConfig) {
        self.value = value
        handshakeStart = HandshakeMachine.handshakeStart(for: value)
    }
}
