import Testing
@testable import PeerLinkCore

/// `CanonicalEncoding.decode(from:reusing:)` (the receiver's decoding of a dictionary with the
/// keys of the one before) gives what the ordinary decoder gives, value or error, for every
/// sequence of payloads: same keys with new values, other keys, keys one byte apart, values of
/// another type, nested values, and tampered or cut encodings.
@Suite("Canonical decoding with the last dictionary's shape")
struct CanonicalShapeDecodeTests {
    /// The ordinary decoder's answer for `bytes`, and the shape decoder's (with `shape`, then
    /// leaving its shape in it), each as a value or its error.
    static func both(_ bytes: [UInt8], _ shape: inout CanonicalEncoding.DictionaryShape?)
        -> (plain: Result<PlistValue, ByteReaderError>, shaped: Result<PlistValue, ByteReaderError>) {
        let plain = Result { () throws(ByteReaderError) -> PlistValue in try CanonicalEncoding.decode(bytes) }
        let shaped = Result { () throws(ByteReaderError) -> PlistValue in
            var r = ByteReader(bytes)
            let v = try CanonicalEncoding.decode(from: &r, reusing: &shape)
            guard r.isAtEnd else { throw .malformed("\(r.remaining) trailing bytes") }
            return v
        }
        return (plain, shaped)
    }

    /// `a` and `b` are the same value down to their bits: a double or date by its bit pattern
    /// (so 0.0 is not -0.0, and one NaN is not another), everything else by `==`.
    static func identical(_ a: PlistValue, _ b: PlistValue) -> Bool {
        switch (a, b) {
        case let (.double(x), .double(y)), let (.date(x), .date(y)): x.bitPattern == y.bitPattern
        case let (.array(x), .array(y)): x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
        case let (.dictionary(x), .dictionary(y)):
            x.count == y.count && x.allSatisfy { key, v in y[key].map { identical(v, $0) } ?? false }
        default: a == b
        }
    }

    /// The two answers of `both` are the same value, bit for bit, or the same error.
    static func identical(_ a: Result<PlistValue, ByteReaderError>, _ b: Result<PlistValue, ByteReaderError>) -> Bool {
        switch (a, b) {
        case let (.success(x), .success(y)): identical(x, y)
        case let (.failure(x), .failure(y)): x == y
        default: false
        }
    }

    static let keyPool = ["atMs", "elapsedMs", "energyKcal", "heartRateBpm", "hrCount", "state", "workoutID",
                          "activity", "ラン", "Ωmega", "a", "ab", "", "startMs", "configuration"]

    static func scalar(_ rng: inout ReplicaSplitMix64) -> PlistValue {
        switch rng.below(8) {
        case 7: .double([0.0, -0.0, .nan, .infinity][rng.below(4)])
        case 0: .int(Int64(rng.below(5)) - 2)
        case 1: .int(Int64(bitPattern: rng.next()))
        case 2: .double(Double(rng.below(400)) / 4)
        case 3: .bool(rng.chance(0.5))
        case 4: .date(Double(rng.below(3)))
        case 5: .data((0..<rng.below(4)).map { _ in UInt8(rng.below(256)) })
        default: .string(["running", "ランニング", "w-2026-06-01-0700-running-0001", "", "x"][rng.below(5)])
        }
    }

    static func value(_ rng: inout ReplicaSplitMix64, depth: Int = 0) -> PlistValue {
        guard depth < 2, rng.chance(0.15) else { return scalar(&rng) }
        if rng.chance(0.5) { return .array((0..<rng.below(3)).map { _ in value(&rng, depth: depth + 1) }) }
        return .dictionary(Dictionary((0..<rng.below(3)).map { _ in (keyPool[rng.below(keyPool.count)], value(&rng, depth: depth + 1)) },
                                      uniquingKeysWith: { a, _ in a }))
    }

    /// The next payload of a sequence after `last`: mostly the same keys with a few new values.
    static func next(after last: [String: PlistValue], _ rng: inout ReplicaSplitMix64) -> PlistValue {
        var d = last
        switch rng.below(10) {
        case 0:  // other keys
            d = Dictionary((0..<rng.below(8)).map { _ in (keyPool[rng.below(keyPool.count)], value(&rng)) }, uniquingKeysWith: { a, _ in a })
        case 1:  // one key more or fewer
            if let k = d.keys.sorted().randomElement(using: &rng), rng.chance(0.5) { d[k] = nil } else { d[keyPool[rng.below(keyPool.count)]] = value(&rng) }
        case 2:  // not a dictionary
            return value(&rng)
        default:  // the same keys, some values new (possibly of another type)
            for k in d.keys.sorted() where rng.chance(0.3) { d[k] = value(&rng) }  // sorted: the seed replays
        }
        return .dictionary(d)
    }

    /// `bytes` damaged: a byte changed, cut short, or a byte added.
    static func tampered(_ bytes: [UInt8], _ rng: inout ReplicaSplitMix64) -> [UInt8] {
        var b = bytes
        guard !b.isEmpty else { return [0xFF] }
        switch rng.below(3) {
        case 0: b[rng.below(b.count)] ^= UInt8(1 << rng.below(8))
        case 1: b.removeLast(1 + rng.below(b.count))
        default: b.insert(UInt8(rng.below(256)), at: rng.below(b.count + 1))
        }
        return b
    }

    @Test(arguments: Array(UInt64(1)...80))
    func sameAnswerAsTheOrdinaryDecoder(seed: UInt64) {
        var rng = ReplicaSplitMix64(seed: seed)
        var shape: CanonicalEncoding.DictionaryShape? = nil
        var last: [String: PlistValue] = Dictionary((0..<(1 + rng.below(11))).map { _ in (Self.keyPool[rng.below(Self.keyPool.count)], Self.value(&rng)) },
                                                    uniquingKeysWith: { a, _ in a })
        for step in 0..<60 {
            let payload = Self.next(after: last, &rng)
            var bytes = CanonicalEncoding.encode(payload)
            if rng.chance(0.15) { bytes = Self.tampered(bytes, &rng) }
            let (plain, shaped) = Self.both(bytes, &shape)
            #expect(Self.identical(plain, shaped), "seed \(seed) step \(step): bytes \(bytes)")
            if case .success(.dictionary(let d)) = plain { last = d }
        }
    }

    @Test func aDictionaryReturnedEarlierKeepsItsValues() throws {
        var shape: CanonicalEncoding.DictionaryShape? = nil
        let first: [String: PlistValue] = ["atMs": .int(1), "state": .string("running"), "heartRateBpm": .double(120)]
        var second = first
        second["atMs"] = .int(2)
        second["heartRateBpm"] = .double(121)
        var r1 = ByteReader(CanonicalEncoding.encode(.dictionary(first)))
        let kept = try CanonicalEncoding.decode(from: &r1, reusing: &shape)
        var r2 = ByteReader(CanonicalEncoding.encode(.dictionary(second)))
        let now = try CanonicalEncoding.decode(from: &r2, reusing: &shape)
        #expect(kept == .dictionary(first))
        #expect(now == .dictionary(second))
        // The same bytes a third time: the same dictionary again, and the second unchanged.
        var r3 = ByteReader(CanonicalEncoding.encode(.dictionary(second)))
        #expect(try CanonicalEncoding.decode(from: &r3, reusing: &shape) == .dictionary(second))
        #expect(now == .dictionary(second) && kept == .dictionary(first))
    }

    /// Decodes each of `payloads` (encoded bytes) in turn with one shape, and checks each
    /// against the ordinary decoder bit for bit.
    static func decodeInTurn(_ payloads: [[UInt8]], _ label: String) {
        var shape: CanonicalEncoding.DictionaryShape? = nil
        for (i, bytes) in payloads.enumerated() {
            let (plain, shaped) = both(bytes, &shape)
            #expect((try? plain.get()) != nil, "\(label) #\(i): the sequence is well-formed")
            #expect(identical(plain, shaped), "\(label) #\(i): \(shaped) against \(plain)")
        }
    }

    /// A dictionary of `value` under "v", beside a key that stays the same.
    static func withV(_ value: PlistValue) -> [UInt8] { CanonicalEncoding.encode(.dictionary(["v": value, "state": "running"])) }

    /// Values that compare equal (or unequal) by `==` but differ (or not) in their bits.
    @Test func zerosOfEitherSignAndNaNsAreKeptBitForBit() {
        Self.decodeInTurn([0.0, -0.0, 0.0, -0.0, -0.0].map { Self.withV(.double($0)) }, "doubles ±0")
        Self.decodeInTurn([0.0, -0.0, 0.0].map { Self.withV(.date($0)) }, "dates ±0")
        // The encoder writes every NaN as 0x7FF8…0; the decoder takes any NaN's bits as they come.
        func nan(_ bits: UInt64) -> [UInt8] {
            var w = ByteWriter(capacity: 32)
            w.writeByte(CanonicalEncoding.Tag.dictionary.rawValue); w.writeVarint(1)
            w.writeString("v"); w.writeByte(CanonicalEncoding.Tag.double.rawValue); w.writeUInt64BE(bits)
            return w.bytes
        }
        Self.decodeInTurn([0x7FF8_0000_0000_0000, 0x7FF8_0000_0000_0001, 0x7FF8_0000_0000_0001, 0x7FF8_0000_0000_0000, 0xFFF8_0000_0000_0000].map(nan), "NaNs")
    }

    /// A string, then data of the same bytes, then the string again: the tag tells them apart.
    @Test func dataOfAStringsBytesIsNotTheString() {
        let text = "ランニング"
        Self.decodeInTurn([Self.withV(.string(text)), Self.withV(.data(Array(text.utf8))), Self.withV(.string(text)),
                           Self.withV(.data(Array(text.utf8)))], "string and data")
    }

    /// A dictionary of more keys than `maxShapeKeys` is decoded without a shape, and leaves none.
    @Test func onlyDictionariesOfAtMostMaxShapeKeysLeaveAShape() throws {
        for (n, kept) in [(CanonicalEncoding.maxShapeKeys, true), (CanonicalEncoding.maxShapeKeys + 1, false)] {
            var shape: CanonicalEncoding.DictionaryShape? = nil
            let d = PlistValue.dictionary(Dictionary(uniqueKeysWithValues: (0..<n).map { ("k\($0)", PlistValue.int(Int64($0))) }))
            var r = ByteReader(CanonicalEncoding.encode(d))
            #expect(try CanonicalEncoding.decode(from: &r, reusing: &shape) == d)
            #expect((shape != nil) == kept, "\(n) keys")
        }
    }

    /// A message refused after its dictionary was decoded (trailing bytes, over the limit)
    /// leaves no shape, so its body is not kept; the next message is decoded afresh.
    @Test func aRefusedMessageLeavesNoShape() throws {
        let good = FrameBodies.Message(id: 1, payload: .dictionary(["hr": 120, "state": "running"]), replyExpected: false).encode()
        let refused: [[UInt8]] = [
            good + [0],  // a trailing byte
            FrameBodies.Message(id: 2, payload: .dictionary(["hr": .data([UInt8](repeating: 7, count: PayloadLimits.messageBytes))]),
                                replyExpected: false).encode(),  // over the limit
        ]
        for body in refused {
            var shape: CanonicalEncoding.DictionaryShape? = nil
            _ = try MessageChannel.decodeMessage(Frame(.message, good), reusing: &shape)
            #expect(shape != nil)
            #expect(throws: ByteReaderError.self) { try MessageChannel.decodeMessage(Frame(.message, body), reusing: &shape) }
            let left = shape != nil  // (not printed: the body is a mebibyte)
            #expect(!left, "a refused body of \(body.count) bytes left a shape")
            #expect(try MessageChannel.decodeMessage(Frame(.message, good), reusing: &shape).1 == .dictionary(["hr": 120, "state": "running"]))
        }
    }

    @Test func aKeyOneByteApartIsDecodedAfresh() throws {
        var shape: CanonicalEncoding.DictionaryShape? = nil
        var r1 = ByteReader(CanonicalEncoding.encode(.dictionary(["hrCount": .int(1), "atMs": .int(5)])))
        _ = try CanonicalEncoding.decode(from: &r1, reusing: &shape)
        var again = r1.restarted()
        _ = try CanonicalEncoding.decode(from: &again, reusing: &shape)  // reused once: places found
        let other: PlistValue = .dictionary(["hrCounu": .int(1), "atMs": .int(5)])
        var r2 = ByteReader(CanonicalEncoding.encode(other))
        #expect(try CanonicalEncoding.decode(from: &r2, reusing: &shape) == other)
        #expect(r2.isAtEnd)
        // Unsorted keys that match the shape's bytes nowhere are refused as the decoder refuses them.
        var unsorted = ByteWriter(capacity: 32)
        unsorted.writeByte(0x09); unsorted.writeVarint(2)
        unsorted.writeString("hrCounu"); unsorted.writeByte(0x02); unsorted.writeVarint(2)
        unsorted.writeString("atMs"); unsorted.writeByte(0x02); unsorted.writeVarint(10)
        let (plain, shaped) = Self.both(unsorted.bytes, &shape)
        #expect(plain == shaped)
        #expect(throws: ByteReaderError.self) { try plain.get() }
    }
}

private extension ByteReader {
    /// A reader at the start of the same bytes.
    func restarted() -> ByteReader { ByteReader(bytes) }
}
