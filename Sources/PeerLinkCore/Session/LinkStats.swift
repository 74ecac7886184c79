
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
