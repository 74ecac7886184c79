
/// The keys a finished handshake gives one side: what it seals with, what it opens with,
/// and the handshake hash (which names the session).
public struct TransportKeys: Sendable, Equatable {
    public var cipher: AEADCipher
    public var sending: [UInt8]
    public var receiving: [UInt8]
    public var handshakeHash: [UInt8]
}

/// The `HandshakeState` (Noise rev. 34, § 5.3) of the pattern PeerLink uses,
/// `Noise_NNpsk0_25519_<cipher>_SHA256`:
///
/// ```
/// NNpsk0:
///   -> psk, e
///   <- e, ee
/// ```
/// The pairing secret is the pre-shared key: whoever lacks it cannot produce or read the
/// first message's encrypted payload, and every key after it. The ephemeral keys make each
/// connection's keys fresh (forward secrecy). The private ephemeral key comes from the
/// caller (the shell's randomness), so this value type stays deterministic.
///
/// Messages are the specification's byte for byte: the first is `e.public` (32 bytes) then
/// the payload sealed under the psk-derived key (payload + 16); the second is `e.public` then
/// the payload sealed under the key after `ee` (payload + 16).
public struct NoiseHandshake: Sendable, Equatable {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The message is not as long as the pattern needs.
        case malformed(String)
        /// The payload did not authenticate: the peer does not hold the same pre-shared key
        /// (or the message was changed in flight).
        case authenticationFailed
        /// The peer's ephemeral key gives no usable Diffie-Hellman result.
        case badPublicKey
        /// A message out of the pattern's order.
        case outOfOrder

        public var description: String {
            switch self {
            case .malformed(let m): "malformed handshake message: \(m)"
            case .authenticationFailed: "the handshake message did not authenticate (another pairing secret, or changed in flight)"
            case .badPublicKey: "the peer's ephemeral key is not a usable X25519 public key"
            case .outOfOrder: "handshake message out of order"
            }
        }
    }

    /// The protocol name hashed into the handshake (rev. 34, § 8).
    public static func protocolName(_ cipher: AEADCipher) -> String { "Noise_NNpsk0_25519_\(cipher.rawValue)_SHA256" }

    public let isInitiator: Bool
    var symmetric: NoiseSymmetricState
    let ephemeralPrivate: [UInt8]
    /// This side's ephemeral key, made once a message needs it (a responder makes it only
    /// after the first message authenticated: a stranger's costs no curve operation).
    var ephemeral: X25519.PrivateKey?
    /// This side's ephemeral public key (empty until a message needed it).
    public var ephemeralPublic: [UInt8] { ephemeral?.publicKey ?? [] }
    var remoteEphemeral: [UInt8]?
    /// How many of the pattern's two messages were written or read.
    var messagesDone = 0

    /// `Initialize(NNpsk0, initiator, prologue)` with the pre-shared key and this side's
    /// ephemeral private key (32 bytes; its public key is derived here).
    public init(isInitiator: Bool, psk: [UInt8], ephemeralPrivateKey: [UInt8], prologue: [UInt8], cipher: AEADCipher) {
        self.init(isInitiator: isInitiator, prefix: NoisePSKPrefix(psk: psk, prologue: prologue, cipher: cipher),
                  ephemeralPrivateKey: ephemeralPrivateKey)
    }

    /// The same, from a prefix made earlier under the same key, prologue and cipher.
    init(isInitiator: Bool, prefix: NoisePSKPrefix, ephemeralPrivateKey: [UInt8]) {
        self.isInitiator = isInitiator
        ephemeralPrivate = ephemeralPrivateKey
        symmetric = prefix.symmetric
    }

    /// The size of either message with a payload of `payloadBytes`.
    public static func messageBytes(payloadBytes: Int) -> Int { X25519.keyBytes + payloadBytes + AEADCipher.tagBytes }

    // MARK: - Message 1: -> psk, e

    /// Initiator: writes the first message.
    public mutating func writeFirstMessage(payload: [UInt8] = []) throws(Failure) -> [UInt8] {
        guard isInitiator, messagesDone == 0 else { throw .outOfOrder }
        ephemeral = X25519.PrivateKey.ephemeral(ephemeralPrivate)
        // psk: mixed in already (NoisePSKPrefix)
        symmetric.mixHash(ephemeralPublic)      // e
        symmetric.mixKey(ephemeralPublic)       //   (psk mode: MixKey(e.public_key) too)
        messagesDone = 1
        return ephemeralPublic + symmetric.encryptAndHash(payload)
    }

    /// Responder: reads the first message; returns its payload.
    public mutating func readFirstMessage(_ message: [UInt8]) throws(Failure) -> [UInt8] {
        guard !isInitiator, messagesDone == 0 else { throw .outOfOrder }
        guard message.count >= X25519.keyBytes + AEADCipher.tagBytes else { throw .malformed("\(message.count) bytes, at least \(X25519.keyBytes + AEADCipher.tagBytes) expected") }
        let re = Array(message[0..<X25519.keyBytes])
        // psk: mixed in already (NoisePSKPrefix)
        symmetric.mixHash(re)
        symmetric.mixKey(re)
        guard let payload = symmetric.decryptAndHash(Array(message[X25519.keyBytes...])) else { throw .authenticationFailed }
        remoteEphemeral = re
        messagesDone = 1
        return payload
    }

    // MARK: - Message 2: <- e, ee

    /// Responder: writes the second message; the handshake is complete.
    public mutating func writeSecondMessage(payload: [UInt8] = []) throws(Failure) -> (message: [UInt8], keys: TransportKeys) {
        guard !isInitiator, messagesDone == 1, let re = remoteEphemeral else { throw .outOfOrder }
        let e = X25519.PrivateKey.ephemeral(ephemeralPrivate)
        ephemeral = e
        symmetric.mixHash(e.publicKey)          // e
        symmetric.mixKey(e.publicKey)
        guard let dh = e.sharedSecret(with: re) else { throw .badPublicKey }
        symmetric.mixKey(dh)                    // ee
        let message = ephemeralPublic + symmetric.encryptAndHash(payload)
        messagesDone = 2
        let (i2r, r2i) = symmetric.split()
        return (message, TransportKeys(cipher: symmetric.cipher, sending: r2i, receiving: i2r, handshakeHash: symmetric.h))
    }

    /// Initiator: reads the second message; returns its payload and the transport keys.
    public mutating func readSecondMessage(_ message: [UInt8]) throws(Failure) -> (payload: [UInt8], keys: TransportKeys) {
        guard isInitiator, messagesDone == 1 else { throw .outOfOrder }
        guard message.count >= X25519.keyBytes + AEADCipher.tagBytes else { throw .malformed("\(message.count) bytes, at least \(X25519.keyBytes + AEADCipher.tagBytes) expected") }
        let re = Array(message[0..<X25519.keyBytes])
        symmetric.mixHash(re)
        symmetric.mixKey(re)
        guard let e = ephemeral, let dh = e.sharedSecret(with: re) else { throw .badPublicKey }
        symmetric.mixKey(dh)
        guard let payload = symmetric.decryptAndHash(Array(message[X25519.keyBytes...])) else { throw .authenticationFailed }
        remoteEphemeral = re
        messagesDone = 2
        let (i2r, r2i) = symmetric.split()
        return (payload, TransportKeys(cipher: symmetric.cipher, sending: i2r, receiving: r2i, handshakeHash: symmetric.h))
    }
}

/// What every handshake under one pre-shared key, prologue and cipher starts from:
/// `Initialize` (the protocol name hashed, the prologue mixed in) and the first message's
/// `psk` token (`MixKeyAndHash(psk)`), both before anything of the connection's own. The
/// session makes it once (`LinkSession`), not at every connection: these steps were about a
/// fifth of a handshake, and a simulated seed under faults opens some seventy connections.
/// It holds what the key derives, so it is kept only where the key is.
struct NoisePSKPrefix: Sendable, Equatable {
    let symmetric: NoiseSymmetricState

    init(psk: [UInt8], prologue: [UInt8], cipher: AEADCipher) {
        precondition(psk.count == 32, "a Noise pre-shared key is 32 bytes")
        var s = NoiseSymmetricState(protocolName: NoiseHandshake.protocolName(cipher), cipher: cipher)
        s.mixHash(prologue)
        s.mixKeyAndHash(psk)  // the first message's `psk` token
        symmetric = s
    }
}
