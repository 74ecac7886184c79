import Testing
@testable import PeerLinkCore
import PeerLinkSim

/// A local value's key is its UTF-8, in memory as in its store row: "\u{e9}" and "e\u{301}"
/// (equal Swift strings, canonically equivalent) are two keys, as they are two keys to
/// `UserDefaults`. Before, memory took them for one while the store kept two rows, and a
/// launch loaded whichever row came last in byte order.
@Suite("Local values keyed by their bytes")
struct LocalValuesKeyTests {
    static let composed = "\u{e9}", decomposed = "e\u{301}"

    @Test func twoSpellingsAreTwoKeys() {
        var v = LocalValues()
        v.set(Self.composed, .int(1))
        v.set(Self.decomposed, .int(2))
        #expect(v[Self.composed] == .int(1))
        #expect(v[Self.decomposed] == .int(2))
        #expect(v.keys.count == 2)
        v.set(Self.decomposed, nil)
        #expect(v[Self.composed] == .int(1) && v[Self.decomposed] == nil)
        #expect(v.keys.map { Array($0.utf8) } == [Array(Self.composed.utf8)], "the composed spelling's key is left")
        v.set(Self.decomposed, encoded: CanonicalEncoding.encode(.int(3)))
        #expect(v.canonicalBytes(Self.decomposed) == CanonicalEncoding.encode(.int(3)))
        #expect(v.canonicalBytes(Self.composed) == CanonicalEncoding.encode(.int(1)))
        // A Swift dictionary cannot hold both: the spelling later in byte order is given.
        #expect(v.dictionary == [Self.composed: .int(1)])
    }

    /// Written by the app, committed, read back by a new launch over the same store: each
    /// spelling keeps its own value (the older, decomposed one is first in byte order, so the
    /// merge of before gave both keys the composed one's value).
    @Test func eachSpellingKeepsItsValueAcrossARestart() throws {
        let h = try NodeHarness(role: .watch) { KeyedApp() }
        #expect(h.command("set \(Self.decomposed) 1").value == 1)
        #expect(h.command("set \(Self.composed) 2").value == 2)
        h.settle()
        try h.restart()
        #expect(h.query("get \(Self.decomposed)") == 1)
        #expect(h.query("get \(Self.composed)") == 2)
    }

    /// A row key that is not UTF-8 cannot have been written from a string: it is damage, and
    /// the launch says so (the shell then quarantines the store) instead of reading it under
    /// a repaired key, another key than its row's.
    @Test func aRowKeyThatIsNotUTF8IsACorruptStore() throws {
        let store = MemoryStore()
        try store.put(NodeContext.localTable, [0x6B, 0xFF], CanonicalEncoding.encode(.int(1)))
        do {
            _ = try NodeEngine(app: KeyedApp(), role: .watch, store: store, config: LinkConfig(role: .watch, pairingSecret: nil),
                               calendar: LocalCalendar(identifier: "Asia/Tokyo")!, language: .en, now: 1_780_000_000_000,
                               seed: 1, newIncarnation: 11)
            Issue.record("the store opened")
        } catch let e as StoreCorruption {
            #expect(e.reason == "app state row key is not UTF-8")
        }
    }
}

/// Sets and reads local values by key.
struct KeyedApp: NodeApp {
    mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let w = command.words
        guard w.count == 3, w[0] == "set", let n = Int64(w[2]) else { return .error("usage: set KEY N") }
        ctx.setLocal(w[1], .int(n))
        return .ok(.int(n))
    }

    mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {}

    func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        path.count == 2 && path[0] == "get" ? ctx.local[path[1]] : nil
    }
}
