
/// The liveness of the link that is up: when the peer was last heard and when we last sent
/// (heartbeats, the silence timeout), the retransmission clock, and the ping probe that tells
/// a lost frame from one still crossing a slow link.
///
/// It is per link: a new one starts at the handshake's end. The session reports what it
/// sent (`noteSent`) and heard; the liveness answers what is due.
struct Liveness: Sendable, Equatable {
    /// The latest time the session was told about (ticks and events).
    var nowMs: EpochMs
    /// When the handshake ended.
    let upSinceMs: EpochMs
    /// The frame arriving now, if one is under way (see `LinkSession.frameDeadline`).
    var frameUnderWay: FrameUnderWay?
    var lastHeardMs: EpochMs
    var lastSentMs: EpochMs
    /// When the peer last acknowledged new progress (or when sending began).
    var lastProgressMs: EpochMs {
        didSet { if lastProgressMs != oldValue { retransmitsWithoutProgress = 0 } }
    }
    /// Retransmissions since the last progress: each doubles the wait for the next.
    var retransmitsWithoutProgress = 0
    /// A retransmission is due but waits for a pong showing the peer has taken in everything
    /// sent (a slow link is still carrying it; resending would only pile copies on it).
    var retransmitAwaitsPong = false
    var probe = PingProbe()
    /// Frames sent and received on this link since it came up (after the handshake).
    var framesSent = 0
    var framesReceived = 0

    init(now: EpochMs) {
        nowMs = now
        upSinceMs = now
        lastHeardMs = now
        lastSentMs = now
        lastProgressMs = now
    }

    /// The peer has answered a ping sent after the latest frame awaiting an acknowledgement:
    /// everything sent before it has crossed, so what is still unacknowledged was lost.
    var peerSawAllSent: Bool { probe.pongsReceived > probe.pingsBeforeLastData }

    /// No ping went out since the latest frame awaiting an acknowledgement.
    var probeOutdated: Bool { probe.pingsSent == probe.pingsBeforeLastData }

    /// When a retransmission is due (the wait doubles without progress, up to 16×).
    func retransmitDueMs(_ config: LinkConfig) -> EpochMs {
        lastProgressMs + config.retransmitAfterMs << min(4, retransmitsWithoutProgress)
    }

    /// A frame of `kind` went out on this link (`nil`: a kind that needs no bookkeeping).
    mutating func noteSent(_ kind: FrameKind?) {
        lastSentMs = nowMs
        framesSent += 1
        switch kind {
        case .userInfo?, .userInfoCancel?, .context?, .fileOffer?, .fileChunk?, .fileEnd?, .fileCancel?:
            probe.pingsBeforeLastData = probe.pingsSent  // a frame that awaits an acknowledgement
        case .ping?: probe.pingsSent += 1
        default: break
        }
    }

    /// A whole frame came at `now`.
    mutating func heardFrame(now: EpochMs) {
        lastHeardMs = now
        nowMs = now
        framesReceived += 1
    }

    /// Bytes came at `now` (a frame still crossing counts as hearing from the peer).
    mutating func heardBytes(now: EpochMs) {
        lastHeardMs = max(lastHeardMs, now)
        nowMs = max(nowMs, now)
    }

    /// What a tick finds about the unacknowledged frames, when something awaits an ack.
    enum RetransmitStep: Equatable {
        /// Not due yet.
        case none
        /// Due, and the peer showed it took in everything sent: what is unacknowledged was lost.
        case retransmit
        /// Due, but the frames may still be crossing: wait for a pong (and send a ping when
        /// none went out since the last of them).
        case probe(sendPing: Bool)
    }

    /// At a tick at `now`, with frames awaiting an acknowledgement.
    mutating func retransmitStep(now: EpochMs, config: LinkConfig) -> RetransmitStep {
        guard now >= retransmitDueMs(config) else { return .none }
        if peerSawAllSent { return .retransmit }
        retransmitAwaitsPong = true
        return .probe(sendPing: probeOutdated)
    }

    /// A pong came at `now`: true when a retransmission waiting for it is due now (the
    /// peer has now seen everything sent; `awaitsAck`: it is still unacknowledged).
    mutating func pong(now: EpochMs, awaitsAck: Bool, config: LinkConfig) -> Bool {
        probe.pongsReceived += 1
        return retransmitAwaitsPong && peerSawAllSent && awaitsAck && now >= retransmitDueMs(config)
    }

    /// Everything unacknowledged goes out again at `now`: the wait for the next doubles.
    mutating func retransmitting(now: EpochMs) {
        retransmitAwaitsPong = false
        let count = retransmitsWithoutProgress + 1
        lastProgressMs = now
        retransmitsWithoutProgress = count
    }

    /// The earliest time a tick has something to do on this link (`awaitsAck`: frames await
    /// an acknowledgement); `includingLiveness` adds heartbeats and the silence timeout.
    func deadline(includingLiveness: Bool, awaitsAck: Bool, config: LinkConfig) -> EpochMs? {
        var d: EpochMs? = nil
        func consider(_ t: EpochMs) { d = min(d ?? t, t) }
        if includingLiveness {
            consider(lastHeardMs + config.peerSilenceTimeoutMs)
            consider(lastSentMs + config.heartbeatIntervalMs)
        }
        if awaitsAck {
            let due = retransmitDueMs(config)
            if !retransmitAwaitsPong || due > nowMs {
                consider(due)
            } else if probeOutdated {
                consider(nowMs)  // frames went out after the probe: probe again
            }
        }
        return d
    }
}

/// Pings sent and pongs received on a link. A peer answers each ping in order, behind what
/// was sent before it, so the `n`th pong answers the `n`th ping or a later one (a lost ping
/// or pong only makes the count lag).
struct PingProbe: Sendable, Equatable {
    var pingsSent = 0
    var pongsReceived = 0
    /// Pings sent before the latest frame that awaits an acknowledgement.
    var pingsBeforeLastData = 0
}

/// A frame that began arriving at `sinceMs` and will be `bytes` long once its current
/// record is in.
struct FrameUnderWay: Sendable, Equatable {
    var sinceMs: EpochMs
    var bytes: Int
}
