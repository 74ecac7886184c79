import Testing
@testable import PeerLinkCore

/// A message's payload is measured in its encoded body when sent, and a received dictionary
/// is measured only when its body is over the limit: both must decide exactly as counting
/// `CanonicalEncoding.encodedSize` of the payload would.
@Suite("Message payload sizes")
struct MessageSizeTests {
    @Test func theSizeReadOffTheBodyEqualsTheCountedSize() {
        let seed: UInt64 = 0x5EED_0020
        var rng = SplitMix64(seed: seed)
        for i in 0..<1_000 {
            let id = MessageID(rng.next() >> UInt64(rng.next(in: 0...63)))
            let payload: MessagePayload
            if rng.chance(25) {
                payload = .data([UInt8](repeating: 3, count: [0, 1, 127, 128, 16_384][rng.next(in: 0...4)]))
            } else {
                var d: [String: PlistValue] = [:]
                for k in 0..<rng.next(in: 0...6) { d["k\(k)"] = CanonicalSizeTests.value(&rng, depth: 2) }
                payload = .dictionary(d)
            }
            let body = FrameBodies.Message(id: id, payload: payload, replyExpected: rng.chance(50)).encode()
            #expect(FrameBodies.Message.payloadSize(inEncoded: body, id: id, payload: payload) == MessageChannel.payloadSize(payload),
                    "seed \(seed), case \(i)")
        }
    }

    /// Data whose body fits the limit can still be over it canonically (its canonical form
    /// carries a length the body does not): it is counted and refused, as before.
    @Test func receivedDataIsMeasuredCanonicallyEvenWhenItsBodyFits() throws {
        let n = PayloadLimits.messageBytes - 3  // 1-byte id, flags, n bytes: the body is 1 under the limit
        let body = FrameBodies.Message(id: 1, payload: .data([UInt8](repeating: 0, count: n)), replyExpected: false).encode()
        #expect(body.count < PayloadLimits.messageBytes)
        #expect(CanonicalEncoding.encodedSize(.data([UInt8](repeating: 0, count: n))) > PayloadLimits.messageBytes)
        var shape: CanonicalEncoding.DictionaryShape? = nil
        #expect(throws: ByteReaderError.self) { try MessageChannel.decodeMessage(Frame(.message, body), reusing: &shape) }
    }

    /// A dictionary at the limit is taken, one byte over is refused, whatever its body's size.
    @Test func receivedDictionariesAreRefusedOnlyOverTheLimit() throws {
        func body(canonicalBytes n: Int) -> [UInt8] {
            // ["b": data(k)] is 5 bytes, a varint of k (3 bytes here) and k bytes.
            let d: [String: PlistValue] = ["b": .data([UInt8](repeating: 0, count: n - 8))]
            #expect(CanonicalEncoding.encodedSize(.dictionary(d)) == n)
            return FrameBodies.Message(id: 9, payload: .dictionary(d), replyExpected: false).encode()
        }
        // One shape for both: the second has the first's key, so it is decoded reusing it, and
        // the limit holds all the same.
        var shape: CanonicalEncoding.DictionaryShape? = nil
        #expect(throws: Never.self) { try MessageChannel.decodeMessage(Frame(.message, body(canonicalBytes: PayloadLimits.messageBytes)), reusing: &shape) }
        #expect(throws: ByteReaderError.self) { try MessageChannel.decodeMessage(Frame(.message, body(canonicalBytes: PayloadLimits.messageBytes + 1)), reusing: &shape) }
    }

    @Test func aBodyWithTrailingBytesOrAScalarPayloadIsRefused() {
        var trailing = FrameBodies.Message(id: 2, payload: .dictionary(["a": 1]), replyExpected: false).encode()
        trailing.append(0)
        #expect(throws: ByteReaderError.malformed("1 trailing bytes")) { try FrameBodies.Message.decode(trailing) }
        var scalar: [UInt8] = [2, 0]
        scalar += CanonicalEncoding.encode(.int(5))
        #expect(throws: ByteReaderError.malformed("message payload is not a dictionary")) { try FrameBodies.Message.decode(scalar) }
    }
}
