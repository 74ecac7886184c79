import Testing
@testable import PeerLinkCore

/// The Noise handshake and its primitives against published vectors: if these hold, a peer
/// built on any conforming Noise library interoperates with PeerLink's handshake.
@Suite("Noise and its primitives against published vectors")
struct NoiseVectorTests {
    static func hex(_ s: String) -> [UInt8] { bytesFromHex(s)! }

    /// One entry of the `cacophony` test vectors (as shipped in the `snow` Noise library,
    /// `tests/vectors/cacophony.txt`): fixed keys, prologue and payloads, and the expected
    /// message bytes — two handshake messages, then four transport messages, alternating
    /// initiator and responder.
    struct Cacophony {
        var cipher: AEADCipher
        var handshakeHash: String
        var messages: [(payload: String, ciphertext: String)]
    }

    static let prologue = hex("4a6f686e2047616c74")
    static let psk = hex("54686973206973206d7920417573747269616e20706572737065637469766521")
    static let initiatorEphemeral = hex("893e28b9dc6ca8d611ab664754b8ceb7bac5117349a4439a6b0569da977c464a")
    static let responderEphemeral = hex("bbdb4cdbd309f1a1f2e1456967fe288cadd6f712d65dc7b7793d5e63da6b375b")

    static let vectors: [Cacophony] = [
        Cacophony(cipher: .chaChaPoly, handshakeHash: "f4d03dc34495c95729ea6de9e1b59004b59733102488b3e24bc441e0be208eaf", messages: [
            ("4c756477696720766f6e204d69736573", "ca35def5ae56cec33dc2036731ab14896bc4c75dbb07a61f879f8e3afa4c794479b962b8aff8485742ac32f905ba45369e2465fb59e138a93d67a0d1266b6a54"),
            ("4d757272617920526f746862617264", "95ebc60d2b1fa672c1f46a8aa265ef51bfe38e7ccb39ec5be34069f144808843d6062704d5a9c422a8e834423f8c1feada7e8d0d910a1a2cd030fb584221e3"),
            ("462e20412e20486179656b", "e632c3763d7669067383433197a3baddf146e9e70ad4b4e9e59e0f"),
            ("4361726c204d656e676572", "64c6bee32ea91c8474bb4c21d7a700109ad45af77b29764ba5eb1e"),
            ("4a65616e2d426170746973746520536179", "e2fa0bed0603b62d3ccac2ecabbf3fe33f3e86514909b323361626266cb2471cc8"),
            ("457567656e2042f6686d20766f6e2042617765726b", "0c01dc9cec1fe4ddd692e8dd32188aa351088dc91183639a53b57aa4692b5ebdef8b8ca111"),
        ]),
        Cacophony(cipher: .aesGCM, handshakeHash: "9f3b1f9afd7767767b5b9d1069844a6154fdbdcc36dfb3e31c0fffc5c973d530", messages: [
            ("4c756477696720766f6e204d69736573", "ca35def5ae56cec33dc2036731ab14896bc4c75dbb07a61f879f8e3afa4c79447c37a89fc17813788d30df2d59501d6066f5f8aecc3406bbd9829f2d24a531b1"),
            ("4d757272617920526f746862617264", "95ebc60d2b1fa672c1f46a8aa265ef51bfe38e7ccb39ec5be34069f1448088432f29d79368ef9de4e1ae7a362fb05bf0ad668e026bf5714554497b3a720461"),
            ("462e20412e20486179656b", "7c01e898a6201f36aecee532e29cd0b7f8ffa29d3366ad0dce39a6"),
            ("4361726c204d656e676572", "a9ff535aace3db6a1da1a7fb00fe2de2622bb373abad9fb42c00e0"),
            ("4a65616e2d426170746973746520536179", "6cfc49a3e65472edc2d0152abe5ce950170a8a47c959f30bd48b5f0aacf29adbfd"),
            ("457567656e2042f6686d20766f6e2042617765726b", "9bc86e6d974ed21ba04604a94aa68de21677eb409ead070c0cd569b069ee19ba142aa4c1a9"),
        ]),
    ]

    @Test(arguments: [AEADCipher.chaChaPoly, .aesGCM])
    func nnpsk0HandshakeAndTransportMatchTheCacophonyVector(cipher: AEADCipher) throws {
        let v = Self.vectors.first { $0.cipher == cipher }!
        var i = NoiseHandshake(isInitiator: true, psk: Self.psk, ephemeralPrivateKey: Self.initiatorEphemeral, prologue: Self.prologue, cipher: cipher)
        var r = NoiseHandshake(isInitiator: false, psk: Self.psk, ephemeralPrivateKey: Self.responderEphemeral, prologue: Self.prologue, cipher: cipher)
        let m1 = try i.writeFirstMessage(payload: Self.hex(v.messages[0].payload))
        #expect(hexString(m1) == v.messages[0].ciphertext)
        #expect(hexString(try r.readFirstMessage(m1)) == v.messages[0].payload)
        let (m2, responderKeys) = try r.writeSecondMessage(payload: Self.hex(v.messages[1].payload))
        #expect(hexString(m2) == v.messages[1].ciphertext)
        let (p2, initiatorKeys) = try i.readSecondMessage(m2)
        #expect(hexString(p2) == v.messages[1].payload)
        #expect(hexString(initiatorKeys.handshakeHash) == v.handshakeHash)
        #expect(responderKeys.handshakeHash == initiatorKeys.handshakeHash)
        #expect(initiatorKeys.sending == responderKeys.receiving && initiatorKeys.receiving == responderKeys.sending)
        // Transport: EncryptWithAd(zerolen, payload) with each side's CipherState, n = 0, 1.
        for (k, m) in v.messages.dropFirst(2).enumerated() {
            let fromInitiator = k % 2 == 0
            let key = fromInitiator ? initiatorKeys.sending : responderKeys.sending
            let n = UInt64(k / 2)
            let sealed = AEADKey(cipher, key: key, encrypting: true).seal(nonce: n, Self.hex(m.payload))
            #expect(hexString(sealed) == m.ciphertext, "transport message \(k + 2)")
            let opened = AEADKey(cipher, key: key, encrypting: false).open(nonce: n, sealed)
            #expect(opened.map(hexString) == m.payload)
        }
    }

    @Test func aFirstMessageUnderAnotherPreSharedKeyDoesNotAuthenticate() throws {
        var i = NoiseHandshake(isInitiator: true, psk: [UInt8](repeating: 1, count: 32), ephemeralPrivateKey: Self.initiatorEphemeral, prologue: [], cipher: .chaChaPoly)
        var r = NoiseHandshake(isInitiator: false, psk: [UInt8](repeating: 2, count: 32), ephemeralPrivateKey: Self.responderEphemeral, prologue: [], cipher: .chaChaPoly)
        let m1 = try i.writeFirstMessage()
        #expect(throws: NoiseHandshake.Failure.authenticationFailed) { try r.readFirstMessage(m1) }
    }

    @Test func anotherPrologueDoesNotAuthenticate() throws {
        var i = NoiseHandshake(isInitiator: true, psk: Self.psk, ephemeralPrivateKey: Self.initiatorEphemeral, prologue: Array("PeerLink protocol 1".utf8), cipher: .chaChaPoly)
        var r = NoiseHandshake(isInitiator: false, psk: Self.psk, ephemeralPrivateKey: Self.responderEphemeral, prologue: Array("PeerLink protocol 2".utf8), cipher: .chaChaPoly)
        #expect(throws: NoiseHandshake.Failure.authenticationFailed) { try r.readFirstMessage(try i.writeFirstMessage()) }
    }

    /// RFC 7748 § 6.1: Alice's and Bob's keys and their shared secret.
    @Test func x25519MatchesRFC7748() {
        let a = Self.hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
        let b = Self.hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
        #expect(hexString(X25519.publicKey(privateKey: a)) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(hexString(X25519.publicKey(privateKey: b)) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(X25519.sharedSecret(privateKey: a, publicKey: X25519.publicKey(privateKey: b)).map(hexString) == shared)
        #expect(X25519.sharedSecret(privateKey: b, publicKey: X25519.publicKey(privateKey: a)).map(hexString) == shared)
        // A low-order point gives an all-zero secret: refused.
        #expect(X25519.sharedSecret(privateKey: a, publicKey: [UInt8](repeating: 0, count: 32)) == nil)
    }

    /// RFC 5869 test case 1 (a salt; its info left empty, as Noise has none): T(1), T(2) and
    /// T(3) are the HMACs RFC 5869 defines, each computed here with `HMACSHA256` alone.
    @Test func hkdfOutputsAreTheRFCsChainOfHMACs() {
        let salt = Self.hex("000102030405060708090a0b0c"), ikm = [UInt8](repeating: 0x0b, count: 22)
        let prk = HMACSHA256.mac(key: salt, message: ikm)
        #expect(hexString(prk) == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")  // RFC 5869 A.1's PRK
        let t1 = HMACSHA256.mac(key: prk, message: [1])
        let t2 = HMACSHA256.mac(key: prk, message: t1 + [2])
        let t3 = HMACSHA256.mac(key: prk, message: t2 + [3])
        #expect(HKDFSHA256.derive(salt: salt, ikm: ikm, count: 3) == [t1, t2, t3])
        #expect(HKDFSHA256.derive(salt: salt, ikm: ikm, count: 2) == [t1, t2])
        #expect(HKDFSHA256.derive(salt: salt, ikm: [], count: 1) == [HMACSHA256.mac(key: HMACSHA256.mac(key: salt, message: []), message: [1])])
    }

    /// A prefix, made once and used again and again (a session makes one for all its
    /// handshakes), starts each handshake as the specification's steps do, written out here
    /// one by one on a bare symmetric state (`Initialize`, `MixHash(prologue)`, the `psk`
    /// token's `MixKeyAndHash`, then the `e` token's `MixHash` and `MixKey` and the payload's
    /// `EncryptAndHash`): the first message and the final keys are the same, for both ciphers.
    @Test(arguments: AEADCipher.allCases)
    func aPrefixMadeOnceStartsEveryHandshakeAsTheSpecificationDoes(cipher: AEADCipher) throws {
        let prefix = NoisePSKPrefix(psk: Self.psk, prologue: Self.prologue, cipher: cipher)
        for round in 0..<3 {
            let ie = [UInt8](repeating: UInt8(round + 1), count: 32), re = [UInt8](repeating: UInt8(round + 40), count: 32)
            var initiator = NoiseHandshake(isInitiator: true, prefix: prefix, ephemeralPrivateKey: ie)
            let m1 = try initiator.writeFirstMessage(payload: [7])

            var spec = NoiseSymmetricState(protocolName: NoiseHandshake.protocolName(cipher), cipher: cipher)
            spec.mixHash(Self.prologue)
            spec.mixKeyAndHash(Self.psk)
            let ePublic = X25519.PrivateKey(ie).publicKey
            spec.mixHash(ePublic)
            spec.mixKey(ePublic)
            #expect(m1 == ePublic + spec.encryptAndHash([7]), "\(cipher), round \(round)")

            var responder = NoiseHandshake(isInitiator: false, prefix: prefix, ephemeralPrivateKey: re)
            #expect(try responder.readFirstMessage(m1) == [7])
            let (m2, responderKeys) = try responder.writeSecondMessage()
            let keys = try initiator.readSecondMessage(m2).keys
            #expect(keys.sending == responderKeys.receiving && keys.receiving == responderKeys.sending, "\(cipher), round \(round)")
        }
    }

    /// The session's prefix is its pairing secret's under its own cipher; a node without a
    /// usable secret has none.
    @Test(arguments: AEADCipher.allCases)
    func theSessionsPrefixIsItsPairingSecrets(cipher: AEADCipher) {
        let secret = [UInt8](repeating: 9, count: LinkConfig.pairingSecretBytes)
        var config = LinkConfig(role: .watch, pairingSecret: secret)
        config.cipher = cipher
        let expected = NoisePSKPrefix(psk: secret, prologue: LinkSession.noisePrologue, cipher: cipher)
        #expect((try? HandshakeMachine.handshakeStart(for: config).get()) == expected)
        #expect((try? LinkSession(config: config, persistent: LinkPersistent(incarnation: 1), seed: 1).sharedConfig.handshakeStart.get()) == expected)
        for other in AEADCipher.allCases where other != cipher {
            #expect(NoisePSKPrefix(psk: secret, prologue: LinkSession.noisePrologue, cipher: other) != expected)
        }
        #expect((try? HandshakeMachine.handshakeStart(for: LinkConfig(role: .watch, pairingSecret: nil)).get()) == nil)
        #expect((try? HandshakeMachine.handshakeStart(for: LinkConfig(role: .watch, pairingSecret: [1, 2, 3])).get()) == nil)
    }

    /// RFC 5869 test case 3 (empty salt and info): the first 42 bytes of T(1) ‖ T(2).
    @Test func hkdfMatchesRFC5869() {
        let out = HKDFSHA256.derive(salt: [], ikm: [UInt8](repeating: 0x0b, count: 22), count: 2)
        #expect(hexString((out[0] + out[1]).prefix(42)) == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }
}
