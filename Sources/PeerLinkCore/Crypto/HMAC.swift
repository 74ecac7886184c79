import COpenSSL

/// HMAC-SHA256 and secure random bytes, through OpenSSL.
public enum HMACSHA256 {
    /// The MAC of `message` under `key` (32 bytes), through OpenSSL's EVP_MAC (the shim
    /// keeps one HMAC-SHA256 context per thread, re-keyed for each MAC).
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in peerlink_hmac_sha256(k.baseAddress, k.count, m.baseAddress, m.count, o.baseAddress) }
            }
        }
        guard ok == 1 else { fatalError("HMAC-SHA256 through EVP_MAC failed") }
        return out
    }

    /// Compares two MACs in constant time.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in CRYPTO_memcmp(pa.baseAddress, pb.baseAddress, a.count) == 0 } }
    }
}

/// Cryptographically secure random bytes (OpenSSL's RAND_bytes). Only shells call this:
/// cores get their randomness injected.
public func secureRandomBytes(_ count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    guard RAND_bytes(&out, Int32(count)) == 1 else { fatalError("RAND_bytes failed") }
    return out
}
