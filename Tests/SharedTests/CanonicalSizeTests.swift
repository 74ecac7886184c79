import Testing
@testable import PeerLinkCore

/// `encodedSize` counts the canonical form without building it, and `utf8Less` compares keys
/// with memcmp; both must agree with the slow forms exactly, or payload limits would accept
/// the wrong payloads and digests would differ between equal states.
@Suite("Canonical encoding shortcuts")
struct CanonicalSizeTests {
    /// A random value up to `depth` levels deep, with lengths around the varint boundaries.
    static func value(_ rng: inout SplitMix64, depth: Int) -> PlistValue {
        let lengths = [0, 1, 127, 128, 300, 16_383, 16_384]
        switch rng.next(in: 0...(depth > 0 ? 8 : 6)) {
        case 0: return .string(String(repeating: rng.chance(50) ? "a" : "歩", count: lengths[rng.next(in: 0...4)]))
        case 1: return .int(Int64(bitPattern: rng.next()) >> UInt64(rng.next(in: 0...63)))
        case 2: return .double(rng.nextUnit() * 1e6)
        case 3: return .bool(rng.chance(50))
        case 4: return .date(rng.nextUnit() * 2e9)
        case 5: return .data([UInt8](repeating: 7, count: lengths[rng.next(in: 0...lengths.count - 1)]))
        case 6: return .int(Int64.min + Int64(rng.next(in: 0...1)))
        case 7: return .array((0..<rng.next(in: 0...5)).map { _ in value(&rng, depth: depth - 1) })
        default:
            var d: [String: PlistValue] = [:]
            for i in 0..<rng.next(in: 0...5) { d["k\(i)\(rng.next(in: 0...9))"] = value(&rng, depth: depth - 1) }
            return .dictionary(d)
        }
    }

    @Test func countedSizeEqualsTheEncodedByteCount() {
        let seed: UInt64 = 0xC0FFEE
        var rng = SplitMix64(seed: seed)
        for i in 0..<2_000 {
            let v = Self.value(&rng, depth: 3)
            let encoded = CanonicalEncoding.encode(v).count
            #expect(CanonicalEncoding.encodedSize(v) == encoded, "seed \(seed), value \(i): \(v)")
        }
    }

    @Test func varintSizesAtTheBoundaries() {
        for (value, size) in [(UInt64(0), 1), (127, 1), (128, 2), (16_383, 2), (16_384, 3), (UInt64.max, 10)] {
            var w = ByteWriter(capacity: 10)
            w.writeVarint(value)
            #expect(w.bytes.count == size)
            #expect(CanonicalEncoding.varintSize(value) == size)
        }
    }

    @Test func keyOrderIsTheUTF8ByteOrder() {
        let seed: UInt64 = 0xBEEF
        var rng = SplitMix64(seed: seed)
        let pieces = ["", "a", "b", "ab", "Z", "歩", "数", "é", "e\u{301}", "😀", "\u{7F}", "\u{80}", "z"]
        func word() -> String { (0..<rng.next(in: 0...4)).map { _ in pieces[rng.next(in: 0...pieces.count - 1)] }.joined() }
        for _ in 0..<5_000 {
            let a = word(), b = word()
            #expect(CanonicalEncoding.utf8Less(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "seed \(seed): \(a.debugDescription) vs \(b.debugDescription)")
        }
        // A Substring-backed or bridged string takes the slow path and agrees too.
        let long = String(repeating: "k", count: 40)
        #expect(CanonicalEncoding.utf8Less(String(long.dropLast()), long))
        #expect(!CanonicalEncoding.utf8Less(long, long))
    }

    @Test func dictionariesAreWrittenInUTF8KeyOrder() throws {
        // "b" < "ab"? No: "ab" < "b" < "歩" (0xE6…) by bytes, whatever order they were added in.
        let v: PlistValue = ["歩": .int(1), "b": .bool(true), "ab": .string("x")]
        let bytes = CanonicalEncoding.encode(v)
        #expect(bytes == [0x09, 3, 2, 0x61, 0x62, 0x01, 1, 0x78, 1, 0x62, 0x05, 3, 0xE6, 0xAD, 0xA9, 0x02, 2])
        #expect(try CanonicalEncoding.decode(bytes) == v)
    }
}
