import Shared

/// Dispatch of frames on the active connection, liveness and timers.
extension LinkSession {
    /// A frame arrived on connection `id`.
    public mutating func onFrame(_ id: ConnectionID, _ frame: Frame, now: EpochMs) {
        stats.framesReceived += 1
        if handshakes[id] != nil {
            onHandshakeFrame(id, frame, now: now)
            return
        }
        guard var a = active, a.id == id else { return }  // a closed or replaced connection
        a.lastHeardMs = now
        a.nowMs = now
        a.framesReceived += 1
        active = a
        do {
            switch frame.kind {
            case .ping:
                send(id, Frame(.pong, frame.body))
            case .pong:
                break
            case .appState:
                guard frame.body.count == 1 else { throw ByteReaderError.malformed("appState body") }
                let s = AppState(flags: frame.body[0])
                if s.complicationEnabled != peerAppState?.complicationEnabled { actions.append(.deliver(.watchStateDidChange)) }
                peerAppState = s
                updateReachability()
            case .userInfo:
                try onUserInfoFrame(frame, now: now)
            case .userInfoAck:
                try onUserInfoAck(frame, now: now)
            case .reject:
                var r = ByteReader(frame.body)
                let reason = (try? r.readString()) ?? "no reason"
                emitLog(.warning, "peer closed the link: \(reason)")
                actions.append(.close(id, reason: "closed by peer: \(reason)"))
            case .hello, .helloReply, .auth, .ready:
                protocolViolation(id, "handshake frame \(frame.kind) after the handshake")
            default:
                protocolViolation(id, "frame \(frame.kind) is not supported by this session yet")
            }
        } catch {
            protocolViolation(id, "malformed \(frame.kind) frame: \(error)")
        }
    }

    mutating func protocolViolation(_ id: ConnectionID, _ reason: String) {
        emitLog(.warning, "closing connection \(id): \(reason)")
        actions.append(.close(id, reason: reason))
    }

    // MARK: - Time

    /// Time passed: handshake timeouts, heartbeats, silence, retransmission.
    public mutating func onTick(now: EpochMs) {
        for (id, h) in handshakes where now - h.openedMs >= config.handshakeTimeoutMs {
            refuse(id, "handshake not completed within \(config.handshakeTimeoutMs) ms", tellPeer: false)
        }
        guard var a = active else { return }
        a.nowMs = now
        active = a
        if now - a.lastHeardMs >= config.peerSilenceTimeoutMs {
            emitLog(.warning, "peer silent for \(now - a.lastHeardMs) ms: link down")
            actions.append(.close(a.id, reason: "peer silent"))
            onConnectionClosed(a.id, now: now)
            return
        }
        if !outbox.isEmpty, a.sentThrough > 0, now - a.lastProgressMs >= config.retransmitAfterMs {
            retransmit(now: now)
        }
        if let a2 = active, now - a2.lastSentMs >= config.heartbeatIntervalMs {
            send(a2.id, Frame(.ping))
            if var a3 = active { a3.lastSentMs = now; active = a3 }
        }
    }

    /// The earliest time `onTick` has something to do; nil when nothing is scheduled.
    public func nextDeadline() -> EpochMs? {
        var d: EpochMs? = nil
        func consider(_ t: EpochMs) { d = min(d ?? t, t) }
        for h in handshakes.values { consider(h.openedMs + config.handshakeTimeoutMs) }
        if let a = active {
            consider(a.lastHeardMs + config.peerSilenceTimeoutMs)
            consider(a.lastSentMs + config.heartbeatIntervalMs)
            if !outbox.isEmpty, a.sentThrough > 0 { consider(a.lastProgressMs + config.retransmitAfterMs) }
        }
        if let c = nextConnectAtMs { consider(c) }
        return d
    }
}
