
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
    /// The file channel's counters.
    public var files = FileStats()
    public init() {}
}

/// Counters of the files a session received.
public struct FileStats: Sendable, Equatable {
    /// Files handed to the app.
    public var delivered = 0
    /// SHA-256 checks of a received file that failed (it is received again, until
    /// `LinkConfig.maxFileVerifyFailures` failures end its transfer).
    public var verifyFailures = 0
    /// Bytes of file chunks received, retransmissions included.
    public var bytesReceived: Int64 = 0
    public init() {}
}
