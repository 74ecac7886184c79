import COpenSSL

/// X25519 Diffie-Hellman (RFC 7748) through OpenSSL's EVP interface.
///
/// Keys are 32 raw bytes. A private key is any 32 bytes (OpenSSL clamps it, as RFC 7748
/// says); the caller supplies them (the shell's secure generator, or a seeded one in the
/// simulator), so a core computing keys stays deterministic.
public enum X25519 {
    /// The size of private keys, public keys and shared secrets.
    public static let keyBytes = 32

    /// The public key of `privateKey`.
    public static func publicKey(privateKey: [UInt8]) -> [UInt8] {
        precondition(privateKey.count == keyBytes, "an X25519 private key is \(keyBytes) bytes")
        guard let key = privateKey.withUnsafeBufferPointer({ EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nil, $0.baseAddress, keyBytes) }) else {
            fatalError("EVP_PKEY_new_raw_private_key(X25519) failed")
        }
        defer { EVP_PKEY_free(key) }
        var out = [UInt8](repeating: 0, count: keyBytes)
        var len = keyBytes
        guard EVP_PKEY_get_raw_public_key(key, &out, &len) == 1, len == keyBytes else { fatalError("EVP_PKEY_get_raw_public_key failed") }
        return out
    }

    /// The shared secret of `privateKey` and the peer's `publicKey`; nil when the public key
    /// is not usable (a low-order point gives an all-zero secret, which OpenSSL refuses).
    public static func sharedSecret(privateKey: [UInt8], publicKey: [UInt8]) -> [UInt8]? {
        guard privateKey.count == keyBytes, publicKey.count == keyBytes else { return nil }
        guard let mine = privateKey.withUnsafeBufferPointer({ EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nil, $0.baseAddress, keyBytes) }) else { return nil }
        defer { EVP_PKEY_free(mine) }
        guard let theirs = publicKey.withUnsafeBufferPointer({ EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nil, $0.baseAddress, keyBytes) }) else { return nil }
        defer { EVP_PKEY_free(theirs) }
        guard let ctx = EVP_PKEY_CTX_new(mine, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: keyBytes)
        var len = keyBytes
        guard EVP_PKEY_derive_init(ctx) == 1, EVP_PKEY_derive_set_peer(ctx, theirs) == 1,
              EVP_PKEY_derive(ctx, &out, &len) == 1, len == keyBytes else {
            ERR_clear_error()
            return nil
        }
        return out
    }
}

extension X25519 {
    /// One private key as an OpenSSL key object, made once: OpenSSL derives the public key
    /// when the object is made, so a side that needs both its public key and a shared secret
    /// pays for the derivation once (the static functions above make the object each time).
    ///
    /// `@unchecked Sendable`: the key object is only read after it is made.
    public final class PrivateKey: @unchecked Sendable, Equatable {
        public let bytes: [UInt8]
        public let publicKey: [UInt8]
        private let key: OpaquePointer
        /// Its place in `SimulatorKeys`, for a key of the simulator's pool.
        let poolIndex: Int?

        public convenience init(_ bytes: [UInt8]) { self.init(bytes, poolIndex: nil) }

        /// The key with these private bytes for one handshake: the simulator's pooled key
        /// object when they are one of its keys (made once per process), else a new one.
        package static func ephemeral(_ bytes: [UInt8]) -> PrivateKey {
            SimulatorKeys.key(bytes) ?? PrivateKey(bytes)
        }

        init(_ bytes: [UInt8], poolIndex: Int?) {
            precondition(bytes.count == keyBytes, "an X25519 private key is \(keyBytes) bytes")
            guard let k = bytes.withUnsafeBufferPointer({ EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nil, $0.baseAddress, keyBytes) }) else {
                fatalError("EVP_PKEY_new_raw_private_key(X25519) failed")
            }
            var out = [UInt8](repeating: 0, count: keyBytes)
            var len = keyBytes
            guard EVP_PKEY_get_raw_public_key(k, &out, &len) == 1, len == keyBytes else { fatalError("EVP_PKEY_get_raw_public_key failed") }
            self.bytes = bytes
            self.publicKey = out
            self.key = k
            self.poolIndex = poolIndex
        }

        deinit { EVP_PKEY_free(key) }

        /// The shared secret with the peer's `publicKey`; nil when it is not usable. For a key
        /// of the simulator's pool and a peer key of the pool, the secret derived once in this
        /// process by either of the two (`SimulatorKeys`: the same bytes).
        public func sharedSecret(with publicKey: [UInt8]) -> [UInt8]? {
            guard publicKey.count == keyBytes else { return nil }
            if let i = poolIndex, let j = SimulatorKeys.index(ofPublicKey: publicKey) {
                return SimulatorKeys.secret(i, j) { derive(with: publicKey) }
            }
            return derive(with: publicKey)
        }

        private func derive(with publicKey: [UInt8]) -> [UInt8]? {
            guard let theirs = publicKey.withUnsafeBufferPointer({ EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nil, $0.baseAddress, keyBytes) }) else { return nil }
            defer { EVP_PKEY_free(theirs) }
            guard let ctx = EVP_PKEY_CTX_new(key, nil) else { return nil }
            defer { EVP_PKEY_CTX_free(ctx) }
            var out = [UInt8](repeating: 0, count: keyBytes)
            var len = keyBytes
            guard EVP_PKEY_derive_init(ctx) == 1, EVP_PKEY_derive_set_peer(ctx, theirs) == 1,
                  EVP_PKEY_derive(ctx, &out, &len) == 1, len == keyBytes else {
                ERR_clear_error()
                return nil
            }
            return out
        }

        public static func == (a: PrivateKey, b: PrivateKey) -> Bool { a.bytes == b.bytes }
    }
}
