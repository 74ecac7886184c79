import Testing
@testable import PeerLinkCore

/// `AEADKey.seal(nonce:plaintext:trailer:into:)`, which moves the plaintext into the output and
/// encrypts it there with its trailer byte, gives exactly what sealing `plaintext ‖ trailer` as
/// one array gives, wherever the plaintext lies: apart from the output, at its start (in
/// place, as a record is sealed), or overlapping it from either side.
@Suite("Sealing a plaintext with its trailer byte")
struct AEADTrailerTests {
    /// Where the plaintext lies in relation to the output.
    enum Layout: CaseIterable, CustomStringConvertible {
        case apart, inPlace, overlappingAfterTheStart, overlappingBeforeTheStart
        var description: String {
            switch self {
            case .apart: "apart"
            case .inPlace: "in place"
            case .overlappingAfterTheStart: "starting k bytes into the output"
            case .overlappingBeforeTheStart: "starting k bytes before the output"
            }
        }
        /// The offsets `k` tried for this layout (`sealed`), for a plaintext of `count` bytes.
        func offsets(count: Int) -> [Int] {
            self == .apart || self == .inPlace ? [0] : [1, 3, max(1, count / 2)]
        }
    }

    /// `plaintext ‖ trailer` sealed by `seal(nonce:plaintext:trailer:into:)` with the plaintext
    /// laid as `layout` says (`k`, at least 1, is the offset of the overlapping layouts).
    static func sealed(_ key: AEADKey, nonce: UInt64, _ plaintext: [UInt8], trailer: UInt8, _ layout: Layout, k: Int) -> [UInt8] {
        let n = plaintext.count, outCount = n + 1 + AEADCipher.tagBytes
        // One buffer holding both: the plaintext at `from`, the output at `to`.
        let (from, to, size): (Int, Int, Int) = switch layout {
        case .apart: (outCount, 0, outCount + n)
        case .inPlace: (0, 0, outCount)
        case .overlappingAfterTheStart: (k, 0, outCount + k)
        case .overlappingBeforeTheStart: (0, k, outCount + k)
        }
        var buffer = [UInt8](repeating: 0xA5, count: size)
        buffer.replaceSubrange(from..<from + n, with: plaintext)
        buffer.withUnsafeMutableBytes { b in
            key.seal(nonce: nonce, plaintext: UnsafeRawBufferPointer(rebasing: b[from..<from + n]), trailer: trailer,
                     into: UnsafeMutableRawBufferPointer(rebasing: b[to..<to + outCount]))
        }
        return Array(buffer[to..<to + outCount])
    }

    @Test(arguments: AEADCipher.allCases)
    func sameRecordAsSealingThePlaintextAndTrailerAsOneArray(cipher: AEADCipher) {
        let seed: UInt64 = 0x7EA1_0000 &+ UInt64(cipher == .chaChaPoly ? 1 : 2)
        var rng = SplitMix64(seed: seed)
        let keyBytes = rng.nextBytes(AEADCipher.keyBytes)
        let sealing = AEADKey(cipher, key: keyBytes, encrypting: true)
        let opening = AEADKey(cipher, key: keyBytes, encrypting: false)
        for count in [0, 1, 2, 15, 16, 17, 63, 64, 65, 1000, Int.random(in: 1...20_000, using: &rng)] {
            let plaintext = Array(rng.nextBytes((count + 7) / 8 * 8).prefix(count))
            let trailer = UInt8.random(in: 0...255, using: &rng), nonce = rng.next() >> 1
            let expected = sealing.seal(nonce: nonce, plaintext + [trailer])
            #expect(opening.open(nonce: nonce, expected) == plaintext + [trailer], "seed \(seed): \(count) bytes")
            for layout in Layout.allCases {
                for k in layout.offsets(count: count) {
                    let got = Self.sealed(sealing, nonce: nonce, plaintext, trailer: trailer, layout, k: k)
                    #expect(got == expected, "seed \(seed) \(cipher): \(count) bytes, plaintext \(layout), k = \(k)")
                }
            }
        }
    }
}
