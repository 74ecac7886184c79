/// Appends integers and byte strings to a growing buffer; the building block of every encoder.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    public mutating func writeByte(_ b: UInt8) { bytes.append(b) }
    public mutating func writeBytes<C: Collection>(_ b: C) where C.Element == UInt8 { bytes.append(contentsOf: b) }

    /// Unsigned LEB128.
    public mutating func writeVarint(_ value: UInt64) {
        if value < 0x80 {
            bytes.append(UInt8(value))
            return
        }
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Zigzag then LEB128, so small negative numbers stay short.
    public mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(Self.zigzag(value))
    }

    /// Zigzag: 0, -1, 1, -2… → 0, 1, 2, 3…
    @inline(__always)
    public static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    public mutating func writeUInt16BE(_ v: UInt16) {
        bytes.append(UInt8(v >> 8)); bytes.append(UInt8(truncatingIfNeeded: v))
    }

    public mutating func writeUInt32BE(_ v: UInt32) {
        appendBytes(of: v.bigEndian)
    }

    public mutating func writeUInt64BE(_ v: UInt64) {
        appendBytes(of: v.bigEndian)
    }

    /// The bytes of an integer, as a typed buffer: appending the raw buffer went byte by byte.
    private mutating func appendBytes<T: FixedWidthInteger>(of value: T) {
        var value = value
        withUnsafePointer(to: &value) { p in
            p.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout<T>.size) {
                bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: MemoryLayout<T>.size))
            }
        }
    }

    /// A length-prefixed (varint) byte string.
    public mutating func writeLengthPrefixed<C: Collection>(_ b: C) where C.Element == UInt8 {
        writeVarint(UInt64(b.count))
        bytes.append(contentsOf: b)
    }

    /// A length-prefixed UTF-8 string.
    public mutating func writeString(_ s: String) {
        // Copied from the string's contiguous UTF-8 at once (appending the UTF-8 view as a
        // generic collection went byte by byte).
        // Read in place where the string is stored as UTF-8 (always, for native and small
        // strings): `withUTF8` needs a mutable copy, a retain and a release each call.
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { writeLengthPrefixed($0) }
        if done != nil { return }
        var s = s
        s.withUTF8 { writeLengthPrefixed($0) }
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
        let s = try readBytes(2)
        return UInt16(s[s.startIndex]) << 8 | UInt16(s[s.startIndex + 1])
    }

    public mutating func readUInt32BE() throws(ByteReaderError) -> UInt32 {
        let s = try readBytes(4)
        return s.reduce(0) { $0 << 8 | UInt32($1) }
    }

    public mutating func readUInt64BE() throws(ByteReaderError) -> UInt64 {
        let s = try readBytes(8)
        return s.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A varint length then that many bytes; the length is checked against what is left.
    public mutating func readLengthPrefixed() throws(ByteReaderError) -> ArraySlice<UInt8> {
        let n = try readVarint()
        guard n <= UInt64(remaining) else { throw .lengthTooLarge(n) }
        return try readBytes(Int(n))
    }

    public mutating func readString() throws(ByteReaderError) -> String {
        let raw = try readLengthPrefixed()
        // ASCII is valid UTF-8 as it stands: most strings (keys, ids) are, and checking that is
        // far cheaper than the general validation, which was a twentieth of the simulator's time.
        let string = raw.withUnsafeBufferPointer { b -> String? in
            var ascii = true
            for byte in b where byte >= 0x80 { ascii = false; break }
            return ascii ? String(decoding: b, as: UTF8.self) : String(validating: b, as: UTF8.self)
        }
        guard let s = string else { throw .invalidUTF8 }
        return s
    }
}
