#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PeerLinkCore
import PeerLinkPOSIX

/// Raw-socket baselines over loopback, measured in the same run as the link figures.
enum RawTCPBaseline {
    /// A connected pair of loopback TCP sockets (blocking, TCP_NODELAY).
    static func socketPair() throws -> (client: Int32, server: Int32) {
        let lfd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(lfd) }
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &sin) { p in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                guard bind(lfd, sa, len) == 0, listen(lfd, 1) == 0, getsockname(lfd, sa, &len) == 0 else { throw POSIXError("bind") }
            }
        }
        let cfd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try withUnsafePointer(to: &sin) { p in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                guard connect(cfd, sa, len) == 0 else { throw POSIXError("connect") }
            }
        }
        let sfd = accept(lfd, nil, nil)
        var one: Int32 = 1
        for fd in [cfd, sfd] { setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) }
        return (cfd, sfd)
    }

    static func readFully(_ fd: Int32, _ buf: inout [UInt8], _ count: Int) -> Bool {
        var got = 0
        while got < count {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, count - got) }
            if n <= 0 { return false }
            got += n
        }
        return true
    }

    static func writeFully(_ fd: Int32, _ buf: [UInt8], _ count: Int) {
        var done = 0
        while done < count {
            let n = buf.withUnsafeBytes { write(fd, $0.baseAddress! + done, count - done) }
            if n <= 0 { return }
            done += n
        }
    }

    /// MB/s (10^6 bytes) of `bytes` that `send` writes into a loopback socket while a thread
    /// reads them and hands each read to `receive`, until all have arrived.
    static func timedStreamMBps(bytes: Int, receive: @escaping @Sendable (_ buffer: [UInt8], _ count: Int) -> Void,
                                send: (_ socket: Int32) -> Void) throws -> Double {
        let (c, s) = try socketPair()
        defer { close(c); close(s) }
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            var buf = [UInt8](repeating: 0, count: 256 * 1024)
            var got = 0
            while got < bytes {
                let n = buf.withUnsafeMutableBytes { read(s, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                receive(buf, n)
                got += n
            }
            done.signal()
        }
        reader.start()
        let t0 = monotonicNs()
        send(c)
        done.wait()
        return Double(bytes) / 1e6 / (Double(monotonicNs() - t0) / 1e9)
    }

    /// Throughput of a one-way stream of `bytes` from memory to memory, in MB/s.
    static func streamMBps(bytes: Int) throws -> Double {
        let chunk = [UInt8](repeating: 1, count: 256 * 1024)
        return try timedStreamMBps(bytes: bytes, receive: { _, _ in }) { c in
            var sent = 0
            while sent < bytes {
                let n = min(chunk.count, bytes - sent)
                writeFully(c, chunk, n)
                sent += n
            }
        }
    }

    /// Throughput of copying the file at `source` to `destination` over a loopback socket
    /// (read into a buffer, written to the socket; read from the socket, written to the
    /// file), in MB/s: the file transfer's baseline — the same bytes, files at both ends,
    /// without a protocol, hashing or durability.
    static func fileStreamMBps(source: String, destination: String) throws -> Double {
        let inFD = open(source, O_RDONLY)
        guard inFD >= 0 else { throw POSIXError("open") }
        defer { close(inFD) }
        let outFD = open(destination, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard outFD >= 0 else { throw POSIXError("open") }
        defer { close(outFD); unlink(destination) }
        var st = stat()
        guard fstat(inFD, &st) == 0 else { throw POSIXError("fstat") }
        return try timedStreamMBps(bytes: Int(st.st_size), receive: { buf, n in writeFully(outFD, buf, n) }) { c in
            var chunk = [UInt8](repeating: 0, count: 256 * 1024)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(inFD, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                writeFully(c, chunk, n)
            }
        }
    }
}

/// A 64-byte ping-pong on a loopback socket pair, its echo thread kept between measurements,
/// so that blocks of raw round trips can alternate with blocks of PeerLink's.
final class RawPingPong {
    private let client: Int32
    private let server: Int32
    private let echoDone = DispatchSemaphore(value: 0)
    private var buf = [UInt8](repeating: 7, count: 64)

    init() throws {
        (client, server) = try RawTCPBaseline.socketPair()
        let s = server, done = echoDone
        Thread {
            try? ThreadPlacement.pin(end: 1)  // checked by the client's pin, which fails alike
            var b = [UInt8](repeating: 0, count: 64)
            while RawTCPBaseline.readFully(s, &b, 64) { RawTCPBaseline.writeFully(s, b, 64) }
            done.signal()
        }.start()
        _ = try rttMicroseconds(rounds: 100)  // warm-up
    }

    /// Average round trip over `rounds`, in microseconds.
    func rttMicroseconds(rounds: Int) throws -> Double {
        try ThreadPlacement.pin(end: 0)
        let t0 = monotonicNs()
        for _ in 0..<rounds { RawTCPBaseline.writeFully(client, buf, 64); _ = RawTCPBaseline.readFully(client, &buf, 64) }
        return Double(monotonicNs() - t0) / 1000 / Double(rounds)
    }

    /// Ends the echo thread and closes both sockets.
    func close() {
        shutdown(client, Int32(SHUT_WR))
        echoDone.wait()
        Glibc.close(client)
        Glibc.close(server)
    }
}
