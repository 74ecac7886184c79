import Testing
import PeerLinkCore

/// `SplitMix64.nextBytes`: each draw's eight bytes, least significant first, and the
/// generator moved by one draw per eight bytes.
@Suite struct SplitMix64BytesTests {
    @Test(arguments: [0, 7, 0xDEAD_BEEF] as [UInt64])
    func bytesAreTheDrawsLittleEndian(seed: UInt64) {
        var a = SplitMix64(seed: seed), b = SplitMix64(seed: seed)
        let bytes = a.nextBytes(16)
        let words = [b.next(), b.next()]
        #expect(bytes.count == 16)
        for i in 0..<16 { #expect(bytes[i] == UInt8(truncatingIfNeeded: words[i / 8] >> (8 * UInt64(i % 8))), "seed \(seed), byte \(i)") }
        #expect(a.next() == b.next(), "two draws taken, no more")
    }
}
