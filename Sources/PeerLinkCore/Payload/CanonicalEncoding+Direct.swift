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
        /// The buffer's address, capacity and fill, behind a pointer the writer never replaces:
        /// the class's own stored properties would each be a dynamically checked access
        /// (`swift_beginAccess`) on every byte written, a fifth of the simulated hour's
        /// instructions in a release build.
        @usableFromInline struct Buffer {
            @usableFromInline var base: UnsafeMutablePointer<UInt8>
            @usableFromInline var capacity: Int
            @usableFromInline var count: Int
        }

        @usableFromInline let buffer: UnsafeMutablePointer<Buffer>

        public init(capacity: Int = 256) {
            let capacity = max(16, capacity)
            buffer = .allocate(capacity: 1)
            buffer.initialize(to: Buffer(base: .allocate(capacity: capacity), capacity: capacity, count: 0))
        }

        deinit {
            buffer.pointee.base.deallocate()
            buffer.deallocate()
        }

        /// The bytes written so far.
        @inlinable public func finish() -> [UInt8] { Array(UnsafeBufferPointer(start: buffer.pointee.base, count: buffer.pointee.count)) }

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
            let at = reserve(9)
            at.pointee = CanonicalEncoding.Tag.double.rawValue
            UnsafeMutableRawPointer(at + 1).storeBytes(of: CanonicalEncoding.canonicalBits(d).bigEndian, as: UInt64.self)
            buffer.pointee.count += 9
        }

        /// `.data(bytes)`.
        @inlinable public func data(_ bytes: [UInt8]) {
            byte(CanonicalEncoding.Tag.data.rawValue)
            varint(UInt64(bytes.count))
            bytes.withUnsafeBufferPointer { raw($0) }
        }

        // MARK: - Bytes

        /// Room for `n` more bytes; the address of the first (the fill is not moved).
        @inlinable func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
            let b = buffer
            if b.pointee.count + n > b.pointee.capacity {
                let newCapacity = max(b.pointee.capacity * 2, b.pointee.count + n)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
                grown.update(from: b.pointee.base, count: b.pointee.count)
                b.pointee.base.deallocate()
                b.pointee.base = grown
                b.pointee.capacity = newCapacity
            }
            return b.pointee.base + b.pointee.count
        }

        @inlinable func byte(_ v: UInt8) {
            reserve(1).pointee = v
            buffer.pointee.count += 1
        }

        /// Unsigned LEB128, as `ByteWriter.writeVarint`.
        @inlinable func varint(_ value: UInt64) {
            buffer.pointee.count += ByteWriter.storeVarint(value, at: reserve(10))
        }

        /// A varint byte count and the string's UTF-8.
        @inlinable func utf8(_ s: String) {
            // Read in place where the string is stored as UTF-8 (always, for native and small
            // strings): `withUTF8` needs a mutable copy, a retain and a release each call.
            let done: Void? = s.utf8.withContiguousStorageIfAvailable { b in
                varint(UInt64(b.count))
                raw(b)
            }
            if done != nil { return }
            var s = s
            s.withUTF8 { b in
                varint(UInt64(b.count))
                raw(b)
            }
        }

        @inlinable func raw(_ b: UnsafeBufferPointer<UInt8>) {
            guard let src = b.baseAddress, b.count > 0 else { return }
            reserve(b.count).update(from: src, count: b.count)
            buffer.pointee.count += b.count
        }
    }
}
