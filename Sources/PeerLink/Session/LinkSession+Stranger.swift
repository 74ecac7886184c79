import Shared

extension LinkSession {
    /// The bytes a stranger sends when it tries to pair without the secret: a `hello` as the
    /// watch, then an `auth` whose proof is made with `wrongSecret`. A phone MUST refuse it
    /// with a logged reason and send it nothing but its challenge and the refusal. The
    /// scenario runner's `stranger connects` step sends these to the phone.
    public static func strangerAttempt(nonce: [UInt8], wrongSecret: [UInt8]) -> [UInt8] {
        precondition(nonce.count == nonceBytes, "nonce must be \(nonceBytes) bytes")
        var hello = ByteWriter(capacity: 20)
        hello.writeByte(1)  // claims to be the watch
        hello.writeBytes(nonce)
        var auth = ByteWriter(capacity: 80)
        // The real proof covers the phone's nonce, which a stranger sending blind cannot know:
        // any proof it can make is wrong, and this one is made with the wrong secret too.
        auth.writeBytes(HMACSHA256.mac(key: wrongSecret, message: connectorLabel + nonce + nonce))
        SessionInfo(incarnation: 0x5752_4F4E_4750_4545, knownPeerIncarnation: 0, lastDelivered: 0, lastComplicationDelivered: 0,
                    contextVersionReceived: 0, lastFileDelivered: 0, appState: AppState()).encode(into: &auth)
        return FrameEncoder.encode(Frame(.hello, hello.bytes)) + FrameEncoder.encode(Frame(.auth, auth.bytes))
    }
}
