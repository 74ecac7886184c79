import Testing
@testable import PeerLinkCore
@testable import PeerLinkSim

/// The limits an attacker meets, each at its edge, through the engine and the session on the
/// simulated network (and the session alone where a peer must break the protocol on purpose).
@Suite("Limits an attacker meets")
struct LinkLimitTests {
    /// The first `n` bytes of a well-formed hello record: a handshake that never completes.
    static func partialHello(_ n: Int) -> [UInt8] {
        let hello = StrangerFrames.attempt(ephemeralKey: [UInt8](repeating: 3, count: 32), wrongSecret: [UInt8](repeating: 4, count: 32))
        return Array(hello.prefix(n))
    }

    static func count(_ net: TestNetwork, _ text: String) -> Int { net.logs.filter { $0.contains(text) }.count }

    @Test func beforeAuthenticationOnlyHandshakeRecordsOfTheirOwnSizeAreTaken() throws {
        let net = try makeNetwork(seed: 1)
        #expect(net.runUntilQuiet())
        let cases: [([UInt8], String)] = [
            ([0x50, 0x4C, 2, RecordType.hello.rawValue, 0x00, UInt8(LinkSession.helloBytes + 1)], "hello record of 49 bytes over the limit of 48"),
            ([0x50, 0x4C, 2, RecordType.hello.rawValue, 0x10, 0x00], "over the limit of 48"),
            ([0x50, 0x4C, 2, RecordType.helloReply.rawValue, 0x00, 0x30], "a helloReply record is out of protocol order"),
            ([0x50, 0x4C, 2, RecordType.sealed.rawValue, 0x00, 0x30], "a sealed record is out of protocol order"),
            ([0x50, 0x4C, 2, RecordType.reject.rawValue, 0x00, 0x02], "a reject record is out of protocol order"),
            ([0x50, 0x4C, 1, 0x10, 0x00, 0x10, 0x00, 0x00], "unsupported protocol version 1"),
        ]
        for (bytes, reason) in cases {
            let id = net.injectConnection(bytes: bytes, direct: true)
            net.advance(to: net.now)
            #expect(!net.isRawConnectionOpen(id), "\(reason): still open")
            #expect(net.rawReply(id).isEmpty, "\(reason): the phone answered \(net.rawReply(id))")
            #expect(net.logs.contains { $0.contains("rejected connection \(id)") && $0.contains(reason) }, "no '\(reason)'")
        }
        // The decoder refused each from its header: nothing of a body was buffered.
        #expect(net.phone.ctx.session.handshakesInProgress == 0)
        #expect(net.phone.ctx.session.isConnected)
    }

    @Test func aHandshakeNotCompletedInTimeIsClosed() throws {
        let net = try makeNetwork(seed: 2)
        #expect(net.runUntilQuiet())
        let id = net.injectConnection(bytes: Self.partialHello(20), direct: true)
        net.advance(by: net.phone.ctx.session.config.handshakeTimeoutMs - 1)
        #expect(net.isRawConnectionOpen(id))
        net.advance(by: 1)
        #expect(!net.isRawConnectionOpen(id))
        #expect(net.logs.contains { $0.contains("rejected connection \(id): handshake not completed within 5000 ms") })
    }

    @Test func connectionsInTheHandshakeAreCappedOldestRefusedFirstWhileTheWatchIsServed() throws {
        let net = try makeNetwork(seed: 3)
        #expect(net.runUntilQuiet())
        let cap = net.phone.ctx.session.config.maxHandshakes
        var ids: [ConnectionID] = []
        for _ in 0..<(cap + 8) {
            ids.append(net.injectConnection(bytes: Self.partialHello(20), direct: true))
            net.advance(by: 10)
        }
        #expect(net.phone.ctx.session.handshakesInProgress == cap)
        #expect(ids.prefix(8).allSatisfy { !net.isRawConnectionOpen($0) }, "the oldest are refused")
        #expect(ids.suffix(cap).allSatisfy { net.isRawConnectionOpen($0) })
        #expect(Self.count(net, "more than \(cap) connections in the handshake: the oldest is refused") >= 1)
        // The paired watch keeps syncing, and reconnects in the middle of the crowd.
        net.command(.watch, "send 5")
        net.resetConnection()
        #expect(net.runUntilQuiet(maxMs: 60_000))
        #expect(RecorderApp.received(net.phone.ctx).count == 5)
    }

    @Test func whatConnectionsInTheHandshakeHoldIsCappedOldestRefusedFirst() throws {
        let net = try makeNetwork(seed: 4) { $0.maxHandshakeBufferedBytes = 100 }
        #expect(net.runUntilQuiet())
        let a = net.injectConnection(bytes: Self.partialHello(40), direct: true)
        net.advance(by: 10)
        let b = net.injectConnection(bytes: Self.partialHello(40), direct: true)
        net.advance(by: 10)
        #expect(net.isRawConnectionOpen(a) && net.isRawConnectionOpen(b))
        let c = net.injectConnection(bytes: Self.partialHello(40), direct: true)
        net.advance(by: 10)
        #expect(!net.isRawConnectionOpen(a), "the oldest goes once the total is over the cap")
        #expect(net.isRawConnectionOpen(b) && net.isRawConnectionOpen(c))
        #expect(Self.count(net, "connections in the handshake hold") == 1)
    }

    @Test func aFrameThatTricklesInIsCutOffAtItsBound() throws {
        let net = try makeNetwork(seed: 5)
        #expect(net.runUntilQuiet())
        // One byte a second: bytes keep arriving (the peer is not silent), but a frame of a few
        // dozen bytes must be in within the silence timeout plus its size at 1,000 B/s.
        net.faults.bandwidthBytesPerSecond = 1
        net.command(.watch, "send 1")
        net.advance(by: 20_000)
        #expect(net.logs.contains { $0.contains("is not complete") && $0.contains("a frame must arrive within 7000 ms plus its size at 1000 B/s") },
                "\(net.logs.filter { $0.contains("warning") })")
        net.faults.bandwidthBytesPerSecond = nil
        #expect(net.runUntilQuiet(maxMs: 600_000))
        #expect(RecorderApp.received(net.phone.ctx).count == 1)
    }

    @Test func refusalsAreLoggedTenAMinuteThenSummarised() throws {
        let net = try makeNetwork(seed: 6)
        #expect(net.runUntilQuiet())
        let before = Self.count(net, "rejected connection")
        for _ in 0..<100 { net.injectConnection(bytes: Array("GET / HTTP/1.1\r\n".utf8), direct: true) }
        net.advance(by: 1_000)
        #expect(Self.count(net, "rejected connection") - before == 10)
        #expect(Self.count(net, "more refused or failed connections not logged") == 0)
        net.advance(by: 60_000)
        #expect(net.logs.contains { $0.contains("90 more refused or failed connections not logged in the last 60 s (the last: rejected connection") })
        #expect(net.phone.ctx.session.stats.connectionsRejected >= 100)
        #expect(net.phone.ctx.session.isConnected)
    }

    /// User info in flight is bounded by bytes too, so what a connection's output holds stays
    /// bounded however large the transfers (at least one is always sent).
    @Test func userInfoInFlightIsBoundedByBytes() throws {
        var p = SessionPair.connected()
        let big: PlistValue = ["blob": .data([UInt8](repeating: 1, count: 60_000))]
        for _ in 0..<100 { _ = try p.watch.transferUserInfo(big, now: p.now).get() }
        p.collect()
        let sent = p.wire.filter { $0.frame.kind == .userInfo }.count
        #expect(sent == p.watch.config.maxUserInfoInFlightBytes / CanonicalEncoding.encodedSize(big))
        p.run()
        #expect(p.events(.phone) { if case .didReceiveUserInfo = $0 { true } else { false } }.count == 100)
    }
}

/// The receiver enforces the payload limits and types the sender's API checks: a peer that
/// breaks them commits a protocol error — the connection is closed with the reason logged
/// and nothing is delivered.
@Suite("Receiver-side payload limits")
struct ReceiverLimitTests {
    static func violation(_ frame: Frame, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var p = SessionPair.connected()
        let before = p.phoneEvents.count
        p.deliver(.phone, frame)
        #expect(p.closed.contains { $0.0 == .phone && $0.1.contains(reason) }, "\(p.closed)", sourceLocation: sourceLocation)
        #expect(p.phoneLogs.contains { $0.contains("closing connection") && $0.contains(reason) }, sourceLocation: sourceLocation)
        let delivered = p.phoneEvents.dropFirst(before).filter {
            switch $0 {
            case .didReceiveUserInfo, .didReceiveMessage, .didReceiveApplicationContext, .didReceiveFile: true
            default: false
            }
        }
        #expect(delivered.isEmpty, "delivered \(delivered)", sourceLocation: sourceLocation)
    }

    static func userInfo(_ payload: [UInt8]) -> Frame {
        Frame(.userInfo, FrameBodies.UserInfo(seq: 1, prev: 0, isComplicationStream: false, isCurrent: false, payload: payload).encode())
    }

    @Test func aUserInfoOverTheLimitIsAProtocolError() {
        let payload = CanonicalEncoding.encode(["x": .data([UInt8](repeating: 0, count: 100_000))])
        Self.violation(Self.userInfo(payload), "a user info of \(payload.count) bytes, over the limit of 65536")
    }

    @Test func aUserInfoThatIsNotADictionaryIsAProtocolError() {
        Self.violation(Self.userInfo(CanonicalEncoding.encode(.array([1, 2, 3]))), "a user info that is not a dictionary")
    }

    @Test func aMessageOverTheLimitIsAProtocolError() {
        let body = FrameBodies.Message(id: 1, payload: .data([UInt8](repeating: 0, count: 70_000)), replyExpected: false).encode()
        Self.violation(Frame(.message, body), "over the limit of 65536")
    }

    @Test func aContextOverTheLimitIsAProtocolError() {
        let body = FrameBodies.Context(version: 1, payload: CanonicalEncoding.encode(["x": .data([UInt8](repeating: 0, count: 300_000))])).encode()
        Self.violation(Frame(.context, body), "an application context of")
    }

    @Test func fileMetadataThatIsNotADictionaryIsAProtocolError() {
        let body = FrameBodies.FileOffer(number: 1, sizeBytes: 10, name: "a.bin", metadata: .string("meta")).encode()
        Self.violation(Frame(.fileOffer, body), "file metadata that is not a dictionary")
    }
}

/// Partial files in the inbox that no transfer can resume are removed.
@Suite("Abandoned partial files")
struct AbandonedPartialFileTests {
    @Test func partialFilesNoTransferCanResumeAreRemovedAtLaunchAndTheIncomingOneIsKept() throws {
        let net = try makeNetwork(seed: 7)
        #expect(net.runUntilQuiet())
        try net.phoneFiles.write("inbox/5eed-3.part", offset: 0, bytes: [1, 2, 3])  // another peer store's
        try net.phoneFiles.write("inbox/note.txt", offset: 0, bytes: [4])  // not a partial file
        try net.crash(.phone)
        #expect(!net.phoneFiles.exists("inbox/5eed-3.part"))
        #expect(net.phoneFiles.exists("inbox/note.txt"))
        #expect(net.logs.contains { $0.contains("removed 1 partial file no transfer can resume: inbox/5eed-3.part") })
        // A file under way survives a crash and is resumed, not removed.
        try net.watchFiles.write("series.bin", offset: 0, bytes: [UInt8](repeating: 9, count: 3_000_000))
        net.command(.watch, "file series.bin")
        net.advance(by: 30)
        try net.crash(.phone)
        #expect(net.runUntilQuiet(maxMs: 120_000))
        #expect(net.phone.app.events.contains { if case .didReceiveFile = $0 { true } else { false } })
        #expect(!net.logs.contains { $0.contains("removed") && $0.contains("-1.part") })
    }
}
