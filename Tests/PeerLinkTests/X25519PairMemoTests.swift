import Testing
import Foundation
@testable import PeerLinkCore

/// `X25519.pairsShareSecrets`: the simulator's two ends on one thread derive each handshake's
/// `ee` once. What the memo gives must be exactly what OpenSSL derives, and only to the ends
/// of the pair it was derived for.
@Suite(.serialized) struct X25519PairMemoTests {
    // RFC 7748 § 6.1's Alice and Bob, and a third key.
    static let a = bytesFromHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")!
    static let b = bytesFromHex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")!
    static let c = [UInt8](repeating: 0x42, count: 32)
    static let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"

    /// Runs `body` with the memo on (a test's body stays on its thread) and puts it back.
    func withMemo(_ on: Bool, _ body: () -> Void) {
        let was = X25519.pairsShareSecrets
        X25519.pairsShareSecrets = on
        defer { X25519.pairsShareSecrets = was }
        body()
    }

    @Test func theSecondEndTakesTheFirstEndsSecretAndItIsRFC7748s() {
        withMemo(true) {
            let alice = X25519.PrivateKey(Self.a), bob = X25519.PrivateKey(Self.b)
            #expect(alice.sharedSecret(with: bob.publicKey).map(hexString) == Self.shared)
            #expect(X25519.sharedSecretWaiting)
            #expect(bob.sharedSecret(with: alice.publicKey).map(hexString) == Self.shared)
            #expect(!X25519.sharedSecretWaiting, "taken once, then gone")
            // Asked again, it is derived again: the same bytes.
            #expect(bob.sharedSecret(with: alice.publicKey).map(hexString) == Self.shared)
        }
    }

    @Test func aKeyOfAnotherPairGetsItsOwnSecretNotTheWaitingOne() {
        withMemo(true) {
            let alice = X25519.PrivateKey(Self.a), bob = X25519.PrivateKey(Self.b), carol = X25519.PrivateKey(Self.c)
            _ = alice.sharedSecret(with: bob.publicKey)
            // Carol shares Alice's public key as her peer, but not Bob's private key.
            let ca = carol.sharedSecret(with: alice.publicKey)
            #expect(ca != nil)
            #expect(ca == X25519.sharedSecret(privateKey: Self.c, publicKey: alice.publicKey))
            #expect(ca.map(hexString) != Self.shared)
            // A low-order point is still refused.
            #expect(alice.sharedSecret(with: [UInt8](repeating: 0, count: 32)) == nil)
        }
    }

    /// Only the other end takes the secret: the end that derived it, asking again, derives
    /// again (two private keys may share a public key and differ off the curve).
    @Test func theEndThatDerivedItDoesNotTakeItBack() {
        withMemo(true) {
            let alice = X25519.PrivateKey(Self.a), bob = X25519.PrivateKey(Self.b)
            _ = alice.sharedSecret(with: bob.publicKey)
            #expect(alice.sharedSecret(with: bob.publicKey).map(hexString) == Self.shared)
            #expect(X25519.sharedSecretWaiting, "derived again, and kept again for Bob")
            _ = bob.sharedSecret(with: alice.publicKey)
            #expect(!X25519.sharedSecretWaiting)
        }
    }

    /// A thread that never turned it on (a node process's) has it off.
    @Test func offOnAFreshThread() {
        final class Box: @unchecked Sendable { var on: Bool?; var waiting: Bool? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        let t = Thread {
            box.on = X25519.pairsShareSecrets
            _ = X25519.PrivateKey(Self.a).sharedSecret(with: X25519.PrivateKey(Self.b).publicKey)
            box.waiting = X25519.sharedSecretWaiting
            done.signal()
        }
        t.start()
        #expect(done.wait(timeout: .now() + 30) == .success, "the thread did not finish within 30 s")
        #expect(box.on == false)
        #expect(box.waiting == false, "nothing kept while off")
    }

    @Test func turnedOffNothingIsKept() {
        withMemo(false) {
            let alice = X25519.PrivateKey(Self.a), bob = X25519.PrivateKey(Self.b)
            #expect(alice.sharedSecret(with: bob.publicKey).map(hexString) == Self.shared)
            #expect(!X25519.sharedSecretWaiting)
        }
    }

    /// The simulator turns it on for the thread that builds the network; a whole handshake
    /// there gives both ends the same keys as the published vector test does without it.
    @Test func bothEndsOfAHandshakeGetMatchingKeysWithTheMemo() throws {
        withMemo(true) {
            let psk = [UInt8](repeating: 7, count: 32), prologue = Array("p".utf8)
            var i = NoiseHandshake(isInitiator: true, psk: psk, ephemeralPrivateKey: Self.a, prologue: prologue, cipher: .chaChaPoly)
            var r = NoiseHandshake(isInitiator: false, psk: psk, ephemeralPrivateKey: Self.b, prologue: prologue, cipher: .chaChaPoly)
            let keys = try? { () throws -> (TransportKeys, TransportKeys) in
                _ = try r.readFirstMessage(try i.writeFirstMessage())
                let (m2, rk) = try r.writeSecondMessage()
                let (_, ik) = try i.readSecondMessage(m2)
                return (ik, rk)
            }()
            #expect(keys != nil)
            if let (ik, rk) = keys {
                #expect(ik.sending == rk.receiving && ik.receiving == rk.sending && ik.handshakeHash == rk.handshakeHash)
            }
            #expect(!X25519.sharedSecretWaiting)
        }
    }
}
