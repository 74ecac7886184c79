import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

@Suite("Replica delta codec")
struct ReplicaDeltaCodecTests {
    static func randomDelta(seed: UInt64) -> ReplicaDelta {
        var rng = ReplicaSplitMix64(seed: seed)
        let collections = ["goal", "sample", "workout", "settings", "設定"]
        var records: [DeltaRecord] = []
        var keys: Set<RecordKey> = []
        for _ in 0..<rng.below(40) {
            let id = ["g\(rng.below(300))", "目標-\(rng.below(9))", String(repeating: "long-id-", count: 1 + rng.below(4)) + "\(rng.below(9))", ""][rng.below(4)]
            let key = RecordKey(collections[rng.below(collections.count)], id)
            guard keys.insert(key).inserted else { continue }
            func stamp() -> HLCTimestamp {
                HLCTimestamp(wallMs: ReplicaFixture.start + Int64(rng.below(1_000_000)) - 500_000, counter: UInt32(rng.below(3) == 0 ? rng.below(1 << 20) : 0), replica: UInt16([1, 2, 40_000][rng.below(3)]))
            }
            if rng.below(5) == 0 {
                records.append(DeltaRecord(key: key, fields: [], tombstone: stamp()))
            } else {
                var fields: [DeltaField] = []
                for n in 0..<(1 + rng.below(4)) {
                    let value: PlistValue = [.int(Int64(rng.below(128))), .int(-1), .int(Int64.max), .int(128), ReplicaFixture.value(&rng), .data([1, 2, 3]), .dictionary(["a": 1, "b": [true]])][rng.below(7)]
                    fields.append(DeltaField(name: ["title", "v", "名前"][n % 3] + (n >= 3 ? "\(n)" : ""), value: value, stamp: stamp()))
                }
                records.append(DeltaRecord(key: key, fields: fields, tombstone: nil))
            }
        }
        records.sort { $0.key < $1.key }
        let partCount = 1 + rng.below(3)
        var d = ReplicaDelta(origin: UInt16(rng.below(3)), incarnation: rng.next(), baseSeq: UInt64(rng.below(1000)), upToSeq: UInt64(rng.below(2000)),
                             ackIncarnation: rng.next(), ackSeq: UInt64(rng.below(5000)), part: rng.below(partCount), partCount: partCount, records: records)
        d.storeWasReset = rng.below(2) == 0
        return d
    }

    @Test(arguments: Array(UInt64(1)...200))
    func randomDeltasRoundTrip(seed: UInt64) throws {
        let d = Self.randomDelta(seed: seed)
        let decoded = try ReplicaDeltaCodec.decode(ReplicaDeltaCodec.encode(d))
        #expect(decoded == d, "seed \(seed) (replay: ReplicaDeltaCodecTests.randomDelta(seed: \(seed)))")
    }

    /// The encoder remembers each position's field name and the last writer: names that move
    /// between positions, records with more or fewer fields, and writers that alternate
    /// still come back as written.
    /// A record id is checked as UTF-8 as it is read: an ASCII id, one in Japanese and one
    /// that follows a shared prefix come back as they were; a byte that cannot be in UTF-8
    /// (0xFF), or a lone continuation byte (0x80), in place of one of an id's bytes is refused.
    @Test(arguments: ["zq-plain-id", "zq-目標-7"])
    func recordIdsAreValidUTF8OrRefused(id: String) throws {
        let stamp = HLCTimestamp(wallMs: ReplicaFixture.start, counter: 0, replica: 1)
        let records = [DeltaRecord(key: RecordKey("goal", "zq-"), fields: [DeltaField(name: "v", value: .int(1), stamp: stamp)], tombstone: nil),
                       DeltaRecord(key: RecordKey("goal", id), fields: [DeltaField(name: "v", value: .int(2), stamp: stamp)], tombstone: nil)]
        let d = ReplicaDelta(origin: 1, incarnation: 5, baseSeq: 0, upToSeq: 2, ackIncarnation: 0, ackSeq: 0, part: 0, partCount: 1, records: records)
        let bytes = ReplicaDeltaCodec.encode(d)
        #expect(try ReplicaDeltaCodec.decode(bytes).records.map(\.key.id) == ["zq-", id])
        // The second id is sent as its suffix after the shared "zq-": find that suffix.
        let suffix = Array(id.utf8.dropFirst(3))
        let at = try #require((0...(bytes.count - suffix.count)).first { bytes[$0..<$0 + suffix.count].elementsEqual(suffix) })
        for bad: UInt8 in [0xFF, 0x80] {
            var tampered = bytes
            tampered[at] = bad
            #expect(throws: ByteReaderError.invalidUTF8) { try ReplicaDeltaCodec.decode(tampered) }
        }
    }

    @Test func namesThatChangePlaceAndAlternatingWritersRoundTrip() throws {
        func s(_ wall: Int64, _ replica: UInt16) -> HLCTimestamp { HLCTimestamp(wallMs: ReplicaFixture.start + wall, counter: 0, replica: replica) }
        let records = [
            DeltaRecord(key: RecordKey("sample", "a"), fields: [DeltaField(name: "b", value: 1, stamp: s(1, 1)), DeltaField(name: "a", value: 2, stamp: s(2, 2))], tombstone: nil),
            DeltaRecord(key: RecordKey("sample", "b"), fields: [DeltaField(name: "a", value: 3, stamp: s(3, 1)), DeltaField(name: "b", value: 4, stamp: s(4, 1)), DeltaField(name: "c", value: 5, stamp: s(5, 2))], tombstone: nil),
            DeltaRecord(key: RecordKey("sample", "c"), fields: [], tombstone: s(6, 40_000)),
            DeltaRecord(key: RecordKey("sample", "d"), fields: [DeltaField(name: "c", value: 6, stamp: s(7, 2))], tombstone: nil),
            DeltaRecord(key: RecordKey("workout", "e"), fields: [DeltaField(name: "c", value: 7, stamp: s(8, 1)), DeltaField(name: "b", value: 8, stamp: s(9, 40_000)), DeltaField(name: "a", value: "x", stamp: s(10, 2))], tombstone: nil),
        ]
        let d = ReplicaDelta(origin: 1, incarnation: 9, baseSeq: 0, upToSeq: 5, ackIncarnation: 0, ackSeq: 0, part: 0, partCount: 1, records: records)
        #expect(try ReplicaDeltaCodec.decode(ReplicaDeltaCodec.encode(d)).records == records)
    }

    @Test func unsortedRecordsComeBackSortedByKey() throws {
        var d = Self.randomDelta(seed: 3)
        let sorted = d.records
        d.records.reverse()
        #expect(try ReplicaDeltaCodec.decode(ReplicaDeltaCodec.encode(d)).records == sorted)
    }

    @Test(arguments: Array(UInt64(1)...40))
    func damagedBytesAreRefusedWithoutTrapping(seed: UInt64) {
        var rng = ReplicaSplitMix64(seed: seed ^ 0xDA3A6E)
        let bytes = ReplicaDeltaCodec.encode(Self.randomDelta(seed: seed))
        for cut in 0..<bytes.count {
            #expect(throws: ByteReaderError.self, "seed \(seed): a prefix of \(cut) bytes decoded") { try ReplicaDeltaCodec.decode(Array(bytes[..<cut])) }
        }
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<(1 + rng.below(4)) { damaged[rng.below(damaged.count)] = UInt8(truncatingIfNeeded: rng.next()) }
            _ = try? ReplicaDeltaCodec.decode(damaged)  // either outcome, but no trap
        }
    }

    @Test func aHostileStampCannotPushTheClockToOverflow() {
        var w = ByteWriter()
        w.writeByte(2); w.writeVarint(1); w.writeUInt64BE(1); w.writeVarint(0); w.writeSignedVarint(0)
        w.writeUInt64BE(0); w.writeVarint(0); w.writeByte(0)
        w.writeSignedVarint(Int64.max - 10)  // base wall
        w.writeVarint(1); w.writeVarint(1)  // writers
        w.writeVarint(1); w.writeString("v")  // names
        w.writeVarint(1); w.writeString("goal"); w.writeVarint(1)
        w.writeVarint(1); w.writeByte(0x61)  // id "a"
        w.writeVarint(2); w.writeVarint(0); w.writeVarint(0); w.writeVarint(0); w.writeByte(0x81)
        #expect(throws: ByteReaderError.malformed("bad stamp")) { try ReplicaDeltaCodec.decode(w.bytes) }
    }

    /// A part of two `goal` records whose ids are written as (shared, suffix) against the
    /// previous id of the collection, each with one field `v` = 1.
    static func twoRecordPart(_ first: (shared: UInt64, suffix: String), _ second: (shared: UInt64, suffix: String)) -> [UInt8] {
        var w = ByteWriter()
        w.writeByte(2); w.writeVarint(1); w.writeUInt64BE(1); w.writeVarint(0); w.writeSignedVarint(0)
        w.writeUInt64BE(0); w.writeVarint(0); w.writeByte(0)
        w.writeSignedVarint(0)  // base wall
        w.writeVarint(1); w.writeVarint(1)  // writers
        w.writeVarint(1); w.writeString("v")  // names
        w.writeVarint(1); w.writeString("goal"); w.writeVarint(2)
        for id in [first, second] {
            w.writeVarint(id.shared << 4 | UInt64(id.suffix.utf8.count)); w.writeBytes(Array(id.suffix.utf8))
            w.writeVarint(2); w.writeVarint(0); w.writeVarint(0); w.writeVarint(0); w.writeByte(0x81)
        }
        return w.bytes
    }

    /// Ids share bytes with the previous id of their collection, never more than it has: the
    /// first id of a collection shares none.
    @Test func anIdSharingMoreThanThePreviousIdHasIsRefused() throws {
        let ok = try ReplicaDeltaCodec.decode(Self.twoRecordPart((0, "ab"), (1, "c")))
        #expect(ok.records.map(\.key.id) == ["ab", "ac"])
        #expect(throws: ByteReaderError.malformed("bad record id")) { try ReplicaDeltaCodec.decode(Self.twoRecordPart((1, "ab"), (1, "c"))) }
        #expect(throws: ByteReaderError.malformed("bad record id")) { try ReplicaDeltaCodec.decode(Self.twoRecordPart((0, "ab"), (3, "c"))) }
        // Sharing all of the previous id is allowed.
        #expect(try ReplicaDeltaCodec.decode(Self.twoRecordPart((0, "ab"), (2, "c"))).records.map(\.key.id) == ["ab", "abc"])
    }

    @Test func aThousandSmallRecordsFitInSixteenKilobytes() {
        var s = ReplicaState(replica: 1, schema: .fitnessAndCountdown)
        for i in 0..<1_000 {
            s.set(RecordKey("bench", "k\(i)"), field: "v", to: .int(Int64(i % 100)), wallMs: ReplicaFixture.start + Int64(i))
        }
        let d = ReplicaDelta(origin: 1, incarnation: 1, baseSeq: 0, upToSeq: s.seq, ackIncarnation: 2, ackSeq: 0, records: s.fullState())
        let size = ReplicaDeltaCodec.encode(d).count
        #expect(size <= 16_384, "\(size) bytes")
        #expect(size <= 9_000, "about 8 bytes a record: \(size) bytes")
    }
}
