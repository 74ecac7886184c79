import Testing
@testable import PeerLinkCore

/// A relay on the simulated link tampering with what the two genuine nodes send: each
/// change is detected, the connection closed with a logged reason, nothing of the bad
/// frame reaches the app, and the nodes reconnect and resend until everything arrived
/// exactly once, in order.
@Suite("Tampering on the simulated link")
struct TamperSimulationTests {
    /// Records per write and their bodies (what a relay can see: the clear headers).
    static func records(_ bytes: [UInt8]) -> [[UInt8]] {
        var d = RecordDecoder()
        d.feed(bytes)
        var out: [[UInt8]] = []
        while let r = try? d.next() { out.append(RecordEncoder.encode(r)) }
        return out
    }

    /// A network whose watch queues `count` user-info transfers after the relay is armed;
    /// `tamper` sees each watch → phone write of the first connection it is armed on, as
    /// records, with the number of records that crossed before it on that connection, and
    /// returns what to carry. Returns the network after it went quiet.
    static func run(seed: UInt64, count: Int = 30, configure: (inout LinkConfig) -> Void = { _ in },
                    tamper: @escaping (_ records: [[UInt8]], _ before: Int) -> [[UInt8]]) throws -> TestNetwork {
        let net = try makeNetwork(seed: seed, configure: configure)
        #expect(net.runUntilQuiet(maxMs: 60_000))
        let target = net.phone.ctx.session.activeConnectionID!
        var crossed = 0
        net.relay = { from, connection, bytes in
            guard from == .watch, connection == target else { return [bytes] }
            let rs = records(bytes)
            let out = tamper(rs, crossed)
            crossed += rs.count
            return out.isEmpty ? [] : [out.flatMap { $0 }]
        }
        net.command(.watch, "send \(count)")
        #expect(net.runUntilQuiet(maxMs: 600_000), "seed \(seed): the nodes never went quiet")
        return net
    }

    /// Everything the watch sent arrived exactly once, in order; the connection the relay
    /// tampered with was closed for `reason` and a new one carried the rest.
    static func expectRepaired(_ net: TestNetwork, count: Int = 30, reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let received = RecorderApp.received(net.phone.ctx).compactMap { $0["n"]?.intValue }
        #expect(received == (0..<Int64(count)).map { $0 }, "received \(received)", sourceLocation: sourceLocation)
        #expect(net.watch.ctx.outstandingUserInfoTransfers.isEmpty, sourceLocation: sourceLocation)
        #expect(net.logs.contains { $0.contains("phone warning: closing connection") && $0.contains(reason) },
                "no logged reason '\(reason)' in \(net.logs.filter { $0.contains("warning") })", sourceLocation: sourceLocation)
        #expect(net.phone.ctx.session.isConnected && net.phone.ctx.session.activeConnectionID! > 1, "no new connection", sourceLocation: sourceLocation)
        #expect(net.phone.ctx.session.stats.tamperingDetected >= 1, sourceLocation: sourceLocation)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aFlippedByteIsDetectedAndTheTransfersResent(seed: UInt64) throws {
        var done = false
        let net = try Self.run(seed: seed) { rs, before in
            guard !done, before + rs.count > 3 else { return rs }
            done = true
            var out = rs
            let i = max(0, 3 - before)
            out[i] = RecordTamper.flippingOneByte(out[i], random: seed &* 0x9E37_79B9)
            return out
        }
        Self.expectRepaired(net, reason: "failed authentication")
    }

    @Test func aReplayedRecordIsDetected() throws {
        var first: [UInt8]?
        var replayed = false
        let net = try Self.run(seed: 4) { rs, before in
            if first == nil { first = rs.first; return rs }
            guard !replayed, before > 4 else { return rs }
            replayed = true
            return rs + [first!]
        }
        Self.expectRepaired(net, reason: "failed authentication")
    }

    @Test func reorderedRecordsAreDetected() throws {
        var held: [[UInt8]]?
        var done = false
        let net = try Self.run(seed: 5) { rs, before in
            guard !done, before >= 2 else { return rs }
            if let h = held { done = true; return rs + h }
            held = rs
            return []
        }
        Self.expectRepaired(net, reason: "failed authentication")
    }

    @Test func aDroppedRecordIsDetectedAtTheNextOne() throws {
        var done = false
        let net = try Self.run(seed: 6) { rs, before in
            guard !done, before >= 3 else { return rs }
            done = true
            return Array(rs.dropFirst())
        }
        Self.expectRepaired(net, reason: "failed authentication")
    }

    @Test func aRecordCutShortIsDetected() throws {
        var done = false
        let net = try Self.run(seed: 7) { rs, before in
            guard !done, before >= 3 else { return rs }
            done = true
            // The header still says the full length: the bytes after it (the next records) are
            // taken as its rest, and it fails; a stream that ends inside it is logged as cut.
            var out = rs
            out[0] = Array(out[0].prefix(out[0].count / 2))
            return out
        }
        Self.expectRepaired(net, reason: "failed authentication")
    }

    @Test func anInjectedRecordIsDetected() throws {
        var done = false
        var rng = SplitMix64(seed: 8)
        let net = try Self.run(seed: 8) { rs, before in
            guard !done, before >= 3 else { return rs }
            done = true
            let forged = RecordEncoder.encode(.sealed, (0..<80).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            return [forged] + rs
        }
        Self.expectRepaired(net, reason: "failed authentication")
    }

    @Test func aPlaintextRecordAfterTheHandshakeIsRefused() throws {
        var done = false
        let net = try Self.run(seed: 9) { rs, before in
            guard !done, before >= 3 else { return rs }
            done = true
            var w = ByteWriter()
            w.writeString("the relay says goodbye")
            return [RecordEncoder.encode(.reject, w.bytes)] + rs
        }
        Self.expectRepaired(net, reason: "a reject record is out of protocol order here")
    }

    @Test func aRecordSealedWithTheKeyFromBeforeTheRekeyIsRefused() throws {
        // The relay knows the watch's first sending key (as if it had stolen it) and counts
        // records and their bytes; once the bound is crossed (both ends have rekeyed) it
        // replaces a genuine record with one sealed at the right counter under the old key.
        let bound = 2_048
        let net = try makeNetwork(seed: 10) { $0.rekeyAfterBytes = bound }
        var target: ConnectionID?
        var oldKey: [UInt8]?
        var crossed = 0, sealedBytes = 0
        var forgedAt: UInt64?
        net.relay = { [unowned net] from, connection, bytes in
            guard from == .watch, target == nil || connection == target else { return [bytes] }
            target = connection
            let sealed = Self.records(bytes).filter { $0[3] == RecordType.sealed.rawValue }
            guard !sealed.isEmpty else { return [bytes] }
            if oldKey == nil { oldKey = net.watch.wires[connection]?.wire.channel?.currentKeys.sending }
            defer { crossed += sealed.count; sealedBytes += sealed.reduce(0) { $0 + $1.count - RecordHeader.size } }
            guard forgedAt == nil, sealedBytes >= bound, let key = oldKey else { return [bytes] }
            forgedAt = UInt64(crossed)
            let forged = AEADKey(LinkConfig.protocolCipher, key: key, encrypting: true).seal(nonce: UInt64(crossed), [7, FrameKind.ping.rawValue])
            return [RecordEncoder.encode(.sealed, forged)]
        }
        #expect(net.runUntilQuiet(maxMs: 60_000))
        net.command(.watch, "send 200")
        #expect(net.runUntilQuiet(maxMs: 600_000))
        let at = try #require(forgedAt)
        #expect(net.logs.contains { $0.contains("phone warning: closing connection \(target!): sealed record \(at) failed authentication") },
                "\(net.logs.filter { $0.contains("warning") })")
        Self.expectRepaired(net, count: 200, reason: "failed authentication")
    }

    @Test func aWatchWithAnotherSecretNeverGetsInAndSeesNoPayload() throws {
        let cal = LocalCalendar(identifier: "Asia/Tokyo")!
        let net = try TestNetwork(seed: 11, startMs: 1_780_000_000_000,
                                  phone: .init(makeApp: { RecorderApp() }, config: LinkConfig(role: .phone, pairingSecret: [UInt8](repeating: 1, count: 32)), calendar: cal),
                                  watch: .init(makeApp: { RecorderApp() }, config: LinkConfig(role: .watch, pairingSecret: [UInt8](repeating: 2, count: 32)), calendar: cal))
        var seen: [RecordType] = []
        net.relay = { from, _, bytes in
            if from == .phone { seen += Self.records(bytes).compactMap { RecordType(rawValue: $0[3]) } }
            return [bytes]
        }
        net.command(.phone, "ctx goal secret")
        net.advance(by: 30_000)
        #expect(!net.phone.ctx.session.isConnected && !net.watch.ctx.session.isConnected)
        #expect(Set(seen) == [.reject], "the phone sent \(seen) to a watch without the secret")
        #expect(net.logs.contains { $0.contains("phone warning: rejected connection") && $0.contains("does not hold our pairing secret") })
        #expect(net.watch.ctx.receivedApplicationContext.isEmpty)
    }
}
