import Testing
@testable import PeerLinkCore

/// `X25519.SimulatorKeys`: the simulator's pool of ephemeral keys, whose public halves and
/// shared secrets are computed once per process. What the pool gives must be exactly what
/// OpenSSL derives from the same bytes (the static functions make fresh key objects every
/// call and never look at the pool), and keys outside the pool must be untouched by it.
@Suite struct X25519SimulatorKeysTests {
    // RFC 7748 § 6.1's Alice and Bob.
    static let alice = bytesFromHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")!
    static let bob = bytesFromHex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")!
    static let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"

    @Test(arguments: [0, 1, 17, 63])
    func aPairsKeysAreOpenSSLsKeysForTheirBytes(pair: Int) {
        let (phone, watch) = X25519.SimulatorKeys.pair(pair)
        #expect(phone != watch)
        for bytes in [phone, watch] {
            let key = X25519.PrivateKey.ephemeral(bytes)
            #expect(key.poolIndex != nil, "a pool key is served from the pool")
            #expect(key.bytes == bytes)
            #expect(key.publicKey == X25519.publicKey(privateKey: bytes))
        }
    }

    @Test(arguments: [0, 5, 33, 63])
    func aKeptSecretIsTheSecretOpenSSLDerivesFirstTimeAndAfter(pair: Int) {
        let (phone, watch) = X25519.SimulatorKeys.pair(pair)
        let p = X25519.PrivateKey.ephemeral(phone), w = X25519.PrivateKey.ephemeral(watch)
        let fresh = X25519.sharedSecret(privateKey: phone, publicKey: w.publicKey)
        #expect(fresh != nil)
        for _ in 0..<2 {
            #expect(p.sharedSecret(with: w.publicKey) == fresh)
            #expect(w.sharedSecret(with: p.publicKey) == fresh, "DH(a, B) = DH(b, A)")
        }
        let i = p.poolIndex!, j = w.poolIndex!
        #expect(X25519.SimulatorKeys.secrets.withLock { $0[X25519.SimulatorKeys.slot(i, j)] } == fresh)
    }

    @Test func keysOutsideThePoolAreMadeAndDerivedAsEver() {
        _ = X25519.SimulatorKeys.pair(3)  // the pool in use: its lookups run
        let a = X25519.PrivateKey.ephemeral(Self.alice), b = X25519.PrivateKey.ephemeral(Self.bob)
        #expect(a.poolIndex == nil && b.poolIndex == nil)
        #expect(a.sharedSecret(with: b.publicKey).map(hexString) == Self.shared)
        #expect(b.sharedSecret(with: a.publicKey).map(hexString) == Self.shared)
        // A pool key with a peer key outside the pool derives what OpenSSL derives.
        let pool = X25519.PrivateKey.ephemeral(X25519.SimulatorKeys.pair(3).phone)
        #expect(pool.sharedSecret(with: b.publicKey) == X25519.sharedSecret(privateKey: pool.bytes, publicKey: b.publicKey))
    }

    @Test func aPoolKeyRefusesAPublicKeyOfTheWrongLength() {
        let key = X25519.PrivateKey.ephemeral(X25519.SimulatorKeys.pair(9).watch)
        #expect(key.sharedSecret(with: [1, 2, 3]) == nil)
    }

    @Test func everyKeyOfThePoolIsItsOwn() {
        let keys = (0..<X25519.SimulatorKeys.pairs).map(X25519.SimulatorKeys.pair)
        #expect(Set(keys.map(\.phone) + keys.map(\.watch)).count == 2 * X25519.SimulatorKeys.pairs)
    }
}
