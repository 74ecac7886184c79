#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

/// The C function `name` of this process (glibc's own, or a library's), as `type`; nil when it
/// is missing. For functions the Glibc module does not export (GNU extensions, `malloc.h`).
public func systemFunction<F>(_ name: String, as type: F.Type) -> F? {
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
    return unsafeBitCast(symbol, to: type)
}

/// A failed system call: its name and errno, with the system's text.
public struct POSIXError: Error, CustomStringConvertible, Sendable {
    public var call: String
    public var errno: Int32
    public var description: String { "\(call): \(reason) (errno \(errno))" }
    /// The system's text for the error (`No such file or directory`).
    public var reason: String { String(cString: strerror(errno)) }

    public init(_ call: String, _ code: Int32 = Glibc.errno) {
        self.call = call
        self.errno = code
    }
}

/// An IPv4 address and port, e.g. `127.0.0.1:7700`.
public struct SocketAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` or `PORT` (host defaults to 127.0.0.1).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 1, let p = UInt16(parts[0]) { self.init(host: "127.0.0.1", port: p); return }
        guard parts.count == 2, let p = UInt16(parts[1]), !parts[0].isEmpty else { return nil }
        var probe = in_addr()
        guard inet_pton(AF_INET, String(parts[0]), &probe) == 1 else { return nil }
        self.init(host: String(parts[0]), port: p)
    }

    public var description: String { "\(host):\(port)" }

    var isLoopback: Bool { host.hasPrefix("127.") }

    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) throws -> R {
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &sin.sin_addr) == 1 else { throw POSIXError("inet_pton(\(host))", EINVAL) }
        return try withUnsafePointer(to: &sin) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}

/// Thin wrappers over the socket calls the TCP shell needs. All sockets are non-blocking.
enum Sock {
    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// A listening socket on `address` (port 0 picks a free port).
    static func listen(_ address: SocketAddress) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError("socket") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        do {
            try address.withSockAddr { sa, len in
                guard bind(fd, sa, len) == 0 else { throw POSIXError("bind(\(address))") }
            }
            // A backlog that a burst of strangers does not fill before the poll loop accepts (and
            // refuses) them: past it the kernel drops SYNs, and the paired watch's reconnect waits.
            guard Glibc.listen(fd, 256) == 0 else { throw POSIXError("listen") }
        } catch {
            close(fd)
            throw error
        }
        setNonBlocking(fd)
        var sin = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return (fd, UInt16(bigEndian: sin.sin_port))
    }

    /// Accepts one pending connection; nil when none is waiting.
    static func accept(_ listener: Int32) -> (fd: Int32, peer: String)? {
        var sin = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = withUnsafeMutablePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &len) } }
        guard fd >= 0 else { return nil }
        setNonBlocking(fd)
        setNoDelay(fd)
        var buf = [CChar](repeating: 0, count: 32)
        inet_ntop(AF_INET, &sin.sin_addr, &buf, 32)
        let host = buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (fd, "\(host):\(UInt16(bigEndian: sin.sin_port))")
    }

    /// Starts a non-blocking connect; the socket is writable when it completes.
    static func startConnect(_ address: SocketAddress) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError("socket") }
        setNonBlocking(fd)
        setNoDelay(fd)
        do {
            try address.withSockAddr { sa, len in
                if Glibc.connect(fd, sa, len) != 0 && errno != EINPROGRESS { throw POSIXError("connect(\(address))") }
            }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The outcome of a finished non-blocking connect: 0 or an errno.
    static func connectResult(_ fd: Int32) -> Int32 {
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
        return err
    }
}

/// Writing to standard error without Foundation.
public enum StandardError {
    public static func write(_ s: String) {
        let b = Array(s.utf8)
        _ = b.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
