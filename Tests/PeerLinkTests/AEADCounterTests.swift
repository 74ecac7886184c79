import Testing
@testable import PeerLinkCore

/// AES-GCM keys hand the provider their nonces as counters (`peerlink_gcm_*`): a sealing key
/// leaves GCM started for the next nonce when it reads a record's tag, and an opening key
/// gives the counter and the tag in one call. These records must be byte for byte those of
/// the plain path (`EVP_*Init_ex` with the whole nonce at every record), whatever order the
/// nonces come in.
@Suite("AES-GCM through the provider's counter")
struct AEADCounterTests {
    @Test func thisMachinesProviderCountsAsNoiseDoesSoTheCounterIsUsed() {
        // False would mean every AES-GCM key takes the plain path: the same records, slower.
        #expect(AEADCipher.providerCountsLikeNoise, "OpenSSL's AES-GCM counter did not give the plain path's records")
    }

    /// Nonces mostly in order (as a channel sends), with jumps forward and back, repeats and
    /// the largest counters: a counted key's records equal a plain key's, and a counted
    /// opening key opens them, in any order, after failed opens too.
    @Test(arguments: [0xC0_0001, 0xC0_0002, 0xC0_0003] as [UInt64])
    func countedRecordsAreThePlainPathsInAnyOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let key = rng.nextBytes(AEADCipher.keyBytes)
        let counted = AEADKey(.aesGCM, key: key, encrypting: true, counted: true)
        let plain = AEADKey(.aesGCM, key: key, encrypting: true, counted: false)
        let countedOpening = AEADKey(.aesGCM, key: key, encrypting: false, counted: true)
        let plainOpening = AEADKey(.aesGCM, key: key, encrypting: false, counted: false)
        var nonce: UInt64 = 0
        var sealed: [(nonce: UInt64, ad: [UInt8], plaintext: [UInt8], record: [UInt8])] = []
        for step in 0..<400 {
            switch rng.next() % 10 {
            case 0: nonce = rng.next() % 1_000                     // back or forward, near
            case 1: nonce = UInt64.max - 1 - rng.next() % 3        // the largest counters
            case 2: nonce = (rng.next() >> 1) | 0xFF               // anywhere, carrying into higher bytes next
            case 3: break                                           // the same nonce again
            default: nonce &+= 1                                    // the next, as a channel sends
            }
            let count = Int(rng.next() % 90)
            let plaintext = Array(rng.nextBytes((count + 7) / 8 * 8).prefix(count))
            let ad = rng.next() % 3 == 0 ? rng.nextBytes(32) : []
            let record = counted.seal(nonce: nonce, ad: ad, plaintext)
            #expect(record == plain.seal(nonce: nonce, ad: ad, plaintext), "seed \(seed), step \(step), nonce \(nonce)")
            #expect(countedOpening.open(nonce: nonce, ad: ad, record) == plaintext, "seed \(seed), step \(step), nonce \(nonce)")
            #expect(counted.startedNonce == nonce &+ 1, "seed \(seed), step \(step): the next record in order would not take the short path")
            sealed.append((nonce, ad, plaintext, record))
        }
        // Opened again in another order, each after a record that does not open: a wrong
        // nonce, or a flipped bit.
        for (i, r) in sealed.enumerated().shuffled(using: &rng) {
            #expect(countedOpening.open(nonce: r.nonce &+ 1, ad: r.ad, r.record) == nil, "seed \(seed), record \(i): another nonce opened it")
            var flipped = r.record
            flipped[Int(rng.next() % UInt64(flipped.count))] ^= 0x20
            #expect(countedOpening.open(nonce: r.nonce, ad: r.ad, flipped) == nil, "seed \(seed), record \(i): a flipped bit opened it")
            #expect(countedOpening.open(nonce: r.nonce, ad: r.ad, r.record) == r.plaintext, "seed \(seed), record \(i)")
            #expect(plainOpening.open(nonce: r.nonce, ad: r.ad, r.record) == r.plaintext, "seed \(seed), record \(i)")
        }
    }

    /// A record sealed with its trailer byte in place (as a channel seals) is the same on
    /// both paths, in order and after a jump.
    @Test func aRecordWithItsTrailerIsThePlainPathsToo() {
        var rng = SplitMix64(seed: 0xC0_0010)
        let key = rng.nextBytes(AEADCipher.keyBytes)
        let counted = AEADKey(.aesGCM, key: key, encrypting: true, counted: true)
        let plain = AEADKey(.aesGCM, key: key, encrypting: true, counted: false)
        for nonce: UInt64 in [0, 1, 2, 3, 50, 51, 52, 7] {
            let plaintext = rng.nextBytes(24)
            let trailer = UInt8(truncatingIfNeeded: nonce)
            let a = AEADTrailerTests.sealed(counted, nonce: nonce, plaintext, trailer: trailer, .inPlace, k: 0)
            let b = AEADTrailerTests.sealed(plain, nonce: nonce, plaintext, trailer: trailer, .inPlace, k: 0)
            #expect(a == b, "seed 0xC00010, nonce \(nonce)")
        }
    }
}
