#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkSim

/// A frame held by the proxy until its delivery time.
struct HeldFrame {
    var deliverAt: EpochMs
    var order: Int
    var bytes: [UInt8]
    var counted: Bool
}

/// One watch connection and its connection to the phone.
struct ProxyPair {
    var watchFD: Int32
    var phoneFD: Int32
    var decoders: [LinkDirection: RecordDecoder] = [.phoneToWatch: RecordDecoder(), .watchToPhone: RecordDecoder()]
    /// When a direction's bytes stop parsing as frames, they are passed through raw.
    var raw: Set<LinkDirection> = []
    var held: [LinkDirection: [HeldFrame]] = [.phoneToWatch: [], .watchToPhone: []]
    var toWatch: [UInt8] = []
    var toPhone: [UInt8] = []
    var bytesCrossed: Int64 = 0
}

/// The proxy's mutable state; only touched under its mutex.
struct ProxyState {
    var planner: FaultPlanner
    var nowMs: EpochMs
    var running = true
    var stopped = false
    var closePairRequested = false
    var pair: ProxyPair?
    var counts = ProxyStatus()
    var order = 0
    var timeline: [String] = []
    /// The timeline's frames as data (the run report).
    var frames: [FrameRecord] = []

    init(planner: FaultPlanner, nowMs: EpochMs) {
        self.planner = planner
        self.nowMs = nowMs
    }

    func status() -> ProxyStatus {
        var s = counts
        s.pairOpen = pair != nil
        s.deliverableNow = 0
        s.nextDeliveryMs = nil
        if let p = pair {
            for (_, frames) in p.held {
                for f in frames {
                    if f.deliverAt <= nowMs { s.deliverableNow += 1 } else { s.nextDeliveryMs = min(s.nextDeliveryMs ?? f.deliverAt, f.deliverAt) }
                }
            }
            if !p.toWatch.isEmpty || !p.toPhone.isEmpty { s.deliverableNow += 1 }
        }
        return s
    }

    mutating func accept(listenFD: Int32, upstream: SocketAddress) {
        while let fd = ProxySockets.accept(listenFD) {
            if planner.faults.down {
                timeline.append("\(nowMs) link refused a connection (out of range)")
                close(fd)  // out of range: the connection is refused
                continue
            }
            closePair(reason: "the watch connected again")
            guard let up = ProxySockets.connect(upstream) else {
                timeline.append("\(nowMs) link: the phone is not listening")
                close(fd)
                continue
            }
            timeline.append("\(nowMs) link: watch connected (fds \(fd)/\(up))")
            pair = ProxyPair(watchFD: fd, phoneFD: up)
            planner.resetSchedule()
            counts.framesIn = [:]
            counts.framesOut = [:]
        }
    }

    mutating func closePair(reason: String) {
        guard let p = pair else { return }
        ProxySockets.abort(p.watchFD)
        ProxySockets.abort(p.phoneFD)
        pair = nil
        timeline.append("\(nowMs) link closed: \(reason)")
    }

    mutating func readFrom(_ dir: LinkDirection) {
        guard var p = pair else { return }
        let fd = dir == .watchToPhone ? p.watchFD : p.phoneFD
        var buf = [UInt8](repeating: 0, count: 65_536)
        let n = read(fd, &buf, buf.count)
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
            pair = p
            closePair(reason: "\(dir == .watchToPhone ? "watch" : "phone") closed its side")
            return
        }
        guard n > 0 else { return }
        if p.raw.contains(dir) {
            enqueue(&p, dir, Array(buf[0..<n]), counted: false)
            pair = p
            return
        }
        p.decoders[dir]!.feed(buf[0..<n])
        while true {
            do {
                guard let record = try p.decoders[dir]!.next() else { break }
                let counted = true
                if counted { counts.framesIn[dir, default: 0] += 1 }
                var bytes = RecordEncoder.encode(record)
                let (fate, times, pieces) = planner.plan(bytes: bytes.count, direction: dir, nowMs: nowMs)
                if fate == .tampered { bytes = RecordTamper.flippingOneByte(bytes, random: planner.nextRandom()) }
                // The proxy sees what any relay sees: records, sealed once the handshake is done.
                let label = FrameLabeler.label(record: bytes)
                timeline.append("\(nowMs) \(dir.rawValue) \(label) \(bytes.count)B \(fate.rawValue)")
                let arrivals = pieces.count > 1 ? [pieces.last!.atMs] + times.dropFirst() : times
                frames.append(FrameRecord(sentMs: nowMs, from: dir == .watchToPhone ? .watch : .phone, label: label, bytes: bytes.count,
                                          fate: fate, arrivalsMs: arrivals))
                switch fate {
                case .dropped: counts.dropped += 1
                case .duplicated: counts.duplicated += 1
                case .reordered: counts.reordered += 1
                case .tampered: counts.tampered += 1
                case .delivered: break
                }
                for (i, t) in times.enumerated() {
                    guard i == 0, pieces.count > 1 else {
                        hold(&p, dir, HeldFrame(deliverAt: t, order: 0, bytes: bytes, counted: counted))
                        continue
                    }
                    // Over a slow link the frame's bytes reach the node in pieces; the last piece counts it.
                    var from = 0
                    for piece in pieces {
                        let last = piece.end == bytes.count
                        hold(&p, dir, HeldFrame(deliverAt: piece.atMs, order: 0, bytes: Array(bytes[from..<piece.end]), counted: counted && last))
                        from = piece.end
                    }
                }
            } catch {
                p.raw.insert(dir)  // not frames: pass the rest through untouched
                break
            }
        }
        pair = p
    }

    mutating func hold(_ p: inout ProxyPair, _ dir: LinkDirection, _ f: HeldFrame) {
        var frame = f
        order += 1
        frame.order = order
        p.held[dir]!.append(frame)
    }

    mutating func enqueue(_ p: inout ProxyPair, _ dir: LinkDirection, _ bytes: [UInt8], counted: Bool) {
        hold(&p, dir, HeldFrame(deliverAt: nowMs, order: 0, bytes: bytes, counted: counted))
    }

    /// Moves every frame due by now to its output buffer, in delivery order.
    mutating func deliverDue() {
        guard var p = pair else { return }
        for dir in LinkDirection.allCases {
            var frames = p.held[dir]!
            frames.sort { ($0.deliverAt, $0.order) < ($1.deliverAt, $1.order) }
            var kept: [HeldFrame] = []
            for f in frames {
                guard f.deliverAt <= nowMs else { kept.append(f); continue }
                var bytes = f.bytes
                if let limit = planner.faults.closeAfterBytes {
                    let room = limit - p.bytesCrossed
                    if room <= 0 { continue }
                    if Int64(bytes.count) > room { bytes = Array(bytes.prefix(Int(room))) }
                }
                p.bytesCrossed += Int64(bytes.count)
                if dir == .phoneToWatch { p.toWatch += bytes } else { p.toPhone += bytes }
                if f.counted && bytes.count == f.bytes.count { counts.framesOut[dir, default: 0] += 1 }
            }
            p.held[dir] = kept
        }
        pair = p
        if let limit = planner.faults.closeAfterBytes, p.bytesCrossed >= limit {
            flush()
            closePair(reason: "closed after \(limit) bytes")
        }
    }

    /// Writes what is buffered, in slices when slicing is on.
    mutating func flush() {
        guard var p = pair else { return }
        let slice = planner.faults.sliceBytes ?? Int.max
        func drain(_ fd: Int32, _ buf: inout [UInt8]) -> Bool {
            var start = 0
            while start < buf.count {
                let n = min(slice, buf.count - start)
                // MSG_NOSIGNAL: a connection its peer closed is EPIPE, not SIGPIPE for the process.
                let w = buf[start..<start + n].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if w > 0 { start += w; continue }
                if w < 0 && (errno == EAGAIN || errno == EINTR) { break }
                return false
            }
            buf.removeFirst(start)
            return true
        }
        let okW = drain(p.watchFD, &p.toWatch)
        let okP = drain(p.phoneFD, &p.toPhone)
        pair = p
        if !okW || !okP { closePair(reason: "write failed") }
    }
}

/// The few socket calls the proxy makes (loopback only). Every socket is close-on-exec: a
/// node process spawned while the proxy holds a connection must not keep a copy of it open
/// (the other node would never see the proxy close it).
enum ProxySockets {
    static func listen() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError("socket") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = 0
        sin.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let rc = withUnsafePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0, Glibc.listen(fd, 16) == 0 else { close(fd); throw POSIXError("bind/listen") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return (fd, UInt16(bigEndian: sin.sin_port))
    }

    static func accept(_ listener: Int32) -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        prepare(fd)
        return fd
    }

    /// A blocking connect on loopback (immediate), then non-blocking.
    static func connect(_ a: SocketAddress) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = a.port.bigEndian
        inet_pton(AF_INET, a.host, &sin.sin_addr)
        let rc = withUnsafePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else { close(fd); return nil }
        prepare(fd)
        return fd
    }

    /// A blocking connection (for the stranger step).
    static func blockingConnect(_ a: SocketAddress) throws -> Int32 {
        guard let fd = connect(a) else { throw POSIXError("connect(\(a))") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) & ~O_NONBLOCK)
        return fd
    }

    static func prepare(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Closes with a reset (SO_LINGER 0), as a dropped radio link looks to both ends.
    static func abort(_ fd: Int32) {
        var l = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }
}
