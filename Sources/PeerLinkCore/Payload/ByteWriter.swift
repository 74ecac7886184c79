#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends integers and byte strings to a growing buffer; the building block of every encoder.
///
/// The bytes live in one buffer that the writer writes through a pointer: appending to an
/// array (a uniqueness and capacity check per byte, the generic path for each string) was
/// most of what encoding a record cost. A copied writer shares the buffer until either writes
/// (copy on write, as an array), and `bytes` copies the written bytes out.
public struct ByteWriter: @unchecked Sendable {
    // Unchecked: the buffer is written only through a writer that holds the only reference
    // to it (`room` copies it otherwise), so no two writers ever write the same bytes.
    private var storage: ManagedBuffer<Void, UInt8>
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes were written.
    public private(set) var count = 0

    public init(capacity: Int = 64) {
        let s = ManagedBuffer<Void, UInt8>.create(minimumCapacity: Swift.max(16, capacity)) { _ in }
        storage = s
        base = s.withUnsafeMutablePointerToElements { $0 }
        self.capacity = s.capacity
    }

    /// The bytes written so far.
    public var bytes: [UInt8] {
        withExtendedLifetime(storage) { Array(UnsafeBufferPointer(start: base, count: count)) }
    }

    /// The bytes written so far, in place (valid only inside `body`).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(start: base, count: count)) }
    }

    /// The address to write `n` more bytes at, in a buffer this writer alone holds.
    @inline(__always)
    private mutating func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(count &+ n > capacity || !isKnownUniquelyReferenced(&storage)) { grow(n) }
        return base + count
    }

    @inline(never)
    private mutating func grow(_ n: Int) {
        let needed = count + n
        let s = ManagedBuffer<Void, UInt8>.create(minimumCapacity: needed > capacity ? Swift.max(capacity * 2, needed) : capacity) { _ in }
        let p = s.withUnsafeMutablePointerToElements { $0 }
        withExtendedLifetime(storage) { p.initialize(from: base, count: count) }
        storage = s
        base = p
        capacity = s.capacity
    }

    /// Appends `b`'s bytes.
    @inline(__always)
    private mutating func raw(_ b: UnsafeBufferPointer<UInt8>) {
        guard let src = b.baseAddress, b.count > 0 else { return }
        room(b.count).initialize(from: src, count: b.count)
        count += b.count
    }

    public mutating func writeByte(_ b: UInt8) {
        room(1).pointee = b
        count += 1
    }

    public mutating func writeBytes<C: Collection>(_ b: C) where C.Element == UInt8 {
        let done: Void? = b.withContiguousStorageIfAvailable { raw($0) }
        if done != nil { return }
        let n = b.count
        let p = room(n)
        var i = 0
        for x in b {
            p[i] = x
            i += 1
        }
        count += n
    }

    /// Unsigned LEB128.
    public mutating func writeVarint(_ value: UInt64) {
        count += Self.storeVarint(value, at: room(10))
    }

    /// Writes `value` as unsigned LEB128 at `at`, which MUST have room for it (at most 10
    /// bytes); returns how many bytes it wrote. The varint loop of every writer that writes
    /// through a pointer (this one, `CanonicalEncoding.DirectWriter`, the apps' own).
    @inlinable @inline(__always)
    public static func storeVarint(_ value: UInt64, at: UnsafeMutablePointer<UInt8>) -> Int {
        var v = value
        var i = 0
        while v >= 0x80 {
            at[i] = UInt8(truncatingIfNeeded: v) | 0x80
            i += 1
            v >>= 7
        }
        at[i] = UInt8(v)
        return i + 1
    }

    /// Zigzag then LEB128, so small negative numbers stay short.
    public mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(Self.zigzag(value))
    }

    /// Zigzag: 0, -1, 1, -2… → 0, 1, 2, 3…
    @inlinable @inline(__always)
    public static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    public mutating func writeUInt16BE(_ v: UInt16) {
        let p = room(2)
        p[0] = UInt8(v >> 8)
        p[1] = UInt8(truncatingIfNeeded: v)
        count += 2
    }

    public mutating func writeUInt32BE(_ v: UInt32) {
        UnsafeMutableRawPointer(room(4)).storeBytes(of: v.bigEndian, as: UInt32.self)
        count += 4
    }

    public mutating func writeUInt64BE(_ v: UInt64) {
        UnsafeMutableRawPointer(room(8)).storeBytes(of: v.bigEndian, as: UInt64.self)
        count += 8
    }

    /// A length-prefixed (varint) byte string.
    public mutating func writeLengthPrefixed<C: Collection>(_ b: C) where C.Element == UInt8 {
        writeVarint(UInt64(b.count))
        writeBytes(b)
    }

    /// A length-prefixed UTF-8 string.
    public mutating func writeString(_ s: String) {
        // Copied from the string's contiguous UTF-8 at once, read in place where it is stored
        // as UTF-8 (always, for native and small strings).
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { b in
            writeVarint(UInt64(b.count))
            raw(b)
        }
        if done != nil { return }
        var s = s
        s.withUTF8 { b in
            writeVarint(UInt64(b.count))
            raw(b)
        }
    }
}

/// Why bytes could not be read.
public enum ByteReaderError: Error, Equatable, Sendable {
    /// The input ended before the value did.
    case truncated
    /// A varint ran past 10 bytes.
    case varintOverflow
    /// A length field exceeded the bytes left or a limit.
    case lengthTooLarge(UInt64)
    /// Bytes that are not valid UTF-8 where a string was expected.
    case invalidUTF8
    /// A structural rule was broken (bad tag, unsorted keys, nesting too deep…).
    case malformed(String)
}

/// Reads what `ByteWriter` wrote, never past the end and never trusting a length.
public struct ByteReader: Sendable {
    public let bytes: [UInt8]
    public private(set) var offset: Int

    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset >= bytes.count }

    public mutating func readByte() throws(ByteReaderError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func readBytes(_ n: Int) throws(ByteReaderError) -> ArraySlice<UInt8> {
        guard n >= 0, n <= remaining else { throw .truncated }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }

    public mutating func readVarint() throws(ByteReaderError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try readByte()
            if shift == 63 && b > 1 { throw .varintOverflow }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw .varintOverflow }
        }
    }

    public mutating func readSignedVarint() throws(ByteReaderError) -> Int64 {
        let u = try readVarint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    public mutating func readUInt16BE() throws(ByteReaderError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readBigEndian(2))
    }

    public mutating func readUInt32BE() throws(ByteReaderError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readBigEndian(4))
    }

    public mutating func readUInt64BE() throws(ByteReaderError) -> UInt64 {
        try readBigEndian(8)
    }

    /// `n` (at most 8) bytes as a big-endian integer, read in place (no slice of the array).
    private mutating func readBigEndian(_ n: Int) throws(ByteReaderError) -> UInt64 {
        guard n <= remaining else { throw .truncated }
        let start = offset
        offset += n
        return bytes.withUnsafeBufferPointer { b in
            var v: UInt64 = 0
            for i in start..<start + n { v = v << 8 | UInt64(b[i]) }
            return v
        }
    }

    /// A varint length then that many bytes; the length is checked against what is left.
    public mutating func readLengthPrefixed() throws(ByteReaderError) -> ArraySlice<UInt8> {
        let n = try readVarint()
        guard n <= UInt64(remaining) else { throw .lengthTooLarge(n) }
        return try readBytes(Int(n))
    }

    public mutating func readString() throws(ByteReaderError) -> String {
        // As `readLengthPrefixed`, read in place: a slice of the array retained and released
        // each string.
        let n = try readVarint()
        guard n <= UInt64(remaining) else { throw .lengthTooLarge(n) }
        let start = offset, count = Int(n)
        offset += count
        let string = bytes.withUnsafeBufferPointer { all in
            Self.string(validatingUTF8: UnsafeBufferPointer(rebasing: all[start..<start + count]))
        }
        guard let s = string else { throw .invalidUTF8 }
        return s
    }

    /// Steps over the next `n` bytes without reading them.
    package mutating func skip(_ n: Int) throws(ByteReaderError) {
        guard n >= 0, n <= remaining else { throw .truncated }
        offset += n
    }

    /// Steps over the next bytes when they are `expected`, byte for byte: true then, false
    /// (the reader unmoved) when they differ or fewer are left.
    package mutating func skip(ifNext expected: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = expected.count
        guard n <= remaining else { return false }
        if n > 0 {
            let same = bytes.withUnsafeBufferPointer { all in memcmp(all.baseAddress! + offset, expected.baseAddress!, n) == 0 }
            guard same else { return false }
        }
        offset += n
        return true
    }

    /// `b` as a string when it is valid UTF-8, else nil. ASCII is valid UTF-8 as it stands:
    /// most strings (keys, ids) are, and checking that is far cheaper than the general
    /// validation (generic, it looks up two types' metadata at run time on every call), which
    /// was a twentieth of the simulator's time.
    static func string(validatingUTF8 b: UnsafeBufferPointer<UInt8>) -> String? {
        var ascii = true
        for byte in b where byte >= 0x80 { ascii = false; break }
        return ascii ? String(decoding: b, as: UTF8.self) : String(validating: b, as: UTF8.self)
    }
}
