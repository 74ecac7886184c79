import Testing
@testable import PeerLinkCore

@Suite("Record decoder")
struct RecordDecoderTests {
    /// A seeded sequence of records of every type with random bodies.
    static func randomRecords(seed: UInt64, count: Int) -> [Record] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let type = RecordType.allCases[rng.next(in: 0...(RecordType.allCases.count - 1))]
            let length = rng.next(in: 0...600)
            return Record(type, (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
    }

    static func decodeAll(_ chunks: [ArraySlice<UInt8>]) throws -> [Record] {
        var d = RecordDecoder()
        var out: [Record] = []
        for c in chunks {
            d.feed(c)
            while let r = try d.next() { out.append(r) }
        }
        try d.finish()
        return out
    }

    @Test(arguments: [UInt64(1), 2, 3, 42])
    func byteAtATimeDecodesLikeWhole(seed: UInt64) throws {
        let records = Self.randomRecords(seed: seed, count: 40)
        let stream = records.flatMap(RecordEncoder.encode)
        let whole = try Self.decodeAll([stream[...]])
        let single = try Self.decodeAll(stream.indices.map { stream[$0...$0] })
        #expect(whole == records, "seed \(seed)")
        #expect(single == records, "seed \(seed)")
    }

    /// Reads of random sizes, some fed twice before records are taken: records cut straight
    /// from the fed bytes and records gathered across reads come out the same, in order.
    @Test(arguments: [UInt64(5), 6, 7, 8])
    func randomReadsDecodeLikeWhole(seed: UInt64) throws {
        let records = Self.randomRecords(seed: seed, count: 60)
        let stream = records.flatMap(RecordEncoder.encode)
        var rng = SplitMix64(seed: seed &* 31)
        var d = RecordDecoder()
        var out: [Record] = []
        var at = 0
        while at < stream.count {
            let n = min(stream.count - at, rng.next(in: 1...1_500))
            // The shell's read buffer: one array, overwritten by every read.
            let read = Array(stream[at..<at + n])
            d.feed(read[...])
            at += n
            if rng.next(in: 0...3) != 0 || at == stream.count {
                while let r = try d.next() { out.append(r) }
            }
        }
        #expect(d.bufferedByteCount == 0, "seed \(seed)")
        #expect(out == records, "seed \(seed)")
    }

    @Test func aLengthOverTheTypesLimitIsRefusedFromTheHeaderAlone() {
        var d = RecordDecoder(limits: RecordLimits(hello: 48))
        // Five header bytes are enough: the high byte of the length already exceeds 48.
        d.feed([0x50, 0x4C, RecordHeader.version, RecordType.hello.rawValue, 0xFF])
        #expect(throws: RecordDecodingError.oversized(.hello, length: 0xFF00, limit: 48)) { try d.next() }
        #expect(d.bufferedByteCount == 0)
        var e = RecordDecoder(limits: RecordLimits(hello: 48))
        e.feed([0x50, 0x4C, RecordHeader.version, RecordType.hello.rawValue, 0x00, 49])
        #expect(throws: RecordDecodingError.oversized(.hello, length: 49, limit: 48)) { try e.next() }
    }

    @Test func aTypeThePhaseDoesNotAcceptIsRefusedFromItsHeader() {
        var d = RecordDecoder(limits: RecordLimits(hello: 48))
        d.feed([0x50, 0x4C, RecordHeader.version, RecordType.sealed.rawValue])
        #expect(throws: RecordDecodingError.refused(.sealed, accepted: "hello")) { try d.next() }
    }

    @Test func badMagicIsItsOwnError() {
        var d = RecordDecoder()
        d.feed(Array("GET / HTTP/1.1\r\n".utf8))
        #expect(throws: RecordDecodingError.badMagic(0x47, 0x45)) { try d.next() }
    }

    @Test func anotherVersionIsItsOwnError() {
        var d = RecordDecoder()
        d.feed([0x50, 0x4C, 1, 0x01, 0, 0, 0, 0x31])
        #expect(throws: RecordDecodingError.unsupportedVersion(1)) { try d.next() }
    }

    @Test func unknownTypeIsItsOwnError() {
        var d = RecordDecoder()
        d.feed([0x50, 0x4C, RecordHeader.version, 0xEE, 0, 0])
        #expect(throws: RecordDecodingError.unknownType(0xEE)) { try d.next() }
    }

    @Test func truncatedRecordIsReportedAtEndOfStream() throws {
        var d = RecordDecoder()
        let bytes = RecordEncoder.encode(.sealed, [1, 2, 3, 4, 5])
        d.feed(bytes.dropLast(2))
        #expect(try d.next() == nil)
        #expect(throws: RecordDecodingError.truncated(bufferedBytes: bytes.count - 2)) { try d.finish() }
    }

    @Test func errorsAreStickyAndDistinct() {
        let errors: [RecordDecodingError] = [.badMagic(0, 0), .unsupportedVersion(1), .unknownType(0xEE), .refused(.hello, accepted: ""),
                                             .oversized(.sealed, length: 5, limit: 4), .truncated(bufferedBytes: 3), .closing("x")]
        #expect(Set(errors.map(\.description)).count == errors.count)
        var d = RecordDecoder()
        d.feed([0x00])
        #expect(throws: RecordDecodingError.self) { try d.next() }
        d.feed(RecordEncoder.encode(.sealed, []))
        #expect(throws: RecordDecodingError.self) { try d.next() }
    }
}
