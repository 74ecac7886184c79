#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import PeerLinkCore
@testable import PeerLinkPOSIX
@testable import PeerLinkSim

/// The TCP shell over real loopback sockets: two nodes on threads of this process, each a
/// `NodeProcess` with a virtual clock, driven through control pipes.
@Suite("TCP shell over loopback", .serialized)
struct TCPShellTests {
    static let secret: [UInt8] = Array(1...32)

    static func tempDir(_ name: String) -> String {
        let dir = NSTemporaryDirectory() + "peerlink-tcp-\(name)-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try? makePrivateDirectory(dir)
        return dir
    }

    static func start(_ role: DeviceRole, dir: String, secret: [UInt8]?, connect port: UInt16? = nil) throws -> NodeProcessThread {
        if let secret { try PairingFile.write(secret, directory: dir) }
        var o = NodeProcessOptions(role: role, stateDirectory: dir)
        o.virtualStartMs = 1_780_000_000_000
        o.seed = 7
        if role == .phone { o.listen = SocketAddress(host: "127.0.0.1", port: 0) } else { o.connect = SocketAddress(host: "127.0.0.1", port: port!) }
        return try NodeProcessThread(options: o) { RecorderApp() }
    }

    /// A paired phone and watch on loopback, reachable; both stopped and their state
    /// directories removed afterwards.
    static func withPairedNodes(_ body: (NodeProcessThread, NodeProcessThread, String, String) throws -> Void) throws {
        let pd = tempDir("phone"), wd = tempDir("watch")
        defer { removeTreeForTest(pd); removeTreeForTest(wd) }
        let phone = try start(.phone, dir: pd, secret: secret)
        let watch = try start(.watch, dir: wd, secret: secret, connect: phone.listeningPort)
        defer { watch.stop(); phone.stop() }
        _ = try watch.waitFor("query link reachable") { $0 == .bool(true) }
        try body(phone, watch, pd, wd)
    }

    static func log(_ dir: String) -> String { readTextFile(dir + "/node.log") ?? "" }

    /// A raw client socket to the phone; returns what it read until the phone closed it.
    static func rawExchange(port: UInt16, send bytes: [UInt8], thenHangUp: Bool = false) throws -> (closed: Bool, received: [UInt8]) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        try SocketAddress(host: "127.0.0.1", port: port).withSockAddr { sa, len in
            guard connect(fd, sa, len) == 0 else { throw POSIXError("connect") }
        }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if thenHangUp { shutdown(fd, Int32(SHUT_WR)) }
        var got: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 10_000) > 0 else { return (false, got) }
            let n = read(fd, &buf, buf.count)
            if n <= 0 { return (true, got) }
            got.append(contentsOf: buf[0..<n])
        }
    }

    @Test func pairedNodesCarryEveryChannel() throws {
        try Self.withPairedNodes { phone, watch, pd, wd in
            try FileManager.default.createDirectory(atPath: wd + "/files", withIntermediateDirectories: true)
            let content = (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            _ = FileManager.default.createFile(atPath: wd + "/files/series.bin", contents: Data(content))
            #expect(try watch.call("send 300").ok)
            #expect(try watch.call("msg hello").ok)
            #expect(try watch.call("ctx face rings").ok)
            #expect(try watch.call("file series.bin").ok)
            _ = try phone.waitFor("query received") { $0 == .int(300) }
            _ = try watch.waitFor("query replies") { $0 == .int(1) }
            _ = try phone.waitFor("query context") { $0 == ["face": "rings"] }
            _ = try watch.waitFor("query filesSent") { $0 == .int(1) }
            #expect(try phone.call("query filesReceived").value == .int(1))
            _ = try watch.waitFor("query outstanding") { $0 == .int(0) }
        }
    }

    /// Cancels of transfers on the wire over real sockets and SQLite stores: whatever the
    /// timing decided, the phone received exactly the transfers the watch was told finished.
    @Test func cancelsOnTheWireEndWithTheSenderToldExactlyWhatWasDelivered() throws {
        try Self.withPairedNodes { phone, watch, pd, wd in
            #expect(try watch.call("send 3000").ok)
            let cancelled = try watch.call("cancelall").value.intValue ?? 0
            #expect(cancelled > 0 && cancelled <= 3000, "only the app's own transfers are listed and cancelled")
            _ = try watch.waitFor("query outstanding") { $0 == .int(0) }
            #expect(try watch.call("send 5").ok)  // the queue goes on after the cancels
            _ = try phone.waitFor("query received") { ($0.intValue ?? 0) >= 3000 - cancelled + 5 }
            _ = try watch.waitFor("query outstanding") { $0 == .int(0) }
            let received = try phone.call("query receivedN").value.arrayValue ?? []
            let finished = try watch.call("query finished").value.arrayValue ?? []
            #expect(received == finished, "delivered \(received.count), told finished \(finished.count) (\(cancelled) cancelled)")
            #expect(received.compactMap(\.intValue) == received.compactMap(\.intValue).sorted() && Set(received).count == received.count)
            #expect(received.last == .int(3004))
        }
    }

    @Test func garbageConnectionsAreClosedWithALoggedReasonWhileTheWatchIsServed() throws {
        try Self.withPairedNodes { phone, watch, pd, wd in
            #expect(try watch.call("send 100").ok)
            let port = phone.listeningPort!
            let cases: [(String, [UInt8])] = [
                ("bad magic", Array("GET / HTTP/1.1\r\n\r\n".utf8)),
                ("unsupported protocol version 1", [0x50, 0x4C, 1, 0x01, 0, 0, 0, 0x31]),
                ("unknown record type", [0x50, 0x4C, 2, 0xEE, 0, 0]),
                ("over the limit", [0x50, 0x4C, 2, RecordType.hello.rawValue, 0xFF, 0xFF]),
                ("out of protocol order", RecordEncoder.encode(.sealed, [UInt8](repeating: 1, count: 40))),
                ("malformed hello", RecordEncoder.encode(.hello, [1, 2, 3])),
            ]
            for (reason, bytes) in cases {
                let r = try Self.rawExchange(port: port, send: bytes)
                #expect(r.closed, "the phone kept a \(reason) connection open")
            }
            // A truncated frame: the client sends half a header and hangs up.
            #expect(try Self.rawExchange(port: port, send: [0x50, 0x4C, 2], thenHangUp: true).closed)
            #expect(try watch.call("send 100").ok)
            _ = try phone.waitFor("query received") { $0 == .int(200) }
            _ = try watch.waitFor("query outstanding") { $0 == .int(0) }
            let log = Self.log(pd)
            for (reason, _) in cases { #expect(log.contains(reason), "no logged reason '\(reason)'") }
            #expect(log.contains("middle of a record"))
            #expect(try phone.call("query link reachable").value == .bool(true))
        }
    }

    @Test func wrongSecretAndUnpairedPeersAreRefusedAndNeverSeeAPayload() throws {
        let pd = Self.tempDir("phone"), wd = Self.tempDir("watch"), ud = Self.tempDir("unpaired")
        defer { removeTreeForTest(pd); removeTreeForTest(wd); removeTreeForTest(ud) }
        let phone = try Self.start(.phone, dir: pd, secret: Self.secret)
        defer { phone.stop() }
        #expect(try phone.call("ctx secret-goal 12000").ok)
        #expect(try phone.call("send 3").ok)
        // A stranger that tries the handshake with a made-up secret, then sends a made-up sealed record.
        let attempt = StrangerFrames.attempt(ephemeralKey: [UInt8](repeating: 3, count: 32), wrongSecret: [UInt8](repeating: 4, count: 32))
        let raw = try Self.rawExchange(port: phone.listeningPort!, send: attempt)
        #expect(raw.closed)
        var d = RecordDecoder()
        d.feed(raw.received)
        var types: [RecordType] = []
        while let r = try d.next() { types.append(r.type) }
        #expect(types == [.reject], "the stranger saw only the refusal")
        _ = try phone.waitFor("query link connectionsRejected") { ($0.intValue ?? 0) >= 1 }
        // A watch with another pairing secret.
        let stranger = try Self.start(.watch, dir: wd, secret: Array(repeating: 9, count: 32), connect: phone.listeningPort)
        _ = try stranger.waitFor("query link refusedByPeer") { ($0.intValue ?? 0) >= 1 }
        #expect(try stranger.call("query received").value == .int(0))
        #expect(try stranger.call("query context").value == .dictionary([:]))
        #expect(try stranger.call("query link connected").value == .bool(false))
        stranger.stop()
        // An unpaired watch does not dial at all.
        let unpaired = try Self.start(.watch, dir: ud, secret: nil, connect: phone.listeningPort)
        #expect(try unpaired.call("query link connected").value == .bool(false))
        unpaired.stop()
        let phoneLog = Self.log(pd)
        #expect(phoneLog.contains("pairing proof failed: the peer does not hold our pairing secret"))
        #expect(Self.log(wd).contains("peer refused connection") && Self.log(wd).contains("pairing proof failed"))
        #expect(Self.log(ud).contains("not paired"))
        #expect(!Self.log(ud).contains("connection 1 opened"), "an unpaired watch dialled the phone")
    }
}

/// Removes a test directory tree.
func removeTreeForTest(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}
