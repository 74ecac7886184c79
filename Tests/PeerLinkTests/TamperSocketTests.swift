#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import PeerLinkCore
@testable import PeerLinkPOSIX
import Synchronization

/// The tamper cases over real loopback sockets: the watch's connection goes through
/// `TamperRelay`, which changes one record of the first connection; the phone must detect
/// it, close with a logged reason, and the nodes must reconnect and resend everything.
@Suite("Tampering on real sockets", .serialized)
struct TamperSocketTests {
    typealias Rewrite = @Sendable (_ connection: Int, _ direction: TamperRelay.Direction, _ index: Int, _ record: [UInt8]) -> [UInt8]

    /// A node on the wall clock (its reconnects and timeouts run in real time: a virtual
    /// clock moved by the test would race ahead of the relay's real I/O).
    static func start(_ role: DeviceRole, dir: String, connect port: UInt16? = nil) throws -> NodeProcessThread {
        try PairingFile.write(TCPShellTests.secret, directory: dir)
        var o = NodeProcessOptions(role: role, stateDirectory: dir)
        o.seed = 7
        if role == .phone { o.listen = SocketAddress(host: "127.0.0.1", port: 0) } else { o.connect = SocketAddress(host: "127.0.0.1", port: port!) }
        return try NodeProcessThread(options: o) { RecorderApp() }
    }

    /// A phone and a watch paired, the watch's connection through the relay; the watch
    /// queues 50 user infos once the link is up, and the test waits until all arrived.
    static func run(_ name: String, rewrite: @escaping Rewrite) throws -> (phoneLog: String, received: [PlistValue], connections: Int) {
        let pd = TCPShellTests.tempDir("tamper-phone-\(name)"), wd = TCPShellTests.tempDir("tamper-watch-\(name)")
        defer { removeTreeForTest(pd); removeTreeForTest(wd) }
        let phone = try start(.phone, dir: pd)
        defer { phone.stop() }
        let relay = try TamperRelay(phonePort: phone.listeningPort!, rewrite: rewrite)
        defer { relay.stop() }
        let watch = try start(.watch, dir: wd, connect: relay.port)
        defer { watch.stop() }
        _ = try watch.waitFor("query link reachable", attempts: 50_000) { $0 == .bool(true) }
        #expect(try watch.call("send 50").ok)
        _ = try phone.waitFor("query received", attempts: 100_000) { $0 == .int(50) }
        _ = try watch.waitFor("query outstanding", attempts: 100_000) { $0 == .int(0) }
        return (TCPShellTests.log(pd), try phone.call("query receivedN").value.arrayValue ?? [], relay.connections)
    }

    static func expectRepaired(_ r: (phoneLog: String, received: [PlistValue], connections: Int), reason: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.received == (0..<50).map { PlistValue.int(Int64($0)) }, "received \(r.received)", sourceLocation: sourceLocation)
        #expect(r.phoneLog.contains(reason), "no '\(reason)' in the phone's log:\n\(r.phoneLog)", sourceLocation: sourceLocation)
        #expect(r.connections >= 2, "the watch never reconnected", sourceLocation: sourceLocation)
    }

    /// The watch's records of the first connection from index 4 on (after its handshake
    /// records and a few more): where each test strikes once.
    static func strikes(_ connection: Int, _ direction: TamperRelay.Direction, _ index: Int, at: Int = 4) -> Bool {
        connection == 1 && direction == .watchToPhone && index == at
    }

    @Test func aFlippedByteIsDetectedAndRepaired() throws {
        let r = try Self.run("flip") { c, d, i, record in
            Self.strikes(c, d, i) ? RecordTamper.flippingOneByte(record, random: 0xC0FFEE) : record
        }
        Self.expectRepaired(r, reason: "failed authentication")
    }

    @Test func aReplayedRecordIsDetectedAndRepaired() throws {
        let first = Mutex<[UInt8]?>(nil)
        let r = try Self.run("replay") { c, d, i, record in
            if c == 1, d == .watchToPhone, i == 2 { first.withLock { $0 = record } }
            return Self.strikes(c, d, i) ? record + (first.withLock { $0 } ?? []) : record
        }
        Self.expectRepaired(r, reason: "failed authentication")
    }

    @Test func reorderedRecordsAreDetectedAndRepaired() throws {
        let held = Mutex<[UInt8]?>(nil)
        let r = try Self.run("reorder") { c, d, i, record in
            if Self.strikes(c, d, i) { held.withLock { $0 = record }; return [] }
            if Self.strikes(c, d, i, at: 5) { return record + (held.withLock { $0 } ?? []) }
            return record
        }
        Self.expectRepaired(r, reason: "failed authentication")
    }

    @Test func aDroppedRecordIsDetectedAndRepaired() throws {
        let r = try Self.run("drop") { c, d, i, record in Self.strikes(c, d, i) ? [] : record }
        Self.expectRepaired(r, reason: "failed authentication")
    }

    @Test func anInjectedRecordIsDetectedAndRepaired() throws {
        let r = try Self.run("inject") { c, d, i, record in
            Self.strikes(c, d, i) ? RecordEncoder.encode(.sealed, [UInt8](repeating: 0xA5, count: 64)) + record : record
        }
        Self.expectRepaired(r, reason: "failed authentication")
    }

    @Test func aRelaySeesNoPlaintext() throws {
        let seen = Mutex<[UInt8]>([])
        let r = try Self.run("plaintext") { _, _, _, record in
            seen.withLock { $0 += record }
            return record
        }
        #expect(r.received == (0..<50).map { PlistValue.int(Int64($0)) })
        let bytes = seen.withLock { $0 }
        // The user infos carry {"n": i}: their key never appears in the clear.
        #expect(!bytes.indices.contains { bytes[$0...].starts(with: [0x09, 0x01, 0x01, UInt8(ascii: "n")]) }, "a canonical {\"n\": …} crossed in the clear")
        #expect(!bytes.isEmpty)
    }
}
