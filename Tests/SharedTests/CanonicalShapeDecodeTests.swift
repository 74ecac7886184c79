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

    static let keyPool = ["atMs", "elapsedMs", "energyKcal", "heartRateBpm", "hrCount", "state", "workoutID",
                          "activity", "ラン", "Ωmega", "a", "ab", "", "startMs", "configuration"]

    static func scalar(_ rng: inout ReplicaSplitMix64) -> PlistValue {
        switch rng.below(7) {
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
            if let k = d.keys.randomElement(using: &rng), rng.chance(0.5) { d[k] = nil } else { d[keyPool[rng.below(keyPool.count)]] = value(&rng) }
        case 2:  // not a dictionary
            return value(&rng)
        default:  // the same keys, some values new (possibly of another type)
            for k in d.keys where rng.chance(0.3) { d[k] = value(&rng) }
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
            #expect(plain == shaped, "seed \(seed) step \(step): bytes \(bytes)")
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
