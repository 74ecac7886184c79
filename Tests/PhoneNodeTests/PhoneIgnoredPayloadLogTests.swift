import PeerLinkCore
import PhoneNode
import Testing

/// What the phone logs of watch traffic it does not understand: a bounded summary (size and
/// top-level keys), never the payload, so a paired peer cannot grow the log by what it sends.
@Suite struct PhoneIgnoredPayloadLogTests {
    typealias F = PhoneFixture

    /// A JSON dictionary of `count` keys `k0`… with values of `valueLength` "x"s.
    static func bigJSON(keys count: Int, valueLength: Int) -> String {
        let value = String(repeating: "x", count: valueLength)
        return "{" + (0..<count).map { "\"k\($0)\": \"\(value)\"" }.joined(separator: ", ") + "}"
    }

    /// The text after `marker` in the one phone log line that holds it.
    static func logged(_ net: PhoneNetwork, after marker: String) throws -> String {
        let lines = net.logs.filter { $0.contains(" phone ") && $0.contains(marker) }
        try #require(lines.count == 1, "\(lines.count) lines with '\(marker)'")
        let line = lines[0]
        return String(line[line.range(of: marker)!.upperBound...])
    }

    @Test func aLargeUnknownUserInfoIsLoggedAsABoundedSummary() throws {
        let net = try makePhoneNetwork(seed: 41, start: F.local("Asia/Tokyo", 2026, 6, 1, 8))
        let json = Self.bigJSON(keys: 600, valueLength: 90)
        let size = CanonicalEncoding.encodedSize(try PlistValue.parseJSON(json))
        #expect(size > 50_000 && size <= PayloadLimits.userInfoBytes)
        net.onWatch("userinfo " + json)
        let summary = try Self.logged(net, after: "ignored user info from the watch: ")
        #expect(summary.count <= PlistValue.logTextLimit)
        #expect(summary.hasPrefix("\(size) bytes, 600 keys: \"k0\", \"k1\", \"k10\", \"k100\""))
        #expect(summary.hasSuffix("…"))
        #expect(!summary.contains("xx"), "no value is logged")
    }

    @Test func anUnknownMessageIsAnsweredAndLoggedAsABoundedSummary() throws {
        let net = try makePhoneNetwork(seed: 42, start: F.local("Asia/Tokyo", 2026, 6, 1, 8))
        net.onWatch("message " + Self.bigJSON(keys: 2, valueLength: 30_000))
        let summary = try Self.logged(net, after: "ignored a message from the watch: ")
        #expect(summary.hasSuffix(" bytes, 2 keys: \"k0\", \"k1\""))
        #expect(summary.count <= PlistValue.logTextLimit)
    }
}
