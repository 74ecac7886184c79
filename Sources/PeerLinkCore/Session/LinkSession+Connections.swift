
/// Connections: reconnecting with backoff, closing, refusing (with the limits an attacker
/// meets: caps on connections in the handshake and on what they hold, a bound on how long a
/// started frame may take, rate-limited refusal logs).
extension LinkSession {
    // MARK: - Reconnect (connector)

    /// The shell started connecting: no further attempt is due until this one ends.
    public mutating func onConnectAttemptStarted() {
        reconnect.attemptStarted()
    }

    /// A connection attempt (connector) failed: schedule the next one with backoff and jitter.
    public mutating func onConnectAttemptFailed(now: EpochMs) {
        reconnect.schedule(now: now)
    }

    // MARK: - Closing

    /// The transport connection closed (by the peer, an error, or after our `.close`).
    public mutating func onConnectionClosed(_ id: ConnectionID, now: EpochMs) {
        guard let a = connections.close(id) else {
            if connections.activeID == nil { reconnect.attemptEnded(now: now) }
            return
        }
        files.send.linkChanged()
        peerAppState = nil
        reconnect.linkClosed(upSinceMs: a.liveness.upSinceMs, now: now)
        messages.linkDown(id, WCError(.notReachable, "the link to the \(config.role.peer) went down"), out: &out.messages)
        files.receive.resetProgress(persistent.fileReceive)
        out.deliver(.linkDidChange(up: false))
        updateReachability()
        reconnect.schedule(now: now)
    }

    /// Refuses a connection: tells the peer why (when it is still talking), logs, closes.
    mutating func refuse(_ id: ConnectionID, _ reason: String, tellPeer: Bool = true) {
        if tellPeer {
            var w = ByteWriter()
            w.writeString(Self.cut(reason, toBytes: Self.maxRejectReasonBytes))
            send(id, Frame(.reject, w.bytes))
        }
        connections[handshake: id] = nil
        stats.connectionsRejected += 1
        noteRefusal(.warning, "rejected connection \(id): \(reason)", now: clockMs)
        out.close(id, reason: reason)
    }

    /// The longest prefix of `s` of at most `n` bytes of UTF-8 that ends on a character.
    static func cut(_ s: String, toBytes n: Int) -> String {
        var out = ""
        var count = 0
        for c in s {
            count += c.utf8.count
            if count > n { break }
            out.append(c)
        }
        return out
    }

    /// The bytes of a connection failed (a record that does not decode, a sealed record that
    /// does not open): log and close it; the session goes on, and nothing of the failed
    /// frame was used.
    public mutating func onMalformedInput(_ id: ConnectionID, reason: String, now: EpochMs) {
        guard isConnectionOpen(id) else { return }
        stats.connectionsRejected += 1
        let isPeer = connections.activeID == id
        if isPeer { stats.tamperingDetected += 1 }
        connections[handshake: id] = nil
        noteRefusal(.warning, "\(isPeer ? "closing" : "rejected") connection \(id): \(isPeer ? "" : "malformed input: ")\(reason)", now: now)
        out.close(id, reason: "malformed input: \(reason)")
    }

    /// The connection ended in the middle of a record (logged as a refusal: a stranger that
    /// hangs up half-way is not worth a line each).
    public mutating func onConnectionTruncated(_ id: ConnectionID, reason: String, now: EpochMs) {
        noteRefusal(.warning, "connection \(id): \(reason)", now: now)
    }

    // MARK: - Limits

    /// What the engine holds of the frame under way on `id`: it started arriving at
    /// `startedMs` (nil: none under way), will be `bytesExpected` long once its current record
    /// is in, and `bufferedBytes` of it are held now. Enforces the cap on what connections in
    /// the handshake hold, and arms the bound on how long a frame may take to arrive.
    public mutating func onFrameProgress(_ id: ConnectionID, startedMs: EpochMs?, bytesExpected: Int, bufferedBytes: Int, now: EpochMs) {
        if connections[handshake: id] != nil {
            connections[handshake: id]!.bufferedBytes = bufferedBytes
            enforceHandshakeCaps(now: now)
        } else if connections.activeID == id {
            active!.liveness.frameUnderWay = startedMs.map { FrameUnderWay(sinceMs: $0, bytes: bytesExpected) }
        }
    }

    /// When the frame under way on the active connection must be complete: the liveness
    /// rule's silence timeout, plus its size at the slowest link allowed.
    func frameDeadline(_ frameUnderWay: FrameUnderWay?) -> EpochMs? {
        guard let f = frameUnderWay else { return nil }
        return f.sinceMs + config.peerSilenceTimeoutMs + Int64(f.bytes) * 1000 / max(1, config.minLinkBytesPerSecond)
    }

    /// Refuses the oldest connections in the handshake while there are more than
    /// `maxHandshakes` or they hold more than `maxHandshakeBufferedBytes`.
    mutating func enforceHandshakeCaps(now: EpochMs) {
        while connections.handshakeCount > 0 {
            let handshakes = connections.handshakesByID
            let held = handshakes.reduce(0) { $0 + $1.handshake.bufferedBytes }
            let tooMany = handshakes.count > config.maxHandshakes
            guard tooMany || held > config.maxHandshakeBufferedBytes else { return }
            let oldest = handshakes.min { ($0.handshake.openedMs, $0.id) < ($1.handshake.openedMs, $1.id) }!.id
            refuse(oldest, tooMany ? "more than \(config.maxHandshakes) connections in the handshake: the oldest is refused"
                                   : "connections in the handshake hold \(held) bytes (at most \(config.maxHandshakeBufferedBytes)): the oldest is refused",
                   tellPeer: false)
        }
    }

    // MARK: - Rate-limited refusal log

    /// Logs a refusal unless this interval's burst is spent; then it is counted for the
    /// interval's summary line.
    mutating func noteRefusal(_ level: LogLevel, _ line: String, now: EpochMs) {
        if let summary = refusalLog.summaryDue(now: now, config: config) { emitLog(.warning, summary) }
        if refusalLog.admit(line, now: now, config: config) { emitLog(level, line) }
    }
}

/// How many refusals were logged in the current interval, and what was left out.
struct RefusalLog: Sendable, Equatable {
    var windowStartMs: EpochMs?
    var logged = 0
    var suppressed = 0
    var lastSuppressed = ""

    /// True when `line` may be logged now; else it is counted.
    mutating func admit(_ line: String, now: EpochMs, config: LinkConfig) -> Bool {
        if windowStartMs.map({ now >= $0 + config.refusalLogIntervalMs }) ?? true {
            windowStartMs = now
            logged = 0
        }
        if logged < config.refusalLogBurst {
            logged += 1
            return true
        }
        suppressed += 1
        lastSuppressed = line
        return false
    }

    /// The summary of the interval that ended by `now`, once (nil when nothing was left out).
    mutating func summaryDue(now: EpochMs, config: LinkConfig) -> String? {
        guard suppressed > 0, let start = windowStartMs, now >= start + config.refusalLogIntervalMs else { return nil }
        defer { suppressed = 0; lastSuppressed = "" }
        return "\(suppressed) more refused or failed connections not logged in the last \(config.refusalLogIntervalMs / 1000) s (the last: \(lastSuppressed))"
    }

    /// When a summary is due; nil when nothing waits for one.
    func deadline(_ config: LinkConfig) -> EpochMs? {
        guard suppressed > 0, let start = windowStartMs else { return nil }
        return start + config.refusalLogIntervalMs
    }
}
