import COpenSSL

/// HMAC-SHA256 and secure random bytes, through OpenSSL.
public enum HMACSHA256 {
    /// The MAC of `message` under `key` (32 bytes).
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var len: UInt32 = 0
        key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                _ = COpenSSL.HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &out, &len)
            }
        }
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
