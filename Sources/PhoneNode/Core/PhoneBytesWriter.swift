import PeerLinkCore

/// Canonical bytes (`CanonicalEncoding`'s layout) written into one array sized beforehand,
/// for the two parts the phone stores on every message (`LiveWorkout.canonicalBytes`,
/// `PhoneLinkState.canonicalBytes`).
///
/// `CanonicalEncoding.DirectWriter` allocates its object, its buffer and the array it
/// returns, and writes every key through `String.withUTF8`; here the buffer is sized once
/// and keys are static strings copied as they are. The caller writes a
/// dictionary's count, then its entries in the keys' UTF-8 byte order, and MUST produce
/// exactly `CanonicalEncoding.encode` of the value it stands for (tested against it).
/// A write past `capacity` traps (it never writes out of bounds).
struct PhoneBytesWriter: ~Copyable {
    // The tags of `CanonicalEncoding`'s layout.
    private static let stringTag: UInt8 = 0x01
    private static let intTag: UInt8 = 0x02
    private static let doubleTag: UInt8 = 0x03
    private static let arrayTag: UInt8 = 0x08
    private static let dictionaryTag: UInt8 = 0x09

    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    /// A writer of at most `capacity` bytes.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written, in an array of their size. (A writer used through a closure over
    /// scratch space on the stack cost more: the closure copied the value being written.)
    consuming func finish() -> [UInt8] {
        let bytes = Array(UnsafeBufferPointer(start: base, count: count))
        base.deallocate()
        discard self
        return bytes
    }

    /// Room for `n` more bytes: the address of the first (`count` is not moved).
    @inline(__always) private func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(count + n <= capacity, "PhoneBytesWriter: capacity exceeded")
        return base + count
    }

    @inline(__always) private mutating func byte(_ v: UInt8) {
        reserve(1).pointee = v
        count += 1
    }

    /// Unsigned LEB128.
    @inline(__always) private mutating func varint(_ value: UInt64) {
        count += ByteWriter.storeVarint(value, at: reserve(10))
    }

    @inline(__always) private mutating func raw(_ p: UnsafePointer<UInt8>, _ n: Int) {
        guard n > 0 else { return }
        reserve(n).update(from: p, count: n)
        count += n
    }

    /// A dictionary of `n` entries; its entries follow, each a `key` then a value.
    @inline(__always) mutating func dictionaryHeader(count n: Int) { byte(Self.dictionaryTag); varint(UInt64(n)) }

    /// An array of `n` elements; its elements follow.
    @inline(__always) mutating func arrayHeader(count n: Int) { byte(Self.arrayTag); varint(UInt64(n)) }

    /// A dictionary entry's key (ASCII or not: its UTF-8 bytes as written in the source).
    @inline(__always) mutating func key(_ k: StaticString) {
        // The keys are short: their length is one varint byte, written with them at once.
        let n = k.utf8CodeUnitCount
        precondition(n < 0x80, "PhoneBytesWriter: key too long")
        let at = reserve(n + 1)
        at.pointee = UInt8(n)
        (at + 1).update(from: k.utf8Start, count: n)
        count += n + 1
    }

    /// `.string(s)`.
    @inline(__always) mutating func string(_ s: String) {
        byte(Self.stringTag)
        let written: Void? = s.utf8.withContiguousStorageIfAvailable { b in
            varint(UInt64(b.count))
            if let p = b.baseAddress { raw(p, b.count) }
        }
        guard written == nil else { return }
        var s = s
        s.withUTF8 { b in
            varint(UInt64(b.count))
            if let p = b.baseAddress { raw(p, b.count) }
        }
    }

    /// `.int(i)` (zigzag varint).
    @inline(__always) mutating func int(_ i: Int64) {
        let at = reserve(11)
        at.pointee = Self.intTag
        count += 1 + ByteWriter.storeVarint(ByteWriter.zigzag(i), at: at + 1)
    }

    /// `.double(d)`: its bits big-endian, every NaN as `0x7FF8…0`.
    @inline(__always) mutating func double(_ d: Double) {
        let bits: UInt64 = d.isNaN ? 0x7FF8_0000_0000_0000 : d.bitPattern
        let at = reserve(9)
        at.pointee = Self.doubleTag
        UnsafeMutableRawPointer(at + 1).storeBytes(of: bits.bigEndian, as: UInt64.self)
        count += 9
    }

    /// An upper bound of the bytes `string(s)` writes.
    static func bound(_ s: String?) -> Int { (s?.utf8.count ?? 0) + 11 }
}
