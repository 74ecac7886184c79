import Testing
@testable import PeerLink
import Shared

@Suite("Frame decoder")
struct FrameDecoderTests {
    /// A seeded sequence of frames of every kind with random bodies.
    static func randomFrames(seed: UInt64, count: Int) -> [Frame] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let kind = FrameKind.allCases[rng.next(in: 0...(FrameKind.allCases.count - 1))]
            let length = rng.next(in: 0...600)
            return Frame(kind, (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
    }

    static func decodeAll(_ chunks: [ArraySlice<UInt8>]) throws -> [Frame] {
        var d = FrameDecoder()
        var out: [Frame] = []
        for c in chunks {
            d.feed(c)
            while let f = try d.next() { out.append(f) }
        }
        try d.finish()
        return out
    }

    @Test(arguments: [UInt64(1), 2, 3, 42])
    func byteAtATimeDecodesLikeWhole(seed: UInt64) throws {
        let frames = Self.randomFrames(seed: seed, count: 40)
        var stream: [UInt8] = []
        for f in frames { FrameEncoder.append(f, to: &stream) }
        let whole = try Self.decodeAll([stream[...]])
        let single = try Self.decodeAll(stream.indices.map { stream[$0...$0] })
        #expect(whole == frames, "seed \(seed)")
        #expect(single == frames, "seed \(seed)")
    }

    /// Reads of random sizes, some fed twice before frames are taken: frames cut straight
    /// from the fed bytes and frames gathered across reads come out the same, in order.
    @Test(arguments: [UInt64(5), 6, 7, 8])
    func randomReadsDecodeLikeWhole(seed: UInt64) throws {
        let frames = Self.randomFrames(seed: seed, count: 60)
        var stream: [UInt8] = []
        for f in frames { FrameEncoder.append(f, to: &stream) }
        var rng = SplitMix64(seed: seed &* 31)
        var d = FrameDecoder()
        var out: [Frame] = []
        var at = 0
        while at < stream.count {
            let n = min(stream.count - at, rng.next(in: 1...1_500))
            // The shell's read buffer: one array, overwritten by every read.
            let read = Array(stream[at..<at + n])
            d.feed(read[...])
            at += n
            if rng.next(in: 0...3) != 0 || at == stream.count {
                while let f = try d.next() { out.append(f) }
            }
        }
        #expect(d.bufferedByteCount == 0, "seed \(seed)")
        #expect(out == frames, "seed \(seed)")
    }

    @Test func oversizedLengthIsRefusedFromTheHeaderAlone() {
        var d = FrameDecoder(maxBodyBytes: 1024)
        // Only the 8 header bytes: the body is never sent, so nothing can be buffered for it.
        d.feed([0x50, 0x4C, FrameHeader.version, FrameKind.userInfo.rawValue, 0x7F, 0xFF, 0xFF, 0xFF])
        #expect(throws: FrameDecodingError.oversized(length: 0x7FFF_FFFF, limit: 1024)) { try d.next() }
        #expect(d.bufferedByteCount == 0)
    }

    @Test func badMagicIsItsOwnError() {
        var d = FrameDecoder()
        d.feed(Array("GET / HTTP/1.1\r\n".utf8))
        #expect(throws: FrameDecodingError.badMagic(0x47, 0x45)) { try d.next() }
    }

    @Test func unknownVersionIsItsOwnError() {
        var d = FrameDecoder()
        d.feed([0x50, 0x4C, 9, FrameKind.ping.rawValue, 0, 0, 0, 0])
        #expect(throws: FrameDecodingError.unsupportedVersion(9)) { try d.next() }
    }

    @Test func unknownKindIsItsOwnError() {
        var d = FrameDecoder()
        d.feed([0x50, 0x4C, FrameHeader.version, 0xEE, 0, 0, 0, 0])
        #expect(throws: FrameDecodingError.unknownKind(0xEE)) { try d.next() }
    }

    @Test func truncatedFrameIsReportedAtEndOfStream() throws {
        var d = FrameDecoder()
        let bytes = FrameEncoder.encode(Frame(.userInfo, [1, 2, 3, 4, 5]))
        d.feed(bytes.dropLast(2))
        #expect(try d.next() == nil)
        #expect(throws: FrameDecodingError.truncated(bufferedBytes: bytes.count - 2)) { try d.finish() }
    }

    @Test func errorsAreStickyAndDistinct() {
        let errors: [FrameDecodingError] = [.badMagic(0, 0), .unsupportedVersion(2), .unknownKind(0xEE), .oversized(length: 5, limit: 4), .truncated(bufferedBytes: 3)]
        #expect(Set(errors.map(\.description)).count == errors.count)
        var d = FrameDecoder()
        d.feed([0x00])
        #expect(throws: FrameDecodingError.self) { try d.next() }
        d.feed(FrameEncoder.encode(Frame(.ping)))
        #expect(throws: FrameDecodingError.self) { try d.next() }
    }
}
