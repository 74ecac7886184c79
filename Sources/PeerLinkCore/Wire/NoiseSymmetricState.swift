
/// The Noise framework's `SymmetricState` (rev. 34, § 5.2) for SHA-256: the chaining key
/// `ck`, the handshake hash `h`, and the handshake's `CipherState` (`k`, `n`).
///
/// Every step is the specification's, built on OpenSSL's SHA-256, HMAC-SHA256 (`HKDFSHA256`)
/// and AEAD (`AEADKey`). Used only during the handshake; transport keys come out of `split()`.
struct NoiseSymmetricState: Sendable, Equatable {
    let cipher: AEADCipher
    private(set) var ck: [UInt8]
    private(set) var h: [UInt8]
    /// `k`: nil while empty (then `EncryptAndHash` passes the plaintext through).
    private(set) var k: [UInt8]?
    private(set) var n: UInt64 = 0

    /// `InitializeSymmetric(protocol_name)`: `h` is the name padded with zeros when it fits
    /// 32 bytes, else its SHA-256; `ck = h`; `k` empty.
    init(protocolName: String, cipher: AEADCipher) {
        self.cipher = cipher
        let name = Array(protocolName.utf8)
        h = name.count <= 32 ? name + [UInt8](repeating: 0, count: 32 - name.count) : SHA256.hash(name)
        ck = h
        k = nil
    }

    /// `MixKey(ikm)`: `ck, temp_k = HKDF(ck, ikm, 2)`; `k = temp_k`, `n = 0`.
    mutating func mixKey(_ ikm: [UInt8]) {
        let out = HKDFSHA256.derive(salt: ck, ikm: ikm, count: 2)
        ck = out[0]
        k = out[1]
        n = 0
    }

    /// `MixHash(data)`: `h = SHA-256(h ‖ data)`.
    mutating func mixHash(_ data: [UInt8]) {
        var s = SHA256()
        s.update(h)
        s.update(data)
        h = s.finish()
    }

    /// `MixKeyAndHash(ikm)`: `ck, temp_h, temp_k = HKDF(ck, ikm, 3)`; `MixHash(temp_h)`;
    /// `k = temp_k`, `n = 0`.
    mutating func mixKeyAndHash(_ ikm: [UInt8]) {
        let out = HKDFSHA256.derive(salt: ck, ikm: ikm, count: 3)
        ck = out[0]
        mixHash(out[1])
        k = out[2]
        n = 0
    }

    /// `EncryptAndHash(plaintext)`: `ENCRYPT(k, n++, h, plaintext)` (or the plaintext while
    /// `k` is empty), then `MixHash(ciphertext)`.
    mutating func encryptAndHash(_ plaintext: [UInt8]) -> [UInt8] {
        var out = plaintext
        if let k {
            out = AEADKey(cipher, key: k, encrypting: true).seal(nonce: n, ad: h, plaintext)
            n += 1
        }
        mixHash(out)
        return out
    }

    /// `DecryptAndHash(ciphertext)`: nil when it does not authenticate (then nothing changes).
    mutating func decryptAndHash(_ ciphertext: [UInt8]) -> [UInt8]? {
        var out = ciphertext
        if let k {
            guard let p = AEADKey(cipher, key: k, encrypting: false).open(nonce: n, ad: h, ciphertext) else { return nil }
            out = p
            n += 1
        }
        mixHash(ciphertext)
        return out
    }

    /// `Split()`: `temp_k1, temp_k2 = HKDF(ck, zerolen, 2)`: the initiator's sending key and
    /// the responder's.
    func split() -> (initiatorToResponder: [UInt8], responderToInitiator: [UInt8]) {
        let out = HKDFSHA256.derive(salt: ck, ikm: [], count: 2)
        return (out[0], out[1])
    }
}

extension AEADKey {
    /// Noise's default `REKEY(k)`: the first 32 bytes of `ENCRYPT(k, 2^64 − 1, zerolen, zeros)`
    /// (32 zero bytes).
    public static func rekeyed(_ cipher: AEADCipher, key: [UInt8]) -> [UInt8] {
        Array(AEADKey(cipher, key: key, encrypting: true).seal(nonce: UInt64.max, [UInt8](repeating: 0, count: 32)).prefix(32))
    }
}
