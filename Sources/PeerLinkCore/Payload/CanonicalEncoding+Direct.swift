extension CanonicalEncoding {
    /// Canonical values written straight from typed fields, for the few values encoded on
    /// every event (a workout's stored head and sample chunk) that would otherwise be built as
    /// a `PlistValue` only to be walked, sorted and encoded again.
    ///
    /// The caller writes a dictionary's count, then its entries in the keys' UTF-8 byte order,
    /// and MUST produce exactly `encode(value)` of the value it stands for (test it against
    /// `encode`). Bytes go through a pointer into a buffer that grows as needed: appending to
    /// an array byte by byte (a uniqueness and capacity check each) cost more than the values.
    public final class DirectWriter {
        @usableFromInline var base: UnsafeMutablePointer<UInt8>
        @usableFromInline var capacity: Int
        @usableFromInline var count = 0

        public init(capacity: Int = 256) {
            self.capacity = max(16, capacity)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        /// The bytes written so far.
        @inlinable public func finish() -> [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

        /// A dictionary of `count` entries; its entries follow, each a `key` then a value.
        @inlinable public func dictionaryHeader(count n: Int) { byte(CanonicalEncoding.Tag.dictionary.rawValue); varint(UInt64(n)) }

        /// A dictionary entry's key.
        @inlinable public func key(_ key: String) { utf8(key) }

        /// An array of `count` elements; its elements follow.
        @inlinable public func arrayHeader(count n: Int) { byte(CanonicalEncoding.Tag.array.rawValue); varint(UInt64(n)) }

        /// `.string(s)`.
        @inlinable public func string(_ s: String) { byte(CanonicalEncoding.Tag.string.rawValue); utf8(s) }

        /// `.int(i)`.
        @inlinable public func int(_ i: Int64) {
            byte(CanonicalEncoding.Tag.int.rawValue)
            varint(ByteWriter.zigzag(i))
        }

        /// `.double(d)`.
        @inlinable public func double(_ d: Double) {
            reserve(9)
            base[count] = CanonicalEncoding.Tag.double.rawValue
            UnsafeMutableRawPointer(base + count + 1).storeBytes(of: CanonicalEncoding.canonicalBits(d).bigEndian, as: UInt64.self)
            count += 9
        }

        /// `.data(bytes)`.
        @inlinable public func data(_ bytes: [UInt8]) {
            byte(CanonicalEncoding.Tag.data.rawValue)
            varint(UInt64(bytes.count))
            bytes.withUnsafeBufferPointer { raw($0) }
        }

        // MARK: - Bytes

        @inlinable func reserve(_ n: Int) {
            guard count + n > capacity else { return }
            let newCapacity = max(capacity * 2, count + n)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: base, count: count)
            base.deallocate()
            base = grown
            capacity = newCapacity
        }

        @inlinable func byte(_ b: UInt8) {
            reserve(1)
            base[count] = b
            count += 1
        }

        /// Unsigned LEB128, as `ByteWriter.writeVarint`.
        @inlinable func varint(_ value: UInt64) {
            reserve(10)
            var v = value
            while v >= 0x80 {
                base[count] = UInt8(truncatingIfNeeded: v) | 0x80
                count += 1
                v >>= 7
            }
            base[count] = UInt8(v)
            count += 1
        }

        /// A varint byte count and the string's UTF-8.
        @inlinable func utf8(_ s: String) {
            var s = s
            s.withUTF8 { b in
                varint(UInt64(b.count))
                raw(b)
            }
        }

        @inlinable func raw(_ b: UnsafeBufferPointer<UInt8>) {
            guard let src = b.baseAddress, b.count > 0 else { return }
            reserve(b.count)
            (base + count).update(from: src, count: b.count)
            count += b.count
        }
    }
}
