import COpenSSL

/// The AEAD ciphers PeerLink can seal with, through OpenSSL's EVP interface, with the
/// Noise framework's nonce encoding (12 bytes: 4 zero bytes, then the 64-bit counter,
/// little-endian for ChaChaPoly, big-endian for AESGCM).
public enum AEADCipher: String, Sendable, CaseIterable {
    case chaChaPoly = "ChaChaPoly"
    case aesGCM = "AESGCM"

    /// The tag appended to every ciphertext.
    public static let tagBytes = 16
    /// The key size.
    public static let keyBytes = 32

    /// The provider's implementation, fetched once: handing OpenSSL 3 its built-in cipher
    /// objects instead makes it fetch one at every context set-up (each key).
    var evp: OpaquePointer { self == .chaChaPoly ? Self.fetchedChaCha : Self.fetchedAESGCM }

    // `nonisolated(unsafe)`: a fetched EVP_CIPHER is immutable and OpenSSL shares it between
    // threads; each is fetched once and never freed.
    nonisolated(unsafe) static let fetchedChaCha: OpaquePointer = fetch("ChaCha20-Poly1305")
    nonisolated(unsafe) static let fetchedAESGCM: OpaquePointer = fetch("AES-256-GCM")

    private static func fetch(_ name: String) -> OpaquePointer {
        guard let c = EVP_CIPHER_fetch(nil, name, nil) else { fatalError("EVP_CIPHER_fetch(\(name)) failed") }
        return c
    }

    /// Whether AES-GCM sealed and opened through the provider's counter gives exactly the
    /// records of the plain path (`EVP_*Init_ex` with the whole nonce at every record), for
    /// nonces in order, out of order, across 2^64 − 1 to 0, and with a failed open between
    /// them. Checked once per process with a fixed key; false (the plain path everywhere) if
    /// anything differs, so a provider that counts otherwise costs speed, never a wrong record
    /// (and each IV the provider starts is read back and compared as well).
    static let providerCountsLikeNoise: Bool = {
        let key = (0..<keyBytes).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let counted = AEADKey(.aesGCM, key: key, encrypting: true, counted: true)
        let plain = AEADKey(.aesGCM, key: key, encrypting: true, counted: false)
        let opening = AEADKey(.aesGCM, key: key, encrypting: false, counted: true)
        for (i, nonce) in ([0, 1, 2, 9, 3, 4, 1 << 40, (1 << 40) + 1, 0xFFFF_FFFF, 0x1_0000_0000, .max - 1, .max, 0] as [UInt64]).enumerated() {
            let plaintext = (0..<(i * 7 % 40)).map { UInt8(truncatingIfNeeded: $0 &+ i) }
            let ad: [UInt8] = i % 2 == 0 ? [] : [UInt8(i), 1, 2]
            let record = counted.seal(nonce: nonce, ad: ad, plaintext)
            guard record == plain.seal(nonce: nonce, ad: ad, plaintext),
                  opening.open(nonce: nonce &+ 1, ad: ad, record) == nil,
                  opening.open(nonce: nonce, ad: ad, record) == plaintext
            else { return false }
        }
        return true
    }()

    /// Writes the 12-byte nonce for counter `n` at `iv`.
    func writeNonce(_ n: UInt64, to iv: UnsafeMutablePointer<UInt8>) {
        for i in 0..<4 { iv[i] = 0 }
        for i in 0..<8 {
            let byte = UInt8(truncatingIfNeeded: n >> (8 * UInt64(i)))
            if self == .chaChaPoly { iv[4 + i] = byte } else { iv[11 - i] = byte }
        }
    }
}

/// One AEAD key with its OpenSSL context, set up once and reused for every message (only
/// the nonce changes between calls).
///
/// `@unchecked Sendable`: the context is mutated by every call, so a key MUST be used by
/// one thread at a time; each connection's keys belong to the one engine that owns the
/// connection, and an engine runs on one thread.
public final class AEADKey: @unchecked Sendable {
    public let cipher: AEADCipher
    /// The raw key (Noise's `k`), kept for `REKEY` and for comparisons in tests.
    public let bytes: [UInt8]
    private let ctx: OpaquePointer
    private let encrypting: Bool
    /// AES-GCM through the provider's counter (`peerlink_gcm_*` in the shim): the nonce is
    /// handed over as a counter in one parameter call, and a sealing key leaves GCM started
    /// for the next counter when it reads a record's tag. False for ChaChaPoly, and for
    /// AES-GCM when the provider's counter does not give what the plain path gives
    /// (`AEADCipher.providerCountsLikeNoise`).
    private let counted: Bool
    /// A counted sealing key's next nonce, with which GCM is already started (nil: none).
    private var started: UInt64?

    /// A key for sealing (`encrypting`) or for opening.
    public convenience init(_ cipher: AEADCipher, key: [UInt8], encrypting: Bool) {
        self.init(cipher, key: key, encrypting: encrypting, counted: cipher == .aesGCM && AEADCipher.providerCountsLikeNoise)
    }

    /// A key that hands AES-GCM its nonces through the provider's counter (`counted`) or
    /// through `EVP_*Init_ex` at every record (the plain path): both give the same records.
    init(_ cipher: AEADCipher, key: [UInt8], encrypting: Bool, counted: Bool) {
        precondition(key.count == AEADCipher.keyBytes, "an AEAD key is \(AEADCipher.keyBytes) bytes")
        precondition(!counted || cipher == .aesGCM, "only AES-GCM has the provider's counter")
        guard let c = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new failed: out of memory") }
        let ok = key.withUnsafeBufferPointer { k in
            encrypting ? EVP_EncryptInit_ex(c, cipher.evp, nil, k.baseAddress, nil) : EVP_DecryptInit_ex(c, cipher.evp, nil, k.baseAddress, nil)
        }
        guard ok == 1 else { fatalError("EVP cipher init (\(cipher)) failed") }
        // An opening key whose provider will not take the fixed field opens the plain way.
        let countedHere = counted && (encrypting || peerlink_gcm_open_fixed(c) == 1)
        if counted && !countedHere { ERR_clear_error() }
        self.cipher = cipher
        self.bytes = key
        self.ctx = c
        self.encrypting = encrypting
        self.counted = countedHere
    }

    deinit { EVP_CIPHER_CTX_free(ctx) }

    /// Encrypts `plaintext` with counter `nonce` and associated data `ad` into `out`, which
    /// MUST hold `plaintext.count + 16` bytes (ciphertext then tag). `out` may start at
    /// `plaintext` (in place).
    public func seal(nonce: UInt64, ad: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count == plaintext.count + AEADCipher.tagBytes, "seal: the output must hold the plaintext and the tag")
        seal(nonce: nonce, ad: ad, plaintext: plaintext, trailer: nil, into: out.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// Encrypts `plaintext ‖ trailer` (one byte more) into `out`, which MUST hold
    /// `plaintext.count + 1 + 16` bytes: the two parts need not lie together. The plaintext
    /// is moved to the start of `out` and encrypted there, so it may lie anywhere: apart from
    /// `out`, at its start (in place), or overlapping it.
    public func seal(nonce: UInt64, plaintext: UnsafeRawBufferPointer, trailer: UInt8, into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count == plaintext.count + 1 + AEADCipher.tagBytes, "seal: the output must hold the plaintext, the trailer and the tag")
        seal(nonce: nonce, ad: UnsafeRawBufferPointer(start: nil, count: 0), plaintext: plaintext, trailer: trailer,
             into: out.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    private func seal(nonce: UInt64, ad: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer, trailer: UInt8?, into o: UnsafeMutablePointer<UInt8>) {
        precondition(encrypting, "seal with an opening key")
        var len: Int32 = 0
        if !counted || started != nonce { startSealing(nonce) }
        if ad.count > 0 {
            guard EVP_EncryptUpdate(ctx, nil, &len, ad.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(ad.count)) == 1 else { fatalError("EVP_EncryptUpdate(ad) failed") }
        }
        var written = 0
        if let t = trailer {
            // The plaintext then the trailer, laid side by side in `out` and encrypted there in
            // one call (a second call for the one byte cost as much as the copy many times over).
            let n = plaintext.count
            if n > 0, UnsafeRawPointer(o) != plaintext.baseAddress { memmove(o, plaintext.baseAddress!, n) }
            o[n] = t
            guard EVP_EncryptUpdate(ctx, o, &len, o, Int32(n + 1)) == 1 else { fatalError("EVP_EncryptUpdate failed") }
            written = Int(len)
        } else if plaintext.count > 0 {
            guard EVP_EncryptUpdate(ctx, o, &len, plaintext.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(plaintext.count)) == 1 else { fatalError("EVP_EncryptUpdate failed") }
            written = Int(len)
        }
        guard EVP_EncryptFinal_ex(ctx, o + written, &len) == 1 else { fatalError("EVP_EncryptFinal_ex failed") }
        written += Int(len)
        precondition(written == plaintext.count + (trailer == nil ? 0 : 1), "AEAD ciphertext length")
        if counted {
            // The tag, and GCM started for the next nonce in the same call; if the provider did
            // not start it with that nonce, the next record starts afresh; if the call failed,
            // the tag is read the plain way.
            let result = peerlink_gcm_tag_and_next(ctx, o + written, nonce &+ 1)
            started = result == 1 ? nonce &+ 1 : nil
            if result >= 0 { return }
            ERR_clear_error()
        }
        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, Int32(AEADCipher.tagBytes), o + written) == 1 else { fatalError("EVP_CTRL_AEAD_GET_TAG failed") }
    }

    /// The nonce a counted sealing key has GCM started with for its next record (nil: none):
    /// for tests, which check that records in order take the short path.
    var startedNonce: UInt64? { started }

    /// Starts the cipher for the record with counter `nonce`: through the provider's counter
    /// when counted (checking that it started with `nonce`), else with `EVP_EncryptInit_ex`.
    private func startSealing(_ nonce: UInt64) {
        started = nil
        let ok = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 12) { tmp -> Bool in
            let iv = tmp.baseAddress!
            cipher.writeNonce(nonce, to: iv)
            if counted {
                if peerlink_gcm_start(ctx, iv, nonce) == 1 { return true }
                ERR_clear_error()
            }
            // The plain path also when the provider's counter did not start with `nonce`:
            // this sets the whole IV again, so the record is sealed under the right nonce.
            return EVP_EncryptInit_ex(ctx, nil, nil, nil, iv) == 1
        }
        guard ok else { fatalError("EVP_EncryptInit_ex failed") }
    }

    /// Decrypts `ciphertext` (ciphertext then 16-byte tag) into `out` (`ciphertext.count - 16`
    /// bytes; it may start at `ciphertext`). Returns false when the tag does not verify: then
    /// `out` holds bytes that MUST NOT be used.
    public func open(nonce: UInt64, ad: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Bool {
        precondition(!encrypting, "open with a sealing key")
        guard ciphertext.count >= AEADCipher.tagBytes, out.count == ciphertext.count - AEADCipher.tagBytes else { return false }
        let c = ciphertext.baseAddress!.assumingMemoryBound(to: UInt8.self)
        // One scratch block: the nonce, a copy of the tag (decrypting in place overwrites the
        // bytes before it only, but the copy keeps that reasoning out of the way), and room
        // for the final call's (empty) output when there is no plaintext.
        let ok = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { tmp -> Bool in
            let iv = tmp.baseAddress!, tag = iv + 12, spare = iv + 28
            tag.update(from: c + (ciphertext.count - AEADCipher.tagBytes), count: AEADCipher.tagBytes)
            var len: Int32 = 0
            if counted {
                // The tag and the counter in one call (the fixed field was set once).
                guard peerlink_gcm_expect(ctx, tag, nonce) == 1 else { return false }
            } else {
                cipher.writeNonce(nonce, to: iv)
                guard EVP_DecryptInit_ex(ctx, nil, nil, nil, iv) == 1 else { return false }
            }
            if ad.count > 0 {
                guard EVP_DecryptUpdate(ctx, nil, &len, ad.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(ad.count)) == 1 else { return false }
            }
            var end = spare
            if out.count > 0 {
                let o = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                guard EVP_DecryptUpdate(ctx, o, &len, c, Int32(out.count)) == 1 else { return false }
                end = o + Int(len)
            }
            if !counted {
                guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(AEADCipher.tagBytes), tag) == 1 else { return false }
            }
            return EVP_DecryptFinal_ex(ctx, end, &len) == 1
        }
        if !ok { ERR_clear_error() }
        return ok
    }

    // MARK: - Arrays

    /// `seal` of whole arrays: ciphertext ‖ tag.
    public func seal(nonce: UInt64, ad: [UInt8] = [], _ plaintext: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: plaintext.count + AEADCipher.tagBytes)
        ad.withUnsafeBytes { a in plaintext.withUnsafeBytes { p in out.withUnsafeMutableBytes { seal(nonce: nonce, ad: a, plaintext: p, into: $0) } } }
        return out
    }

    /// `open` of whole arrays: the plaintext, or nil when it does not authenticate.
    public func open(nonce: UInt64, ad: [UInt8] = [], _ ciphertext: [UInt8]) -> [UInt8]? {
        guard ciphertext.count >= AEADCipher.tagBytes else { return nil }
        var out = [UInt8](repeating: 0, count: ciphertext.count - AEADCipher.tagBytes)
        let ok = ad.withUnsafeBytes { a in ciphertext.withUnsafeBytes { c in out.withUnsafeMutableBytes { open(nonce: nonce, ad: a, ciphertext: c, into: $0) } } }
        return ok ? out : nil
    }
}
