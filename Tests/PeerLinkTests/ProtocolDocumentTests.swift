import Foundation
import Testing
@testable import PeerLinkCore
@testable import PeerLinkPOSIX
@testable import FitnessDomain
@testable import CountdownDomain

/// The test vectors of docs/PROTOCOL.md § 13, read from the document itself and checked
/// against the production code: the sessions' handshake through the engine's wire, sealing,
/// the canonical encoding and the delta codec. If the code and the document part, this fails.
@Suite("docs/PROTOCOL.md test vectors")
struct ProtocolDocumentTests {
    /// `vector: NAME` blocks of the document: their `key: hex` lines (indented lines continue a value).
    static let vectors: [String: [String: String]] = {
        let file = #filePath
        let root = String(file[..<file.range(of: "/Tests/PeerLinkTests/")!.lowerBound])
        let text = readTextFile(root + "/docs/PROTOCOL.md") ?? ""
        var out: [String: [String: String]] = [:]
        var current: String?
        var lastKey: String?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("vector: ") { current = String(line.dropFirst(8)); out[current!] = [:]; continue }
            guard let name = current else { continue }
            if line.hasPrefix("```") { current = nil; lastKey = nil; continue }
            if line.hasPrefix(" "), let k = lastKey { out[name]![k]! += line.trimmingCharacters(); continue }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let k = String(line[..<colon])
            out[name]![k] = String(line[line.index(after: colon)...]).trimmingCharacters()
            lastKey = k
        }
        return out
    }()

    static func hex(_ block: String, _ key: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let v = try #require(vectors[block]?[key], "no \(block).\(key) in docs/PROTOCOL.md", sourceLocation: sourceLocation)
        return try #require(bytesFromHex(v), "\(block).\(key) is not hex", sourceLocation: sourceLocation)
    }

    /// Runs a watch and a phone session from fresh stores with the document's keys, their
    /// frames encoded by the engine's `ConnectionWire`; returns the records each side wrote.
    static func handshake(watchIncarnation: UInt64, phoneIncarnation: UInt64) throws -> (watch: [[UInt8]], phone: [[UInt8]], watchWire: ConnectionWire) {
        let psk = try hex("handshake", "psk")
        var watch = LinkSession(config: LinkConfig(role: .watch, pairingSecret: psk), persistent: LinkPersistent(incarnation: watchIncarnation), seed: 1)
        var phone = LinkSession(config: LinkConfig(role: .phone, pairingSecret: psk), persistent: LinkPersistent(incarnation: phoneIncarnation), seed: 2)
        watch.activate(); phone.activate()
        watch.setLocalAppState(AppState(flags: 0x03))
        phone.setLocalAppState(AppState(flags: 0x01))
        var ww = ConnectionWire(), pw = ConnectionWire()
        var sent: (watch: [[UInt8]], phone: [[UInt8]]) = ([], [])
        watch.onConnectionOpened(1, isInitiator: true, ephemeralKey: try hex("handshake", "watch-ephemeral-private"), now: 0)
        phone.onConnectionOpened(1, isInitiator: false, ephemeralKey: try hex("handshake", "phone-ephemeral-private"), now: 0)
        for _ in 0..<10 {
            var moved = false
            for (fromWatch, actions) in [(true, watch.drainActions()), (false, phone.drainActions())] {
                for a in actions {
                    switch a {
                    case .send(_, let f):
                        moved = true
                        let bytes = fromWatch ? ww.encode(f) : pw.encode(f)
                        if fromWatch { sent.watch.append(bytes) } else { sent.phone.append(bytes) }
                        var receiving = fromWatch ? pw : ww
                        receiving.feed(bytes[...], now: 0)
                        while let frame = try receiving.nextFrame(limits: fromWatch ? phone.recordLimits(for: 1) : watch.recordLimits(for: 1), now: 0) {
                            if fromWatch { phone.onFrame(1, frame, now: 0) } else { watch.onFrame(1, frame, now: 0) }
                        }
                        if fromWatch { pw = receiving } else { ww = receiving }
                    case .startSealing(_, let keys):
                        if fromWatch { ww.startSealing(keys, rekeyAfterBytes: watch.config.rekeyAfterBytes) } else { pw.startSealing(keys, rekeyAfterBytes: phone.config.rekeyAfterBytes) }
                    default: break
                    }
                }
            }
            if !moved { break }
        }
        #expect(watch.isConnected && phone.isConnected)
        return (sent.watch, sent.phone, ww)
    }

    @Test func theHandshakeTranscriptIsTheDocumentsByteForByte() throws {
        #expect(try Self.hex("handshake", "prologue") == LinkSession.noisePrologue)
        let psk = try Self.hex("handshake", "psk")
        let ew = try Self.hex("handshake", "watch-ephemeral-private"), ep = try Self.hex("handshake", "phone-ephemeral-private")
        #expect(X25519.publicKey(privateKey: ew) == (try Self.hex("handshake", "watch-ephemeral-public")))
        #expect(X25519.publicKey(privateKey: ep) == (try Self.hex("handshake", "phone-ephemeral-public")))
        let (watchSent, phoneSent, _) = try Self.handshake(watchIncarnation: 0x0102_0304_0506_0708, phoneIncarnation: 0x1112_1314_1516_1718)
        #expect(watchSent.first == (try Self.hex("handshake", "hello-record")))
        #expect(phoneSent.first == (try Self.hex("handshake", "hello-reply-record")))
        // The keys and the hash, from the Noise state machine itself.
        var i = NoiseHandshake(isInitiator: true, psk: psk, ephemeralPrivateKey: ew, prologue: LinkSession.noisePrologue, cipher: LinkConfig.protocolCipher)
        var r = NoiseHandshake(isInitiator: false, psk: psk, ephemeralPrivateKey: ep, prologue: LinkSession.noisePrologue, cipher: LinkConfig.protocolCipher)
        _ = try r.readFirstMessage(try i.writeFirstMessage())
        let (m2, _) = try r.writeSecondMessage()
        let keys = try i.readSecondMessage(m2).keys
        #expect(keys.sending == (try Self.hex("handshake", "key-watch-to-phone")))
        #expect(keys.receiving == (try Self.hex("handshake", "key-phone-to-watch")))
        #expect(keys.handshakeHash == (try Self.hex("handshake", "handshake-hash")))
    }

    @Test func theSealedFramesAreTheDocumentsByteForByte() throws {
        let (watchSent, phoneSent, watchWire) = try Self.handshake(watchIncarnation: 0x0102_0304_0506_0708, phoneIncarnation: 0x1112_1314_1516_1718)
        #expect(watchSent.count >= 2 && phoneSent.count >= 2)
        #expect(watchSent[1] == (try Self.hex("sealed", "auth-record")))
        #expect(phoneSent[1] == (try Self.hex("sealed", "ready-record")))
        // The bodies they carry.
        var keys = TransportKeys(cipher: LinkConfig.protocolCipher, sending: try Self.hex("handshake", "key-phone-to-watch"),
                                 receiving: try Self.hex("handshake", "key-watch-to-phone"), handshakeHash: [])
        var phoneEnd = SecureChannel(keys: keys, rekeyAfterBytes: 16 << 20)
        let auth = try phoneEnd.open(Array(watchSent[1].dropFirst(RecordHeader.size))[...])
        #expect(auth == Frame(.auth, try Self.hex("sealed", "auth-body")))
        // The user info, as the watch's wire seals its second record.
        let payload = try Self.hex("canonical", "value-hex")
        let body = FrameBodies.UserInfo(seq: 7, prev: 6, isComplicationStream: false, isCurrent: false, payload: payload).encode()
        #expect(body == (try Self.hex("sealed", "userinfo-body")))
        keys.sending = try Self.hex("handshake", "key-watch-to-phone")
        var watchEnd = SecureChannel(keys: keys, rekeyAfterBytes: 16 << 20)
        _ = watchEnd.seal(Frame(.auth, try Self.hex("sealed", "auth-body")))  // record 0
        #expect(watchEnd.seal(Frame(.userInfo, body)) == (try Self.hex("sealed", "userinfo-record")))
        var wire = watchWire
        #expect(wire.encode(Frame(.userInfo, body)) == (try Self.hex("sealed", "userinfo-record")), "the engine's own wire, after its auth")
        #expect(try phoneEnd.open(Array(Self.hex("sealed", "userinfo-record").dropFirst(RecordHeader.size))[...]) == Frame(.userInfo, body))
    }

    static let canonicalValue: PlistValue = [
        "title": "マラソン", "days": -3, "pace": 5.25, "done": false, "shared": true, "at": .date(1_780_000_000.5),
        "blob": .data([0x00, 0xFF]), "laps": [1, "two", [3]], "goal": ["steps": 10_000, "Z": 300],
    ]

    @Test func theCanonicalValueIsTheDocumentsByteForByte() throws {
        let bytes = try Self.hex("canonical", "value-hex")
        #expect(CanonicalEncoding.encode(Self.canonicalValue) == bytes)
        #expect(try CanonicalEncoding.decode(bytes) == Self.canonicalValue)
        #expect(CanonicalEncoding.encodedSize(Self.canonicalValue) == bytes.count)
    }

    /// The vector's records as a store holds and sends them: merged from records whose fields
    /// come in any order, then read back with `changes(after:)`, the production path of a
    /// delta (which puts a record's fields in UTF-8 order of their names, § 12).
    @Test func theDeltaIsTheDocumentsByteForByte() throws {
        func stamp(_ wall: Int64, _ counter: UInt32, _ replica: UInt16) -> HLCTimestamp { HLCTimestamp(wallMs: wall, counter: counter, replica: replica) }
        var store = ReplicaState(replica: 2, schema: .fitnessAndCountdown)
        store.apply([
            DeltaRecord(key: RecordKey("workout", "w1"), fields: [DeltaField(name: "title", value: "朝ラン", stamp: stamp(1_780_000_002_000, 0, 1)),
                                                                            DeltaField(name: "kcal", value: 130, stamp: stamp(1_780_000_000_000, 2, 2))], tombstone: nil),
            DeltaRecord(key: RecordKey("goal", "g10"), fields: [DeltaField(name: "title", value: "Marathon", stamp: stamp(1_780_000_000_000, 0, 2)),
                                                                           DeltaField(name: "target", value: 42, stamp: stamp(1_780_000_000_500, 1, 2))], tombstone: nil),
            DeltaRecord(key: RecordKey("goal", "g11"), fields: [], tombstone: stamp(1_780_000_001_000, 0, 1)),
        ], wallMs: 1_780_000_003_000)
        let records = store.changes(after: 0, excludingWriter: nil)
        #expect(records.map { $0.fields.map(\.name) } == [["target", "title"], [], ["kcal", "title"]])
        var d = ReplicaDelta(origin: 2, incarnation: 0x0A0B_0C0D_0E0F_1011, baseSeq: 4, upToSeq: 9, ackIncarnation: 0x1112_1314_1516_1718, ackSeq: 3,
                             part: 1, partCount: 2, records: records)
        d.coverage = DeltaCoverage(from: RecordKey("goal", "g1"), through: nil)
        let bytes = try Self.hex("delta", "delta-hex")
        #expect(ReplicaDeltaCodec.encode(d) == bytes)
        #expect(try ReplicaDeltaCodec.decode(bytes) == d)
    }
}
