import Testing
@testable import PeerLinkCore

/// The timeline names each transfer frame after its transfer and marks a second send a retry.
@Suite("Frame labels in timelines")
struct FrameLabelerTests {
    static func frame(_ kind: FrameKind, _ body: [UInt8]) -> FrameSummary { FrameSummary(Frame(kind, body)) }

    @Test func transferFramesAreNamedAfterTheirTransfer() {
        let cases: [(FrameSummary, String, Bool)] = [
            (Self.frame(.userInfo, FrameBodies.encodeVarints(7, 6) + [0] + CanonicalEncoding.encode(["a": 1])), "userInfo u7", true),
            (Self.frame(.context, FrameBodies.encodeVarint(3) + CanonicalEncoding.encode([:])), "context v3", true),
            (Self.frame(.fileChunk, FrameBodies.encodeVarints(2, 262_144) + [1, 2, 3]), "fileChunk f2@262144", true),
            (Self.frame(.fileEnd, FrameBodies.encodeVarint(2) + [UInt8](repeating: 0, count: 32)), "fileEnd f2", true),
            (Self.frame(.message, FrameBodies.encodeVarint(12) + [0]), "message m12", false),
            (Self.frame(.ping, [0]), "ping", false),
            (Self.frame(.userInfoAck, []), "userInfoAck", false),
        ]
        for (bytes, label, isTransfer) in cases {
            let got = FrameLabeler.label(bytes)
            #expect(got.label == label && got.isTransfer == isTransfer, "\(got) for \(label)")
        }
    }

    /// The numbered labels are written byte by byte: they equal the interpolated ones for
    /// every digit count, the extremes and a kind that is not ASCII.
    @Test func numberedLabelsAreTheInterpolatedOnes() {
        let numbers: [UInt64] = [0, 9, 10, 99, 100, 262_144, 1 << 32, UInt64.max - 1, .max]
        for kind in ["message", "messageReply", "fileChunk", "", "ü→ß"] {
            for n in numbers {
                #expect(FrameLabeler.numbered(kind, "m", n) == "\(kind) m\(n)")
                for offset in numbers {
                    #expect(FrameLabeler.numbered(kind, "f", n, at: offset) == "\(kind) f\(n)@\(offset)")
                }
            }
        }
    }

    @Test func aRelayNamesOnlyTheRecordType() {
        #expect(FrameLabeler.label(record: RecordEncoder.encode(.sealed, [1, 2, 3])) == "sealed")
        #expect(FrameLabeler.label(record: RecordEncoder.encode(.hello, [1])) == "hello")
        #expect(FrameLabeler.label(record: [0x50, 0x4C]) == "bytes")
    }

    @Test func aTransferFrameSentAgainInTheSameDirectionIsARetry() {
        var l = FrameLabeler()
        let u7 = Self.frame(.userInfo, FrameBodies.encodeVarints(7, 6) + [0] + CanonicalEncoding.encode(["a": 1]))
        let ping = Self.frame(.ping, [0])
        #expect(l.label(sending: u7, direction: "watch>phone") == "userInfo u7")
        #expect(l.label(sending: u7, direction: "phone>watch") == "userInfo u7")
        #expect(l.label(sending: u7, direction: "watch>phone") == "userInfo u7 retry")
        #expect(l.label(sending: ping, direction: "watch>phone") == "ping")
        #expect(l.label(sending: ping, direction: "watch>phone") == "ping")
    }
}
