#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import PeerLinkCore
@testable import PeerLinkPOSIX
import Synchronization

/// An attacker between the watch and the phone over real loopback sockets: it accepts the
/// watch, connects to the phone, frames the records of each direction by their clear headers
/// (all a relay can read) and forwards what `rewrite` returns for each record.
final class TamperRelay: @unchecked Sendable {
    // Unchecked: the mutable state is the Mutex's; fds are set once before the thread starts.
    enum Direction: Sendable { case watchToPhone, phoneToWatch }

    struct State {
        var running = true
        var stopped = false
        /// Connections accepted from the watch so far.
        var connections = 0
    }

    let port: UInt16
    private let listenFD: Int32
    private let upstream: UInt16
    private let state = Mutex(State())
    /// Called on the relay's thread for each record: the connection's number (1, 2…), the
    /// direction, the record's index in it, and its bytes; returns the bytes to forward.
    private let rewrite: @Sendable (_ connection: Int, _ direction: Direction, _ index: Int, _ record: [UInt8]) -> [UInt8]

    init(phonePort: UInt16, rewrite: @escaping @Sendable (_ connection: Int, _ direction: Direction, _ index: Int, _ record: [UInt8]) -> [UInt8]) throws {
        upstream = phonePort
        self.rewrite = rewrite
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &sin) { p in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                guard bind(fd, sa, len) == 0, listen(fd, 8) == 0, getsockname(fd, sa, &len) == 0 else { throw POSIXError("relay bind") }
            }
        }
        listenFD = fd
        port = UInt16(bigEndian: sin.sin_port)
        let t = Thread { [self] in loop() }
        t.start()
    }

    /// Connections the watch opened through the relay.
    var connections: Int { state.withLock { $0.connections } }

    func stop() {
        state.withLock { $0.running = false }
        while !state.withLock({ $0.stopped }) { usleep(1_000) }
        close(listenFD)
    }

    private func loop() {
        var pair: (watch: Int32, phone: Int32)?
        var decoders: [RecordDecoder] = [RecordDecoder(), RecordDecoder()]
        var counts = [0, 0]
        var connection = 0
        func closePair() {
            if let p = pair { close(p.watch); close(p.phone) }
            pair = nil
        }
        while state.withLock({ $0.running }) {
            var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)]
            if let p = pair {
                fds.append(pollfd(fd: p.watch, events: Int16(POLLIN), revents: 0))
                fds.append(pollfd(fd: p.phone, events: Int16(POLLIN), revents: 0))
            }
            guard poll(&fds, nfds_t(fds.count), 50) > 0 else { continue }
            if fds[0].revents != 0 {
                let w = accept(listenFD, nil, nil)
                if w >= 0 {
                    closePair()
                    let p = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                    if (try? SocketAddress(host: "127.0.0.1", port: upstream).withSockAddr({ connect(p, $0, $1) })) == 0 {
                        pair = (w, p)
                        decoders = [RecordDecoder(), RecordDecoder()]
                        counts = [0, 0]
                        connection += 1
                        let n = connection
                        state.withLock { $0.connections = n }
                    } else {
                        close(w); close(p)
                    }
                }
            }
            guard let p = pair, fds.count == 3 else { continue }
            for (slot, direction) in [(1, Direction.watchToPhone), (2, .phoneToWatch)] where fds[slot].revents != 0 {
                let from = direction == .watchToPhone ? p.watch : p.phone
                let to = direction == .watchToPhone ? p.phone : p.watch
                var buf = [UInt8](repeating: 0, count: 65_536)
                let n = read(from, &buf, buf.count)
                if n <= 0 { closePair(); break }
                let d = direction == .watchToPhone ? 0 : 1
                decoders[d].feed(Array(buf[0..<n]))
                var out: [UInt8] = []
                while let r = try? decoders[d].next() {
                    out += rewrite(connection, direction, counts[d], RecordEncoder.encode(r))
                    counts[d] += 1
                }
                var at = 0
                while at < out.count {
                    let w = out[at...].withUnsafeBytes { write(to, $0.baseAddress, $0.count) }
                    if w <= 0 { break }
                    at += w
                }
            }
        }
        closePair()
        state.withLock { $0.stopped = true }
    }
}
