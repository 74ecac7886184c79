import Testing
import PeerLinkCore

/// `ConnectionMap`, the engine's and the shell's table of open connections, does what a
/// dictionary by id does, keeping the order entries were added in.
@Suite("The connection map")
struct ConnectionMapTests {
    /// Random adds, replacements, removals and in-place changes, checked against a
    /// dictionary after every step.
    @Test(arguments: [0xC0AA_0001, 0xC0AA_0002] as [UInt64])
    func behavesAsADictionaryByID(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var map = ConnectionMap<String>()
        var reference: [ConnectionID: String] = [:]
        var order: [ConnectionID] = []
        for step in 0..<2_000 {
            let id = ConnectionID(rng.next() % 12)
            switch rng.next() % 4 {
            case 0, 1:
                let v = "v\(step)"
                map[id] = v
                if reference[id] == nil { order.append(id) }
                reference[id] = v
            case 2:
                #expect(map.removeValue(forKey: id) == reference.removeValue(forKey: id), "seed \(seed), step \(step)")
                order.removeAll { $0 == id }
            default:
                if let i = map.index(forKey: id) {
                    map.values[i] += "+"
                    reference[id]! += "+"
                } else {
                    #expect(reference[id] == nil, "seed \(seed), step \(step): \(id) not found")
                    map[id] = nil
                }
            }
            #expect(map.count == reference.count, "seed \(seed), step \(step)")
            #expect(map.keys == order, "seed \(seed), step \(step): the order entries were added in")
            #expect(map[id] == reference[id], "seed \(seed), step \(step)")
            #expect(map.mapValues { $0 } == reference, "seed \(seed), step \(step)")
            #expect(map.map(\.0) == order && map.map(\.1) == order.map { reference[$0]! }, "seed \(seed), step \(step)")
        }
    }

    @Test func anEmptyMapHasNothing() {
        var map = ConnectionMap<Int>()
        #expect(map.isEmpty && map[1] == nil && map.index(forKey: 1) == nil && map.removeValue(forKey: 1) == nil)
        map[1] = 10
        map[1] = 11
        #expect(!map.isEmpty && map.count == 1 && map[1] == 11 && map.values == [11])
    }
}
