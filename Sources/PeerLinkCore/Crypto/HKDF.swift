import COpenSSL

/// HKDF-SHA256 (RFC 5869) in the form the Noise framework uses it: the chaining key is the
/// salt, the info is empty, and the output is two or three 32-byte blocks.
///
/// ```
/// temp_key = HMAC-SHA256(salt, ikm)                        (HKDF-Extract)
/// out1 = HMAC-SHA256(temp_key, 0x01)                       (HKDF-Expand, T(1))
/// out2 = HMAC-SHA256(temp_key, out1 ‖ 0x02)                (T(2))
/// out3 = HMAC-SHA256(temp_key, out2 ‖ 0x03)                (T(3))
/// ```
/// Each HMAC is OpenSSL's, through EVP_MAC (the shim's `peerlink_hkdf_sha256`: one context per
/// thread, keyed with temp_key once and restarted under it for each further output, then
/// scrubbed); nothing here is a hand-made primitive.
public enum HKDFSHA256 {
    /// `count` (1 to 3) output blocks of 32 bytes for `ikm` under `salt`.
    public static func derive(salt: [UInt8], ikm: [UInt8], count: Int) -> [[UInt8]] {
        precondition(count >= 1 && count <= 3, "HKDF: 1 to 3 outputs")
        // The blocks are written on the stack and copied out (an array made to be written
        // looks up its storage's type at run time: `smallUninitializedCapacity`).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32 * count) { o in
            o.initialize(repeating: 0)
            let ok = salt.withUnsafeBufferPointer { s in
                ikm.withUnsafeBufferPointer { k in
                    peerlink_hkdf_sha256(s.baseAddress, s.count, k.baseAddress, k.count, Int32(count), o.baseAddress)
                }
            }
            guard ok == 1 else { fatalError("HKDF-SHA256 through EVP_MAC failed") }
            defer { OPENSSL_cleanse(o.baseAddress, o.count) }  // keys: none left on the stack
            return (0..<count).map { Array(UnsafeBufferPointer(rebasing: o[32 * $0 ..< 32 * ($0 + 1)])) }
        }
    }
}
