
/// Counters a session keeps about itself.
public struct LinkStats: Sendable, Equatable {
    public var framesSent = 0
    public var framesReceived = 0
    public var userInfoDelivered = 0
    public var userInfoDuplicatesDropped = 0
    public var retransmits = 0
    public var connectionsRejected = 0
    /// Input on the authenticated connection that failed (a sealed record that did not open,
    /// a record that does not decode): each closed the connection.
    public var tamperingDetected = 0
    /// Connections the peer refused in the handshake (a `reject` before the link was up).
    public var refusedByPeer = 0
    public var messagesDelivered = 0
    public var messagesDroppedOutOfOrder = 0
    public var filesDelivered = 0
    public var fileVerifyFailures = 0
    public var fileBytesReceived: Int64 = 0
    public init() {}
}

/// The authenticated connection.
struct ActiveConnection: Sendable, Equatable {
    var id: ConnectionID
    var peerIncarnation: UInt64
    /// The latest time the session was told about (ticks and events).
    var nowMs: EpochMs
    /// When the handshake ended.
    var upSinceMs: EpochMs
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
    /// Pings sent and pongs received on this connection. A peer answers each ping in order,
    /// behind what was sent before it, so the `n`th pong answers the `n`th ping or a later one
    /// (a lost ping or pong only makes the count lag).
    var pingsSent = 0
    var pongsReceived = 0
    /// Pings sent before the latest frame that awaits an acknowledgement.
    var pingsBeforeLastData = 0
    /// A retransmission is due but waits for a pong showing the peer has taken in everything
    /// sent (a slow link is still carrying it; resending would only pile copies on it).
    var retransmitAwaitsPong = false
    /// Frames sent and received on this connection since it came up (after the handshake).
    var framesSent = 0
    var framesReceived = 0

    init(id: ConnectionID, peerIncarnation: UInt64, now: EpochMs) {
        self.id = id
        self.peerIncarnation = peerIncarnation
        nowMs = now
        upSinceMs = now
        lastHeardMs = now
        lastSentMs = now
        lastProgressMs = now
    }

    /// The peer has answered a ping sent after the latest frame awaiting an acknowledgement:
    /// everything sent before it has crossed, so what is still unacknowledged was lost.
    var peerSawAllSent: Bool { pongsReceived > pingsBeforeLastData }

    /// A frame that awaits an acknowledgement was sent (user info, context, file frames, cancels).
    mutating func noteDataSent() {
        pingsBeforeLastData = pingsSent
    }

    /// When a retransmission is due (the wait doubles without progress, up to 16×).
    func retransmitDueMs(_ config: LinkConfig) -> EpochMs {
        lastProgressMs + config.retransmitAfterMs << min(4, retransmitsWithoutProgress)
    }
}

extension LinkSession {
    /// Something sent on the link awaits an acknowledgement (user info, context, file).
    var awaitsAck: Bool {
        guard active?.id != nil else { return false }
        if userInfoChannel.awaitsAck { return true }
        if appContext.awaitsAck(persistent.context) { return true }
        return fileSend.awaitsAck
    }
}

/// A frame that began arriving at `sinceMs` and will be `bytes` long once its current
/// record is in.
struct FrameUnderWay: Sendable, Equatable {
    var sinceMs: EpochMs
    var bytes: Int
}

/// A message of ours awaiting its reply (or, without a reply handler, its receipt).
struct PendingMessage: Sendable, Equatable {
    var id: MessageID
    var connection: ConnectionID
    var deadlineMs: EpochMs
    var replyExpected: Bool
    /// The reply timeout this message was sent with.
    var timeoutMs: Int64
}
