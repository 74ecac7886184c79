import Testing
@testable import PeerLinkCore

/// `RecordEntry`'s shortcuts (`writeAll` for a new record, the append path of `write`) give
/// exactly the entry that writing the fields one by one in any order gives.
@Suite("Record entry writes")
struct RecordEntryWriteTests {
    /// Field names with shared eight-byte prefixes, non-ASCII and empty names among them.
    static let names = ["kind", "kindOfThing", "kindOfThings", "startMs", "endMs", "value", "workoutID", "", "歩数", "e\u{301}",
                        "é", "abcdefgh", "abcdefghi", "abcdefgg", "z", "Z", "\u{7F}", "\u{80}"]

    @Test func writeAllEqualsWritingOneByOne() {
        let seed: UInt64 = 0xE17A_11
        var rng = SplitMix64(seed: seed)
        for i in 0..<2_000 {
            var values: [String: PlistValue] = [:]
            for _ in 0..<rng.next(in: 0...8) { values[Self.names[rng.next(in: 0...Self.names.count - 1)]] = .int(Int64(rng.next(in: 0...99))) }
            let stamp = HLCTimestamp(wallMs: Int64(rng.next(in: 0...1_000_000)), counter: 0, replica: 1)
            let seq = UInt64(rng.next(in: 1...50))
            var fast = RecordEntry()
            fast.writeAll(values, stamp: stamp, seq: seq)
            var slow = RecordEntry()
            var order = Array(values.keys)
            order.shuffle(using: &rng)
            for name in order { slow.write(name, Register(value: values[name]!, stamp: stamp, seq: seq)) }
            #expect(fast == slow, "seed \(seed), case \(i): \(values.keys.sorted())")
            #expect(fast.registers.map(\.name) == values.keys.sorted { CanonicalEncoding.utf8Less($0, $1) }, "seed \(seed), case \(i)")
        }
    }
}

/// A name `==` to an earlier one (a canonically equivalent spelling) replaces its register, as
/// it always did, whether it is written locally or merged from a peer.
@Suite("Record entry writes: equivalent names")
struct RecordEntryEquivalentNameTests {
    static let stamp = HLCTimestamp(wallMs: 1_000, counter: 0, replica: 1)

    @Test func anEquivalentSpellingReplacesTheEarlierRegister() {
        for (earlier, later) in [("e\u{301}", "\u{e9}"), ("\u{e9}", "e\u{301}"), ("e\u{301}x", "\u{e9}x")] {
            var e = RecordEntry()
            e.write("a", Register(value: 1, stamp: Self.stamp, seq: 1))
            e.write(earlier, Register(value: 2, stamp: Self.stamp, seq: 2))
            e.write(later, Register(value: 3, stamp: Self.stamp, seq: 3))
            #expect(e.registers.count == 2, "\(e.registers.map { Array($0.name.utf8) })")
            #expect(e[later]?.value == 3)
        }
    }

    @Test func aMergedRecordWithEquivalentNamesKeepsOneRegister() {
        var state = ReplicaState(replica: 2, schema: ReplicaSchema())
        let key = RecordKey("goal", "g1")
        let fields = [
            DeltaField(name: "a", value: 1, stamp: Self.stamp), DeltaField(name: "e\u{301}", value: 2, stamp: Self.stamp),
            DeltaField(name: "\u{e9}", value: 3, stamp: Self.stamp),
        ]
        state.merge(DeltaRecord(key: key, fields: fields, tombstone: nil), wallMs: 2_000)
        #expect(state.entry(key)?.registers.count == 2)
    }
}
