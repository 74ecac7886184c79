
/// Dispatch of frames on the active connection, liveness and timers.
extension LinkSession {
    /// A frame arrived on connection `id`.
    public mutating func onFrame(_ id: ConnectionID, _ frame: Frame, now: EpochMs) {
        stats.framesReceived += 1
        clockMs = max(clockMs, now)
        switch connections.phase(id) {
        case .handshaking: return onHandshakeFrame(id, frame, now: now)
        case .active: active!.liveness.heardFrame(now: now)
        case .idle: return  // a closed or replaced connection
        }
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
        guard connections.activeID == id else { return }
        active!.liveness.heardBytes(now: now)
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
        for (id, h) in connections.handshakesByID where now - h.openedMs >= config.handshakeTimeoutMs {
            refuse(id, "handshake not completed within \(config.handshakeTimeoutMs) ms", tellPeer: false)
        }
        if let summary = refusalLog.summaryDue(now: now, config: config) { emitLog(.warning, summary) }
        expireMessages(now: now)
        // The active connection in place (`active!`): this runs at every tick.
        guard connections.activeID != nil else { return }
        active!.liveness.nowMs = now
        let id = active!.id
        if now - active!.liveness.lastHeardMs >= config.peerSilenceTimeoutMs {
            emitLog(.warning, "peer silent for \(now - active!.liveness.lastHeardMs) ms: link down")
            out.close(id, reason: "peer silent")
            onConnectionClosed(id, now: now)
            return
        }
        if let due = frameDeadline(active!.liveness.frameUnderWay), now >= due, let f = active!.liveness.frameUnderWay {
            let reason = "a frame started \(now - f.sinceMs) ms ago is not complete (\(f.bytes) bytes expected; a frame must arrive within \(config.peerSilenceTimeoutMs) ms plus its size at \(config.minLinkBytesPerSecond) B/s)"
            stats.tamperingDetected += 1
            protocolViolation(id, reason)
            onConnectionClosed(id, now: now)
            return
        }
        if awaitsAck {
            switch active!.liveness.retransmitStep(now: now, config: config) {
            case .none: break
            case .retransmit: retransmit(now: now)
            case .probe(let sendPing):
                // Unacknowledged, but perhaps still crossing a slow link: ask the peer to show
                // it has taken in everything (its pong comes back behind our frames).
                if sendPing { send(id, Frame(.ping, [localAppState.flags])) }
            }
        }
        if let a2 = connections.activeID, now - active!.liveness.lastSentMs >= config.heartbeatIntervalMs {
            send(a2, Frame(.ping, [localAppState.flags]))
        }
    }

    /// Virtual time moved over a stretch in which the link was healthy and idle (the scenario
    /// runner's fast-forward: no fault on the link, nothing in flight, both nodes up). Over such
    /// a stretch heartbeats would have crossed both ways and changed nothing else, so their
    /// effect is applied at once: the peer counts as heard, and our last send as now.
    public mutating func onIdleLinkTime(now: EpochMs) {
        guard connections.activeID != nil else { return }
        active!.liveness.nowMs = now
        active!.liveness.lastHeardMs = max(active!.liveness.lastHeardMs, now)
        active!.liveness.lastSentMs = max(active!.liveness.lastSentMs, now)
    }

    /// A pong came: a retransmission waiting for it goes out if the peer has now seen
    /// everything sent and it is still unacknowledged.
    mutating func onPong(now: EpochMs) {
        guard connections.activeID != nil else { return }
        let waiting = awaitsAck
        if active!.liveness.pong(now: now, awaitsAck: waiting, config: config) { retransmit(now: now) }
    }

    /// Sends again what is unacknowledged (after a time without progress, once the peer has
    /// answered a ping sent after it: it was lost, not slow).
    mutating func retransmit(now: EpochMs) {
        guard connections.activeID != nil else { return }
        active!.liveness.retransmitting(now: now)
        userInfoChannel.rewind()
        appContext.rewind()
        files.send.rewind()
        stats.retransmits += 1
        sendOutbox(now: now)
        sendContextIfNeeded()
        pumpFiles(now: now)
    }

    /// The earliest time `onTick` has something to do; nil when nothing is scheduled.
    /// - Parameter includingLiveness: false leaves out heartbeats and the silence check, the
    ///   timers that only keep an idle healthy link alive (see `onIdleLinkTime`).
    public func nextDeadline(includingLiveness: Bool = true) -> EpochMs? {
        let d = deadlines
        return includingLiveness ? d.all : d.work
    }

    /// `nextDeadline()` (`all`) and `nextDeadline(includingLiveness: false)` (`work`) in one
    /// pass: the simulator asks for both after every entry point.
    public var deadlines: (all: EpochMs?, work: EpochMs?) {
        var work: EpochMs? = nil
        func consider(_ t: EpochMs) { work = min(work ?? t, t) }
        for h in connections.handshakes.values { consider(h.openedMs + config.handshakeTimeoutMs) }
        if let m = messages.nextDeadlineMs { consider(m) }
        if let s = refusalLog.deadline(config) { consider(s) }
        if let c = nextConnectAtMs { consider(c) }
        guard let up = active else { return (work, work) }
        if let f = frameDeadline(up.liveness.frameUnderWay) { consider(f) }
        let awaits = awaitsAck
        if let t = up.liveness.deadline(includingLiveness: false, awaitsAck: awaits, config: config) { consider(t) }
        // The heartbeat and silence deadlines come on top of the work's.
        guard let beat = up.liveness.deadline(includingLiveness: true, awaitsAck: awaits, config: config) else { return (work, work) }
        return (min(work ?? beat, beat), work)
    }

    /// True when nothing is queued or in flight on any channel (no outstanding user info,
    /// files, unacknowledged context, pending messages or handshakes).
    public var isIdle: Bool {
        userInfoChannel.isEmpty && persistent.outgoingFiles.isEmpty && messages.pending.isEmpty
            && connections.handshakeCount == 0 && persistent.contextAckedVersion >= persistent.contextVersion
    }
}

extension LinkSession {
    /// Something sent on the link awaits an acknowledgement (user info, context, file).
    var awaitsAck: Bool {
        guard connections.activeID != nil else { return false }
        if userInfoChannel.awaitsAck { return true }
        if appContext.awaitsAck(persistent.context) { return true }
        return files.send.awaitsAck
    }
}
