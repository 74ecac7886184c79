#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

/// The node process's sockets: accepting, connecting, reading, writing what is queued, and
/// handing the engine's outputs to them.
extension NodeProcess {
    func acceptAll() {
        while let (fd, peer) = Sock.accept(listener) {
            let id = nextConnectionID
            nextConnectionID += 1
            connections[id] = NodeConnection(fd: fd, peer: peer)
            engine.connectionOpened(id, isInitiator: false, ephemeralKey: secureRandomBytes(32), now: now)
            handleOutputs()
        }
    }

    func finishConnect() {
        guard let c = connecting else { return }
        connecting = nil
        let err = Sock.connectResult(c.fd)
        if err != 0 {
            close(c.fd)
            log(.info, "connect to \(options.connect!) failed: \(POSIXError("connect", err))")
            engine.connectFailed(now: now)
            noteConnectFailed()
            return
        }
        connections[c.id] = NodeConnection(fd: c.fd, peer: options.connect!.description)
        log(.info, "connection \(c.id) opened to \(options.connect!)")
        engine.connectionOpened(c.id, isInitiator: true, ephemeralKey: secureRandomBytes(32), now: now)
        handleOutputs()
    }

    func readFrom(_ id: ConnectionID) {
        guard let c = connections[id] else { return }
        for _ in 0..<64 {
            let n = readBuffer.withUnsafeMutableBytes { read(c.fd, $0.baseAddress, $0.count) }
            if n > 0 {
                engine.received(id, readBuffer[0..<n], now: now)
                handleOutputs()
                if connections[id] == nil { return }
                if n < readBuffer.count { return }
            } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                drop(id, reason: n == 0 ? "closed by peer" : POSIXError("read").description)
                return
            } else {
                return
            }
        }
    }

    /// Writes what is queued for the connection until the socket is full. The connection is
    /// taken out of the table while it is worked on, so its buffer is never copied.
    func flush(_ id: ConnectionID) {
        guard var c = connections.removeValue(forKey: id) else { return }
        while c.outStart < c.out.count {
            guard let n = Self.writeSome(c.fd, c.out[c.outStart...]) else {
                connections[id] = c
                drop(id, reason: POSIXError("write").description)
                return
            }
            if n == 0 { break }
            c.outStart += n
        }
        if c.outStart == c.out.count {
            c.out.removeAll(keepingCapacity: true)
            c.outStart = 0
            if c.closeAfterFlush {
                connections[id] = c
                drop(id, reason: "closed")
                return
            }
        } else if c.outStart > 1 << 20 {
            c.out.removeFirst(c.outStart)
            c.outStart = 0
        }
        connections[id] = c
    }

    /// One `write`: the bytes written, 0 when the socket is full, nil on an error.
    static func writeSome(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int? {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n > 0 { return n }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return 0 }
        return nil
    }

    func drop(_ id: ConnectionID, reason: String) {
        guard let c = connections.removeValue(forKey: id) else { return }
        close(c.fd)
        // Connections that never authenticated are the session's to log (rate-limited:
        // a flood of strangers must not fill the disk).
        if isPeerConnection(id) { log(.info, "connection \(id) (\(c.peer)) closed: \(reason)") }
        engine.connectionClosed(id, now: now)
        handleOutputs()
    }

    /// Carries out what the engine asked for.
    func handleOutputs() {
        var written: [ConnectionID] = []
        defer { for id in written { flush(id) } }
        for o in engine.drainOutput() {
            switch o {
            case .send(let id, let bytes, _):
                guard var c = connections.removeValue(forKey: id) else { continue }
                var from = 0
                if c.outStart == c.out.count && bytes.count >= Self.directWriteBytes {
                    // Nothing is queued: a large frame goes to the socket from its own buffer.
                    while from < bytes.count, let n = Self.writeSome(c.fd, bytes[from...]), n > 0 { from += n }
                }
                if from < bytes.count { c.out.append(contentsOf: bytes[from...]) }
                connections[id] = c
                if c.out.count - c.outStart > options.maxQueuedBytesPerConnection {
                    log(.warning, "closing connection \(id): the peer is not reading (\(c.out.count - c.outStart) bytes queued, at most \(options.maxQueuedBytesPerConnection))")
                    drop(id, reason: "the peer is not reading")
                    continue
                }
                if written.last != id && !written.contains(id) { written.append(id) }
                if c.out.count - c.outStart >= 1 << 20 { flush(id) }
            case .close(let id, let reason):
                guard connections[id] != nil else { continue }
                connections[id]!.closeAfterFlush = true
                if isPeerConnection(id) { log(.info, "closing connection \(id): \(reason)") }
                flush(id)
            case .log(let level, let message):
                log(level, message)
            case .fatal(let message):
                log(.error, message)
                running = false
            }
        }
        // What the person at the prompt is told between replies (a late reply, a finished
        // transfer): on the control channel, marked like the node's other announcements.
        for notice in engine.drainNotices() { emitLine("! " + notice) }
    }
}
