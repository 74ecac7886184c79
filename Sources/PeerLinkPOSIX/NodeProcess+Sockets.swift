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
        guard let fd = connections[id]?.fd else { return }
        for _ in 0..<64 {
            let n = readBuffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                engine.received(id, readBuffer[0..<n], now: now)
                handleOutputs()
                if n < readBuffer.count { return }
                if connections[id] == nil { return }
            } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                drop(id, reason: n == 0 ? "closed by peer" : POSIXError("read").description)
                return
            } else {
                return
            }
        }
    }

    /// Writes what is queued for the connection until the socket is full. The connection is
    /// written in place in the table (`ConnectionMap.values`' element access), so its buffer
    /// is never copied and its id is looked up once.
    func flush(_ id: ConnectionID) {
        guard let i = connections.index(forKey: id) else { return }
        switch Self.writeQueued(&connections.values[i]) {
        case .failed(let error): drop(id, reason: error.description)
        case .drained where connections.values[i].closeAfterFlush: drop(id, reason: "closed")
        case .drained, .pending: break
        }
    }

    enum FlushResult { case drained, pending, failed(POSIXError) }

    /// Writes `c`'s queue until the socket is full: `.drained` when nothing is left.
    static func writeQueued(_ c: inout NodeConnection) -> FlushResult {
        while c.outStart < c.out.count {
            guard let n = writeSome(c.fd, c.out[c.outStart...]) else { return .failed(POSIXError("write")) }
            if n == 0 { break }
            c.outStart += n
        }
        if c.outStart == c.out.count {
            c.out.removeAll(keepingCapacity: true)
            c.outStart = 0
            return .drained
        }
        if c.outStart > 1 << 20 {
            c.out.removeFirst(c.outStart)
            c.outStart = 0
        }
        return .pending
    }

    /// Queues `bytes` on `c` (a large frame, with nothing queued before it, goes straight to
    /// the socket from its own buffer, and only what the socket did not take is queued);
    /// returns the bytes now queued.
    static func queue(_ bytes: [UInt8], on c: inout NodeConnection) -> Int {
        var from = 0
        if c.outStart == c.out.count && bytes.count >= directWriteBytes {
            while from < bytes.count, let n = writeSome(c.fd, bytes[from...]), n > 0 { from += n }
        }
        if from < bytes.count { c.out.append(contentsOf: bytes[from...]) }
        return c.out.count - c.outStart
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
        // The connections written to, in order (nearly always one: no array for it).
        var firstWritten: ConnectionID?
        var alsoWritten: [ConnectionID] = []
        var outputs = Array.borrow(&spareOutputs)
        engine.drainOutput(into: &outputs)
        defer {
            if let id = firstWritten { flush(id) }
            for id in alsoWritten { flush(id) }
            outputs.giveBack(to: &spareOutputs)
        }
        for o in outputs {
            switch o {
            case .send(let id, let bytes, _):
                guard let i = connections.index(forKey: id) else { continue }
                let queued = Self.queue(bytes, on: &connections.values[i])
                if queued > options.maxQueuedBytesPerConnection {
                    log(.warning, "closing connection \(id): the peer is not reading (\(queued) bytes queued, at most \(options.maxQueuedBytesPerConnection))")
                    drop(id, reason: "the peer is not reading")
                    continue
                }
                if firstWritten == nil {
                    firstWritten = id
                } else if firstWritten != id && !alsoWritten.contains(id) {
                    alsoWritten.append(id)
                }
                if queued >= 1 << 20 { flush(id) }
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
