extension CanonicalEncoding {
    /// The dictionary a receiver decoded last, kept to decode the next one with the same keys
    /// without making and hashing its keys again: a watch sends its live metrics every second
    /// as a dictionary of the same eleven keys, of which a few values change, and making,
    /// ordering and hashing the keys was two thirds of decoding it.
    ///
    /// `decode(from:reusing:)` gives exactly what `decode(from:depth:)` gives for the same
    /// bytes, and throws the same errors: anything that is not the remembered keys, byte for
    /// byte, in the same order, is decoded the ordinary way (tested:
    /// `CanonicalShapeDecodeTests`).
    package struct DictionaryShape: Sendable {
        /// The bytes the dictionary was decoded from (the array kept, not copied) and where
        /// each of its keys' UTF-8 bytes lie in them, in the order they came (the keys' order).
        fileprivate let source: [UInt8]
        fileprivate let keys: [Range<Int>]
        /// The dictionary decoded last.
        fileprivate var dictionary: [String: PlistValue]
        /// Each key's place in `dictionary`, in key order; found when the shape is first
        /// reused (a dictionary decoded once is not worth hashing its keys again). Replacing a
        /// value keeps every place, and so does a copy of the dictionary.
        fileprivate var places: [Dictionary<String, PlistValue>.Index] = []
    }

    /// Dictionaries of more keys than this are decoded without a shape.
    static let maxShapeKeys = 64

    /// Decodes one value from `r` as `decode(from:depth:)` does, reusing `shape` when the value
    /// is a dictionary of its keys, and leaving in `shape` the dictionary decoded (nil for
    /// any other value).
    package static func decode(from r: inout ByteReader, reusing shape: inout DictionaryShape?) throws(ByteReaderError) -> PlistValue {
        let start = r.offset
        if var s = shape {
            // `s` now holds the dictionary alone, unless the app still holds the one returned
            // last: then the first value written copies it (copy on write) and the app's stays
            // as it was; otherwise the values are replaced in place.
            shape = nil
            if let d = reuse(&s, from: &r) {
                shape = s
                return .dictionary(d)
            }
            r = ByteReader(r.bytes, offset: start)
        }
        let value = try decode(from: &r, depth: 0)
        if case .dictionary(let d) = value { shape = record(d, in: r.bytes, from: start) }
        return value
    }

    /// The dictionary at `r` when its keys are `s`'s, its values read into `s`'s dictionary
    /// (where the values came the same, nothing is written); nil, with `r` anywhere, for
    /// anything else, which is then decoded the ordinary way (and throws there if it must).
    private static func reuse(_ s: inout DictionaryShape, from r: inout ByteReader) -> [String: PlistValue]? {
        guard (try? r.readByte()) == Tag.dictionary.rawValue, let n = try? r.readVarint(),
              n == UInt64(s.keys.count), n <= UInt64(r.remaining) / 2 else { return nil }
        if s.places.isEmpty, !findPlaces(&s) { return nil }
        var d = s.dictionary
        s.dictionary = [:]
        let matched = s.source.withUnsafeBufferPointer { source -> Bool in
            for i in s.keys.indices {
                let key = UnsafeBufferPointer(rebasing: source[s.keys[i]])
                guard (try? r.readVarint()) == UInt64(key.count), r.skip(ifNext: key) else { return false }
                let place = s.places[i]
                if sameString(d.values[place], at: &r) { continue }
                guard let value = try? decode(from: &r, depth: 1) else { return false }
                if !sameScalar(d.values[place], value) { d.values[place] = value }
            }
            return true
        }
        guard matched else { return nil }
        s.dictionary = d
        return d
    }

    /// True, with `r` after it, when the value at `r` is a string and `old` is the same string;
    /// false (`r` unmoved) otherwise. A string that came again is not made again.
    private static func sameString(_ old: PlistValue, at r: inout ByteReader) -> Bool {
        guard case .string(var text) = old else { return false }
        var probe = r
        guard (try? probe.readByte()) == Tag.string.rawValue, let n = try? probe.readVarint(),
              n == UInt64(text.utf8.count) else { return false }
        guard text.withUTF8({ probe.skip(ifNext: $0) }) else { return false }
        r = probe
        return true
    }

    /// True when `a` and `b` are the same number, date or truth value (a double by its bits).
    private static func sameScalar(_ a: PlistValue, _ b: PlistValue) -> Bool {
        switch (a, b) {
        case let (.int(x), .int(y)): x == y
        case let (.double(x), .double(y)), let (.date(x), .date(y)): x.bitPattern == y.bitPattern
        case let (.bool(x), .bool(y)): x == y
        default: false
        }
    }

    /// Each of `s`'s keys' place in its dictionary, in key order; false when one is missing
    /// (which a dictionary recorded by `record` never is).
    private static func findPlaces(_ s: inout DictionaryShape) -> Bool {
        var places: [Dictionary<String, PlistValue>.Index] = []
        places.reserveCapacity(s.keys.count)
        for range in s.keys {
            let key = s.source.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
            guard let place = s.dictionary.index(forKey: key) else { return false }
            places.append(place)
        }
        s.places = places
        return true
    }

    /// The shape of `d`, just decoded from the canonical bytes at `start` in `bytes`: where its
    /// keys lie (the bytes were checked by the decoder; nil if they do not read again, or for
    /// more than `maxShapeKeys` keys).
    private static func record(_ d: [String: PlistValue], in bytes: [UInt8], from start: Int) -> DictionaryShape? {
        var r = ByteReader(bytes, offset: start)
        var keys: [Range<Int>] = []
        keys.reserveCapacity(d.count)
        do {
            _ = try r.readByte()
            let n = try r.readVarint()
            guard n <= UInt64(maxShapeKeys) else { return nil }
            for _ in 0..<n {
                let length = Int(clamping: try r.readVarint())
                let at = r.offset
                try r.skip(length)
                keys.append(at..<at + length)
                try skipValue(&r)
            }
        } catch { return nil }
        return DictionaryShape(source: bytes, keys: keys, dictionary: d)
    }

    /// Steps over one canonical value (already decoded once: its lengths are trusted only as
    /// far as `skip` checks them).
    private static func skipValue(_ r: inout ByteReader) throws(ByteReaderError) {
        switch Tag(rawValue: try r.readByte()) {
        case .string?, .data?: try r.skip(Int(clamping: try r.readVarint()))
        case .int?: _ = try r.readVarint()
        case .double?, .date?: try r.skip(8)
        case .falseValue?, .trueValue?: break
        case .array?:
            for _ in 0..<(try r.readVarint()) { try skipValue(&r) }
        case .dictionary?:
            for _ in 0..<(try r.readVarint()) {
                try r.skip(Int(clamping: try r.readVarint()))
                try skipValue(&r)
            }
        case nil: throw .malformed("unknown value tag")
        }
    }
}
