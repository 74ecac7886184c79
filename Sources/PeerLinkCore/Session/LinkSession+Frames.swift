
/// Dispatch of frames on the active connection, liveness and timers.
extension LinkSession {
    /// A frame arrived on connection `id`.
    public mutating func onFrame(_ id: ConnectionID, _ frame: Frame, now: EpochMs) {
        stats.framesReceived += 1
        clockMs = max(clockMs, now)
        if handshakes[id] != nil {
            onHandshakeFrame(id, frame, now: now)
            return
        }
        guard active?.id == id else { return }  // a closed or replaced connection
        active!.lastHeardMs = now
        active!.nowMs = now
        active!.framesReceived += 1
        do {
            switch frame.kind {
            case .ping:
                onPeerAppState(try Self.appStateBody(frame))
                send(id, Frame(.pong, [localAppState.flags]))
            case .pong:
                onPeerAppState(try Self.appStateBody(frame))
                onPong(now: now)
            case .appState:
                onPeerAppState(try Self.appStateBody(frame))
            case .userInfo:
                try onUserInfoFrame(frame, now: now)
            case .userInfoAck:
                try onUserInfoAck(frame, now: now)
            case .userInfoCancel:
                try onUserInfoCancel(frame)
            case .userInfoCancelReply:
                try onUserInfoCancelReply(frame, now: now)
            case .message:
                try onMessageFrame(id, frame, now: now)
            case .messageReply:
                try onMessageReply(id, frame)
            case .messageError:
                try onMessageError(id, frame)
            case .context:
                try onContextFrame(frame, now: now)
            case .contextAck:
                try onContextAck(frame, now: now)
            case .fileOffer:
                try onFileOffer(frame, now: now)
            case .fileResume:
                try onFileResume(frame, now: now)
            case .fileChunk:
                try onFileChunk(frame, now: now)
            case .fileAck:
                try onFileAck(frame, now: now)
            case .fileCancel:
                try onFileCancel(frame)
            case .fileEnd:
                try onFileEnd(frame, now: now)
            case .reject:
                var r = ByteReader(frame.body)
                let reason = Self.cut((try? r.readString()) ?? "no reason", toBytes: Self.maxRejectReasonBytes)  // the peer's text: bounded in the log
                noteRefusal(.warning, "peer closed the link: \(reason)", now: now)
                out.close(id, reason: "closed by peer: \(reason)")
            case .hello, .helloReply, .auth, .ready:
                protocolViolation(id, "handshake frame \(frame.kind) after the handshake (out of protocol order)")
            }
        } catch {
            protocolViolation(id, "malformed \(frame.kind) frame: \(error)")
        }
    }

    /// Bytes arrived on connection `id`, before they are decoded. A peer whose frame is still
    /// crossing a slow link is heard from: liveness counts bytes, not whole frames, so a frame
    /// that takes longer than `peerSilenceTimeoutMs` to cross does not get the peer declared
    /// silent (its pings are queued behind it).
    public mutating func onBytesReceived(_ id: ConnectionID, now: EpochMs) {
        guard active?.id == id else { return }
        active!.lastHeardMs = max(active!.lastHeardMs, now)
        active!.nowMs = max(active!.nowMs, now)
    }

    static func appStateBody(_ frame: Frame) throws(ByteReaderError) -> AppState {
        guard frame.body.count == 1, frame.body[0] & ~0x0F == 0 else { throw .malformed("\(frame.kind) body must be one flags byte") }
        return AppState(flags: frame.body[0])
    }

    mutating func protocolViolation(_ id: ConnectionID, _ reason: String) {
        stats.connectionsRejected += 1
        noteRefusal(.warning, "closing connection \(id): \(reason)", now: clockMs)
        out.close(id, reason: reason)
    }

    // MARK: - Time

    /// Time passed: handshake timeouts, heartbeats, silence, reply timeouts, retransmission.
    public mutating func onTick(now: EpochMs) {
        clockMs = max(clockMs, now)
        for id in handshakes.keys.sorted() where now - handshakes[id]!.openedMs >= config.handshakeTimeoutMs {
            refuse(id, "handshake not completed within \(config.handshakeTimeoutMs) ms", tellPeer: false)
        }
        if let summary = refusalLog.summaryDue(now: now, config: config) { emitLog(.warning, summary) }
        expireMessages(now: now)
        // The active connection in place (`active!`): this runs at every tick.
        guard active?.id != nil else { return }
        active!.nowMs = now
        let id = active!.id
        if now - active!.lastHeardMs >= config.peerSilenceTimeoutMs {
            emitLog(.warning, "peer silent for \(now - active!.lastHeardMs) ms: link down")
            out.close(id, reason: "peer silent")
            onConnectionClosed(id, now: now)
            return
        }
        if let due = frameDeadline(active!.frameUnderWay), now >= due, let f = active!.frameUnderWay {
            let reason = "a frame started \(now - f.sinceMs) ms ago is not complete (\(f.bytes) bytes expected; a frame must arrive within \(config.peerSilenceTimeoutMs) ms plus its size at \(config.minLinkBytesPerSecond) B/s)"
            stats.tamperingDetected += 1
            protocolViolation(id, reason)
            onConnectionClosed(id, now: now)
            return
        }
        if awaitsAck, now >= active!.retransmitDueMs(config) {
            if active!.peerSawAllSent {
                retransmit(now: now)
            } else {
                // Unacknowledged, but perhaps still crossing a slow link: ask the peer to show
                // it has taken in everything (its pong comes back behind our frames).
                active!.retransmitAwaitsPong = true
                if active!.pingsSent == active!.pingsBeforeLastData { send(id, Frame(.ping, [localAppState.flags])) }
            }
        }
        if let a2 = active?.id, now - active!.lastSentMs >= config.heartbeatIntervalMs {
            send(a2, Frame(.ping, [localAppState.flags]))
        }
    }

    /// Virtual time moved over a stretch in which the link was healthy and idle (the scenario
    /// runner's fast-forward: no fault on the link, nothing in flight, both nodes up). Over such
    /// a stretch heartbeats would have crossed both ways and changed nothing else, so their
    /// effect is applied at once: the peer counts as heard, and our last send as now.
    public mutating func onIdleLinkTime(now: EpochMs) {
        guard var a = active else { return }
        a.nowMs = now
        a.lastHeardMs = max(a.lastHeardMs, now)
        a.lastSentMs = max(a.lastSentMs, now)
        active = a
    }

    /// A pong came: a retransmission waiting for it goes out if the peer has now seen
    /// everything sent and it is still unacknowledged.
    mutating func onPong(now: EpochMs) {
        guard var a = active else { return }
        a.pongsReceived += 1
        active = a
        if a.retransmitAwaitsPong, a.peerSawAllSent, awaitsAck, now >= a.retransmitDueMs(config) {
            retransmit(now: now)
        }
    }

    /// Sends again what is unacknowledged (after a time without progress, once the peer has
    /// answered a ping sent after it: it was lost, not slow).
    mutating func retransmit(now: EpochMs) {
        guard var a = active else { return }
        a.retransmitAwaitsPong = false
        let count = a.retransmitsWithoutProgress + 1
        userInfoChannel.rewind()
        a.lastProgressMs = now
        a.retransmitsWithoutProgress = count
        appContext.rewind()
        fileSend.rewind()
        active = a
        stats.retransmits += 1
        sendOutbox(now: now)
        sendContextIfNeeded()
        pumpFiles(now: now)
    }

    /// The earliest time `onTick` has something to do; nil when nothing is scheduled.
    /// - Parameter includingLiveness: false leaves out heartbeats and the silence check, the
    ///   timers that only keep an idle healthy link alive (see `onIdleLinkTime`).
    public func nextDeadline(includingLiveness: Bool = true) -> EpochMs? {
        var d: EpochMs? = nil
        func consider(_ t: EpochMs) { d = min(d ?? t, t) }
        for h in handshakes.values { consider(h.openedMs + config.handshakeTimeoutMs) }
        if let m = messages.nextDeadlineMs { consider(m) }
        if let s = refusalLog.deadline(config) { consider(s) }
        // The active connection read in place (`active!.`), not copied: this runs after every event.
        if active?.id != nil {
            if let f = frameDeadline(active!.frameUnderWay) { consider(f) }
            if includingLiveness {
                consider(active!.lastHeardMs + config.peerSilenceTimeoutMs)
                consider(active!.lastSentMs + config.heartbeatIntervalMs)
            }
            if awaitsAck {
                let due = active!.retransmitDueMs(config)
                if !active!.retransmitAwaitsPong || due > active!.nowMs {
                    consider(due)
                } else if active!.pingsSent == active!.pingsBeforeLastData {
                    consider(active!.nowMs)  // frames went out after the probe: probe again
                }
            }
        }
        if let c = nextConnectAtMs { consider(c) }
        return d
    }

    /// True when nothing is queued or in flight on any channel (no outstanding user info,
    /// files, unacknowledged context, pending messages or handshakes).
    public var isIdle: Bool {
        userInfoChannel.isEmpty && persistent.outgoingFiles.isEmpty && messages.pending.isEmpty
            && handshakes.isEmpty && persistent.contextAckedVersion >= persistent.contextVersion
    }
}
