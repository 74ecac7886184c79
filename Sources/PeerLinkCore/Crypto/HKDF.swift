/// HKDF-SHA256 (RFC 5869) in the form the Noise framework uses it: the chaining key is the
/// salt, the info is empty, and the output is two or three 32-byte blocks.
///
/// ```
/// temp_key = HMAC-SHA256(salt, ikm)                        (HKDF-Extract)
/// out1 = HMAC-SHA256(temp_key, 0x01)                       (HKDF-Expand, T(1))
/// out2 = HMAC-SHA256(temp_key, out1 ‖ 0x02)                (T(2))
/// out3 = HMAC-SHA256(temp_key, out2 ‖ 0x03)                (T(3))
/// ```
/// Each HMAC is OpenSSL's (`HMACSHA256`); nothing here is a hand-made primitive.
public enum HKDFSHA256 {
    /// `count` (2 or 3) output blocks of 32 bytes for `ikm` under `salt`.
    public static func derive(salt: [UInt8], ikm: [UInt8], count: Int) -> [[UInt8]] {
        precondition(count >= 1 && count <= 3, "HKDF: 1 to 3 outputs")
        let tempKey = HMACSHA256.mac(key: salt, message: ikm)
        var outputs: [[UInt8]] = []
        var previous: [UInt8] = []
        for i in 1...count {
            previous = HMACSHA256.mac(key: tempKey, message: previous + [UInt8(i)])
            outputs.append(previous)
        }
        return outputs
    }
}
