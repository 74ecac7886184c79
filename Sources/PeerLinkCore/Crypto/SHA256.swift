import COpenSSL

/// SHA-256 through OpenSSL's EVP interface; incremental so large files hash as they stream.
public struct SHA256: ~Copyable {
    private let ctx: OpaquePointer

    /// The digest length in bytes.
    public static let byteCount = 32

    public init() {
        guard let ctx = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed: out of memory") }
        guard EVP_DigestInit_ex(ctx, Self.fetched, nil) == 1 else { fatalError("EVP_DigestInit_ex(sha256) failed") }
        self.ctx = ctx
    }

    /// The provider's SHA-256, fetched once. Given the built-in `EVP_sha256()` instead,
    /// OpenSSL 3 fetches an implementation again at every `EVP_DigestInit_ex` (about 3,300
    /// instructions under callgrind, and each Noise `MixHash` starts a digest); as with the
    /// ciphers (`AEADCipher.evp`). `nonisolated(unsafe)`: a fetched EVP_MD is immutable and
    /// OpenSSL shares it between threads; it is fetched once and never freed.
    nonisolated(unsafe) static let fetched: OpaquePointer = {
        guard let md = EVP_MD_fetch(nil, "SHA256", nil) else { fatalError("EVP_MD_fetch(SHA256) failed") }
        return md
    }()

    deinit { EVP_MD_CTX_free(ctx) }

    public mutating func update<C: ContiguousCollection>(_ bytes: C) where C.Element == UInt8 {
        bytes.withContiguousStorage { buf in
            _ = EVP_DigestUpdate(ctx, buf.baseAddress, buf.count)
        }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        _ = EVP_DigestUpdate(ctx, bytes.baseAddress, bytes.count)
    }

    public consuming func finish() -> [UInt8] {
        [UInt8](smallUninitializedCapacity: Self.byteCount) { out, initialized in
            out.initialize(repeating: 0)
            var len: UInt32 = 0
            _ = EVP_DigestFinal_ex(ctx, out.baseAddress, &len)
            initialized = Self.byteCount
        }
    }

    /// The digest of `bytes` in one call.
    public static func hash<C: ContiguousCollection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var h = SHA256()
        h.update(bytes)
        return h.finish()
    }
}

/// A collection whose elements are stored contiguously (Array, ArraySlice, ContiguousArray).
public protocol ContiguousCollection: Collection {
    func withContiguousStorage<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R
}

extension Array: ContiguousCollection {
    public func withContiguousStorage<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer(body)
    }
}

extension ArraySlice: ContiguousCollection {
    public func withContiguousStorage<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer(body)
    }
}

/// Lower-case hexadecimal, two digits a byte.
public func hexString<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0x0F)]) }
    return String(decoding: out, as: UTF8.self)
}

/// Parses lower- or upper-case hexadecimal; nil on an odd length or a non-hex digit.
public func bytesFromHex(_ s: String) -> [UInt8]? {
    let u = Array(s.utf8)
    guard u.count % 2 == 0 else { return nil }
    func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    var out: [UInt8] = []
    out.reserveCapacity(u.count / 2)
    var i = 0
    while i < u.count {
        guard let hi = nibble(u[i]), let lo = nibble(u[i + 1]) else { return nil }
        out.append(hi << 4 | lo)
        i += 2
    }
    return out
}
