#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one byte form of a `PlistValue`: used for payload size limits, the wire and digests.
///
/// Layout: a tag byte, then the body.
/// - `0x01` string: varint byte count, UTF-8
/// - `0x02` int: zigzag varint
/// - `0x03` double: 8 bytes, IEEE-754 bits big-endian (every NaN written as 0x7FF8…0)
/// - `0x04` false, `0x05` true (no body)
/// - `0x06` date: 8 bytes, seconds since 1970 as IEEE-754 bits big-endian
/// - `0x07` data: varint byte count, bytes
/// - `0x08` array: varint element count, elements
/// - `0x09` dictionary: varint entry count, then entries sorted by the keys' UTF-8 bytes;
///   each entry is varint key length, key UTF-8, value. Keys MUST be unique and sorted.
public enum CanonicalEncoding {
    /// Nesting deeper than this is refused when decoding (arrays and dictionaries).
    public static let maxDepth = 64

    @usableFromInline enum Tag: UInt8 {
        case string = 0x01, int = 0x02, double = 0x03, falseValue = 0x04, trueValue = 0x05
        case date = 0x06, data = 0x07, array = 0x08, dictionary = 0x09
    }

    /// Encodes `value` canonically.
    public static func encode(_ value: PlistValue) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        encode(value, into: &w)
        return w.bytes
    }

    /// Appends the canonical form of `value` to `w`.
    public static func encode(_ value: PlistValue, into w: inout ByteWriter) {
        switch value {
        case .string(let s):
            w.writeByte(Tag.string.rawValue); w.writeString(s)
        case .int(let i):
            w.writeByte(Tag.int.rawValue); w.writeSignedVarint(i)
        case .double(let d):
            w.writeByte(Tag.double.rawValue); w.writeUInt64BE(canonicalBits(d))
        case .bool(let b):
            w.writeByte(b ? Tag.trueValue.rawValue : Tag.falseValue.rawValue)
        case .date(let d):
            w.writeByte(Tag.date.rawValue); w.writeUInt64BE(canonicalBits(d))
        case .data(let bytes):
            w.writeByte(Tag.data.rawValue); w.writeLengthPrefixed(bytes)
        case .array(let items):
            w.writeByte(Tag.array.rawValue); w.writeVarint(UInt64(items.count))
            for item in items { encode(item, into: &w) }
        case .dictionary(let dict):
            w.writeByte(Tag.dictionary.rawValue); w.writeVarint(UInt64(dict.count))
            if dict.count == 1, let (key, item) = dict.first {
                w.writeString(key)
                encode(item, into: &w)
                return
            }
            // Sorted as positions in the dictionary, each with its key's first eight bytes,
            // read once: almost every comparison is then one integer compare, and nothing is
            // copied or retained until the entries are written (comparing the strings' bytes
            // each time and copying (key, value) pairs were most of the encoder's time).
            var entries: [SortEntry] = []
            entries.reserveCapacity(dict.count)
            for i in dict.indices { entries.append(SortEntry(prefix: utf8Prefix(dict.keys[i]), index: i)) }
            func less(_ a: SortEntry, _ b: SortEntry) -> Bool {
                a.prefix != b.prefix ? a.prefix < b.prefix : utf8Less(dict.keys[a.index], dict.keys[b.index])
            }
            if entries.count <= 32 {
                // Insertion sort in place: the few keys of a typical dictionary cost less so than
                // through the standard sort's general machinery.
                entries.withUnsafeMutableBufferPointer { b in
                    for i in b.indices.dropFirst() {
                        let e = b[i]
                        var j = i
                        while j > 0, less(e, b[j - 1]) {
                            b[j] = b[j - 1]
                            j -= 1
                        }
                        b[j] = e
                    }
                }
            } else {
                entries.sort(by: less)
            }
            for e in entries {
                w.writeString(dict.keys[e.index])
                encode(dict.values[e.index], into: &w)
            }
        }
    }

    /// A dictionary entry being sorted: where it is, and its key's `utf8Prefix`.
    struct SortEntry {
        var prefix: UInt64
        var index: Dictionary<String, PlistValue>.Index
    }

    /// The first eight UTF-8 bytes of `s` as a big-endian integer, zero-padded. When two
    /// strings' prefixes differ, they order as the strings' bytes do (a zero of padding only
    /// ties with a real zero byte, and ties fall back to `utf8Less`).
    static func utf8Prefix(_ s: String) -> UInt64 {
        func prefix(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
            let n = min(8, b.count)
            guard n > 0 else { return 0 }
            var p: UInt64 = 0
            for i in 0..<n { p = p &<< 8 | UInt64(b[i]) }
            return p &<< UInt64(8 * (8 - n))
        }
        // In place where the string is stored as UTF-8 (no copy, retain or release).
        if let p = s.utf8.withContiguousStorageIfAvailable(prefix) { return p }
        var s = s
        return s.withUTF8(prefix)
    }

    /// The size of the canonical form, as the payload limits measure it: counted, not
    /// encoded (the size does not depend on the order of a dictionary's keys, so nothing is
    /// sorted or copied). MUST equal `encode(value).count` for every value (tested).
    public static func encodedSize(_ value: PlistValue) -> Int {
        switch value {
        case .string(let s): return 1 + lengthPrefixedSize(s.utf8.count)
        case .int(let i): return 1 + varintSize(ByteWriter.zigzag(i))
        case .double, .date: return 9
        case .bool: return 1
        case .data(let bytes): return 1 + lengthPrefixedSize(bytes.count)
        case .array(let items):
            var n = 1 + varintSize(UInt64(items.count))
            for item in items { n += encodedSize(item) }
            return n
        case .dictionary(let d):
            var n = 1 + varintSize(UInt64(d.count))
            for (key, item) in d { n += lengthPrefixedSize(key.utf8.count) + encodedSize(item) }
            return n
        }
    }

    /// A varint length prefix and `count` bytes.
    static func lengthPrefixedSize(_ count: Int) -> Int { varintSize(UInt64(count)) + count }

    /// The byte count of `value` as an unsigned LEB128 varint.
    static func varintSize(_ value: UInt64) -> Int { value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7 }

    /// Decodes exactly one value that fills `bytes`; rejects trailing bytes, unsorted or
    /// duplicate keys and nesting deeper than `maxDepth`.
    public static func decode(_ bytes: [UInt8]) throws(ByteReaderError) -> PlistValue {
        var r = ByteReader(bytes)
        let v = try decode(from: &r, depth: 0)
        guard r.isAtEnd else { throw .malformed("\(r.remaining) trailing bytes") }
        return v
    }

    /// Decodes one value from `r`, leaving it after the value.
    public static func decode(from r: inout ByteReader, depth: Int = 0) throws(ByteReaderError) -> PlistValue {
        guard depth <= maxDepth else { throw .malformed("nesting deeper than \(maxDepth)") }
        let raw = try r.readByte()
        guard let tag = Tag(rawValue: raw) else { throw .malformed("unknown value tag 0x\(String(raw, radix: 16))") }
        switch tag {
        case .string: return .string(try r.readString())
        case .int: return .int(try r.readSignedVarint())
        case .double: return .double(Double(bitPattern: try r.readUInt64BE()))
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .date: return .date(Double(bitPattern: try r.readUInt64BE()))
        case .data: return .data(Array(try r.readLengthPrefixed()))
        case .array:
            let n = try r.readVarint()
            // Every element takes at least one byte: a count beyond what is left is a lie.
            guard n <= UInt64(r.remaining) else { throw .lengthTooLarge(n) }
            var items: [PlistValue] = []
            items.reserveCapacity(Int(n))
            for _ in 0..<n { items.append(try decode(from: &r, depth: depth + 1)) }
            return .array(items)
        case .dictionary:
            let n = try r.readVarint()
            guard n <= UInt64(r.remaining) / 2 else { throw .lengthTooLarge(n) }
            var dict = [String: PlistValue](minimumCapacity: Int(n))
            var previous: String? = nil
            for _ in 0..<n {
                let key = try r.readString()
                if let p = previous, !utf8Less(p, key) { throw .malformed("dictionary keys not sorted or duplicated at \"\(key)\"") }
                previous = key
                dict[key] = try decode(from: &r, depth: depth + 1)
            }
            return .dictionary(dict)
        }
    }

    @usableFromInline static func canonicalBits(_ d: Double) -> UInt64 {
        d.isNaN ? 0x7FF8_0000_0000_0000 : d.bitPattern
    }

    /// True when the strings are the same UTF-8 bytes (`==` also takes a canonically
    /// equivalent spelling, whose bytes differ), compared with memcmp as `utf8Less` does.
    public static func utf8Equal(_ a: String, _ b: String) -> Bool {
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }
        if let fast, let result = fast { return result }
        return a.utf8.elementsEqual(b.utf8)
    }

    /// Orders strings by their UTF-8 bytes (not by Swift's Unicode ordering).
    public static func utf8Less(_ a: String, _ b: String) -> Bool {
        // Native strings expose their UTF-8 bytes: compare them with memcmp (the generic
        // sequence comparison was a tenth of the simulator's time, sorting dictionary keys).
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                let n = min(x.count, y.count)
                let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
                return c != 0 ? c < 0 : x.count < y.count
            }
        }
        if let fast, let result = fast { return result }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
