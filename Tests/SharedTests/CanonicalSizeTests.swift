import Testing
@testable import Shared

/// `encodedSize` counts the canonical form without building it; it must agree with the
/// encoder byte for byte, or payload limits would accept or refuse the wrong payloads.
@Suite("Canonical encoding size")
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
}
