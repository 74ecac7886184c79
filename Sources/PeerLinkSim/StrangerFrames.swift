import PeerLinkCore

/// What an attacker on the same machine sends: frames the session must refuse. They belong to
/// the simulation (the scenario runner's `stranger connects`, the fuzzers), not to the session.
public enum StrangerFrames {
    /// The bytes a stranger sends when it tries to pair without the secret: a first Noise
    /// message made with `wrongSecret` as pre-shared key (and `ephemeralKey`), then a sealed
    /// record it cannot have keys for, claiming to be the `auth`. A phone MUST refuse the
    /// first message with a logged reason and send it nothing but the refusal. The scenario
    /// runner's `stranger connects` step sends these to the phone.
    public static func attempt(ephemeralKey: [UInt8], wrongSecret: [UInt8]) -> [UInt8] {
        precondition(ephemeralKey.count == X25519.keyBytes && wrongSecret.count == LinkConfig.pairingSecretBytes, "32-byte keys")
        var noise = NoiseHandshake(isInitiator: true, psk: wrongSecret, ephemeralPrivateKey: ephemeralKey, prologue: LinkSession.noisePrologue,
                                   cipher: LinkConfig(role: .watch, pairingSecret: nil).cipher)
        let hello = try! noise.writeFirstMessage()  // a fresh state's first message cannot fail
        // Without the phone's answer (and the right secret) no key is known: any sealed record
        // is made up, as this one is.
        let madeUp = [UInt8](repeating: 0x5A, count: LinkSession.sealedSessionInfoBytes)
        return RecordEncoder.encode(.hello, hello) + RecordEncoder.encode(.sealed, madeUp)
    }
}
