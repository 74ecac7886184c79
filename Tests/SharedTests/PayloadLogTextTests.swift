import PeerLinkCore
import Testing

/// How a peer's payload appears in a log line: bounded, one line, deterministic.
@Suite struct PayloadLogTextTests {
    @Test func aShortValueIsLoggedWholeAndALongOneCutWithItsSize() {
        let short: PlistValue = ["goal": 8_000, "language": "ja"]
        #expect(short.logText() == short.jsonString())
        let long: PlistValue = ["blob": .string(String(repeating: "y", count: 5_000))]
        let text = long.logText()
        #expect(text.count == PlistValue.logTextLimit)
        #expect(text.hasPrefix("{\"blob\":\"yyy"))
        #expect(text.hasSuffix("… (\(CanonicalEncoding.encodedSize(long)) bytes)"))
    }

    @Test func aSummaryNamesSizeAndKeysInByteOrderEscapedOnOneLine() {
        let v: PlistValue = ["b": 1, "a\nfake log line": true, "Z": "x"]
        #expect(v.logSummary() == "\(CanonicalEncoding.encodedSize(v)) bytes, 3 keys: \"Z\", \"a\\nfake log line\", \"b\"")
        #expect(PlistValue.data([1, 2, 3]).logSummary() == "5 bytes, data")
        #expect(PlistValue.dictionary([:]).logSummary() == "2 bytes, 0 keys")
    }
}
