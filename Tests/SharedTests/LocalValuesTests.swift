import Testing
@testable import PeerLinkCore

/// `LocalValues`: values stored as canonical bytes read back as the values they encode.
@Suite("Local values")
struct LocalValuesTests {
    @Test func bytesReadBackAsTheirValueAndValuesAsTheirBytes() {
        let head: PlistValue = ["workoutID": "w1", "sampleCount": 3, "energy": .double(1.5)]
        var l = LocalValues(["presence": "foreground"])
        l.set("head", encoded: CanonicalEncoding.encode(head))
        #expect(l["head"] == head)
        #expect(l["presence"] == "foreground")
        #expect(l.canonicalBytes("presence") == CanonicalEncoding.encode("foreground"))
        #expect(l.canonicalBytes("head") == CanonicalEncoding.encode(head))
        #expect(Set(l.keys) == ["head", "presence"])
        #expect(l.dictionary == ["head": head, "presence": "foreground"])
        l.set("head", ["replaced": true])
        #expect(l["head"] == ["replaced": true] && l.keys.count == 2, "a value replaces bytes")
        l.set("presence", encoded: CanonicalEncoding.encode("background"))
        #expect(l["presence"] == "background" && l.keys.count == 2, "bytes replace a value")
        l.set("head", nil)
        #expect(l["head"] == nil && l.keys == ["presence"])
    }
}
