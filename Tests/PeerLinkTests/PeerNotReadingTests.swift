#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import PeerLinkCore
@testable import PeerLinkPOSIX

/// A peer written in the test from docs/PROTOCOL.md — it does the handshake and seals its
/// frames itself over a plain socket, so it knows its keys — against a real phone node.
@Suite("A peer written from the document, over real sockets", .serialized)
struct PeerNotReadingTests {
    /// A phone node on loopback and a connected, authenticated test peer: the socket and its
    /// sending channel.
    static func authenticated(_ o: NodeProcessOptions) throws -> (NodeProcessThread, Int32, SecureChannel, RecordDecoder) {
        let phone = try NodeProcessThread(options: o) { RecorderApp() }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        try SocketAddress(host: "127.0.0.1", port: phone.listeningPort!).withSockAddr { sa, len in
            guard connect(fd, sa, len) == 0 else { throw POSIXError("connect") }
        }
        // The handshake, by the document: hello, helloReply, then sealed auth and ready.
        var noise = NoiseHandshake(isInitiator: true, psk: TCPShellTests.secret, ephemeralPrivateKey: secureRandomBytes(32),
                                   prologue: Array("PeerLink protocol 2".utf8), cipher: LinkConfig.protocolCipher)
        #expect(send(fd, RecordEncoder.encode(.hello, try noise.writeFirstMessage())))
        var d = RecordDecoder()
        let reply = try #require(readRecord(fd, &d) { $0.type == .helloReply })
        var channel = SecureChannel(keys: try noise.readSecondMessage(reply.body).keys, rekeyAfterBytes: o.rekeyAfterBytes ?? 16 << 20)
        let info = SessionInfo(incarnation: 0x4444, knownPeerIncarnation: 0, lastDelivered: 0, lastComplicationDelivered: 0,
                               contextVersionReceived: 0, lastFileDelivered: 0, appState: AppState(flags: 0x03))
        #expect(send(fd, channel.seal(Frame(.auth, info.encoded()))))
        let ready = try #require(readRecord(fd, &d) { $0.type == .sealed })
        #expect(try channel.open(ready.body[...])?.kind == .ready)
        _ = try phone.waitFor("query link connected") { $0 == .bool(true) }
        return (phone, fd, channel, d)
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var at = 0
        while at < bytes.count {
            let n = bytes[at...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return false }
            at += n
        }
        return true
    }

    @Test func aRecordSealedWithTheKeyFromBeforeTheRekeyIsRefused() throws {
        let pd = TCPShellTests.tempDir("rekey-phone")
        defer { removeTreeForTest(pd) }
        try PairingFile.write(TCPShellTests.secret, directory: pd)
        var o = NodeProcessOptions(role: .phone, stateDirectory: pd)
        o.listen = SocketAddress(host: "127.0.0.1", port: 0)
        o.rekeyAfterBytes = 4_096
        let (phone, fd, first, _) = try Self.authenticated(o)
        defer { close(fd); phone.stop() }
        var channel = first
        let oldKey = channel.currentKeys.sending
        // Pings past the bound: both ends rekey; the phone takes them all.
        var pings = 0
        while channel.sendRekeys < 2 { #expect(Self.send(fd, channel.seal(Frame(.ping, [0x03])))); pings += 1 }
        _ = try phone.waitFor("query link framesReceived") { ($0.intValue ?? 0) >= pings + 1 }
        #expect(try phone.call("query link connected").value == .bool(true))
        // The next record at the right counter, sealed under the first key.
        let n = channel.sendCounter
        let forged = AEADKey(LinkConfig.protocolCipher, key: oldKey, encrypting: true).seal(nonce: n, [0x03, FrameKind.ping.rawValue])
        #expect(Self.send(fd, RecordEncoder.encode(.sealed, forged)))
        _ = try phone.waitFor("query link connected") { $0 == .bool(false) }
        #expect(TCPShellTests.log(pd).contains("closing connection 1: sealed record \(n) failed authentication"))
    }

    /// Reads records until one satisfies `take`; nil when the connection ends or nothing comes.
    static func readRecord(_ fd: Int32, _ d: inout RecordDecoder, until take: (Record) -> Bool) -> Record? {
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            while let r = try? d.next() { if take(r) { return r } }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 5_000) > 0 else { return nil }
            let n = read(fd, &buf, buf.count)
            guard n > 0 else { return nil }
            d.feed(Array(buf[0..<n]))
        }
    }

    /// It authenticates, then sends pings without ever reading the pongs: the phone's output
    /// queue for it is capped, and past the cap the connection is closed.
    @Test func aPeerThatNeverReadsIsClosedAtTheQueueCap() throws {
        let pd = TCPShellTests.tempDir("queue-phone")
        defer { removeTreeForTest(pd) }
        try PairingFile.write(TCPShellTests.secret, directory: pd)
        var o = NodeProcessOptions(role: .phone, stateDirectory: pd)
        o.listen = SocketAddress(host: "127.0.0.1", port: 0)
        o.maxQueuedBytesPerConnection = 64 << 10
        let (phone, fd, first, _) = try Self.authenticated(o)
        defer { close(fd); phone.stop() }
        var channel = first
        var sent = 0
        while sent < 2_000_000 {
            let batch = (0..<1_000).flatMap { _ in channel.seal(Frame(.ping, [0x03])) }
            guard Self.send(fd, batch) else { break }
            sent += 1_000
        }
        _ = try phone.waitFor("query link connected") { $0 == .bool(false) }
        let log = TCPShellTests.log(pd)
        #expect(log.contains("the peer is not reading"), "\(log)")
        #expect(sent < 2_000_000, "the phone never closed a peer that does not read")
    }
}
