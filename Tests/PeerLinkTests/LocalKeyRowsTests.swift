import Testing
@testable import PeerLinkCore

/// `LocalKeyRows` hands back a key's UTF-8 from its last few keys, and copies any other: the
/// row key of a local value is its key's UTF-8 whichever way it came.
@Suite("The local table's row keys")
struct LocalKeyRowsTests {
    @Test func everyRowIsItsKeysUTF8WhateverWasKeptBefore() {
        // More distinct keys than are kept, repeated and interleaved, short and long (a long
        // string is stored apart), ASCII and not.
        // "e\u{301}" and "\u{e9}" are equal strings (canonically equivalent) with different
        // UTF-8: each must get its own bytes.
        let keys = ["live", "link", "workout.snapshot", "workout.chunk.0", "workout.chunk.1", "名前", "e\u{301}", "\u{e9}", "",
                    "a", "a-key-longer-than-fifteen-bytes"]
        for seed: UInt64 in [1, 2, 3] {
            var rng = SplitMix64(seed: seed)
            var rows = LocalKeyRows()
            for step in 0..<400 {
                let key = keys[rng.next(in: 0...(keys.count - 1))]
                #expect(rows.row(key) == Array(key.utf8), "seed \(seed), step \(step): \(key)")
            }
        }
    }

    /// The point of it: a key asked for again is not copied again (the same storage comes
    /// back) while it is among the last four; a fifth key replaces the oldest.
    @Test func aKeyAskedForAgainIsNotCopiedUntilFourOthersCameAfterIt() {
        func address(_ a: [UInt8]) -> UnsafeRawPointer? { a.withUnsafeBytes { $0.baseAddress } }
        var rows = LocalKeyRows()
        let live = rows.row("live.workout")
        #expect(address(rows.row("live.workout")) == address(live))
        for key in ["b", "c", "d"] { _ = rows.row(key) }
        #expect(address(rows.row("live.workout")) == address(live))
        _ = rows.row("e")  // the fifth: replaces "live.workout", the oldest
        let again = rows.row("live.workout")
        #expect(again == live)
        #expect(address(again) != address(live))
    }

    @Test func equalStringsWithDifferentBytesAreDifferentRows() {
        var rows = LocalKeyRows()
        #expect(rows.row("\u{e9}") == [0xC3, 0xA9])
        #expect(rows.row("e\u{301}") == [0x65, 0xCC, 0x81])
        #expect(rows.row("\u{e9}") == [0xC3, 0xA9])
    }
}
