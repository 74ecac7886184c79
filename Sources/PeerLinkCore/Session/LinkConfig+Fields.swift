
/// The settings by their names from before they were grouped (`config.heartbeatIntervalMs`
/// is `config.timers.heartbeatIntervalMs`), for the engine, the shells and the tests.
extension LinkConfig {
    public var handshakeTimeoutMs: Int64 {
        get { connections.handshakeTimeoutMs }
        set { connections.handshakeTimeoutMs = newValue }
    }
    public var maxHandshakes: Int {
        get { connections.maxHandshakes }
        set { connections.maxHandshakes = newValue }
    }
    public var maxHandshakeBufferedBytes: Int {
        get { connections.maxHandshakeBufferedBytes }
        set { connections.maxHandshakeBufferedBytes = newValue }
    }
    public var minLinkBytesPerSecond: Int64 {
        get { connections.minLinkBytesPerSecond }
        set { connections.minLinkBytesPerSecond = newValue }
    }
    public var refusalLogBurst: Int {
        get { connections.refusalLogBurst }
        set { connections.refusalLogBurst = newValue }
    }
    public var refusalLogIntervalMs: Int64 {
        get { connections.refusalLogIntervalMs }
        set { connections.refusalLogIntervalMs = newValue }
    }
    public var stableConnectionMs: Int64 {
        get { timers.stableConnectionMs }
        set { timers.stableConnectionMs = newValue }
    }
    public var heartbeatIntervalMs: Int64 {
        get { timers.heartbeatIntervalMs }
        set { timers.heartbeatIntervalMs = newValue }
    }
    public var peerSilenceTimeoutMs: Int64 {
        get { timers.peerSilenceTimeoutMs }
        set { timers.peerSilenceTimeoutMs = newValue }
    }
    public var retransmitAfterMs: Int64 {
        get { timers.retransmitAfterMs }
        set { timers.retransmitAfterMs = newValue }
    }
    public var reconnectInitialMs: Int64 {
        get { timers.reconnectInitialMs }
        set { timers.reconnectInitialMs = newValue }
    }
    public var reconnectMaxMs: Int64 {
        get { timers.reconnectMaxMs }
        set { timers.reconnectMaxMs = newValue }
    }
    public var reconnectJitter: Double {
        get { timers.reconnectJitter }
        set { timers.reconnectJitter = newValue }
    }
    public var messageReplyTimeoutMs: Int64 {
        get { timers.messageReplyTimeoutMs }
        set { timers.messageReplyTimeoutMs = newValue }
    }
    public var maxUserInfoInFlight: Int {
        get { transfers.maxUserInfoInFlight }
        set { transfers.maxUserInfoInFlight = newValue }
    }
    public var maxUserInfoInFlightBytes: Int {
        get { transfers.maxUserInfoInFlightBytes }
        set { transfers.maxUserInfoInFlightBytes = newValue }
    }
    public var fileChunkBytes: Int {
        get { transfers.fileChunkBytes }
        set { transfers.fileChunkBytes = newValue }
    }
    public var fileWindowBytes: Int64 {
        get { transfers.fileWindowBytes }
        set { transfers.fileWindowBytes = newValue }
    }
    public var fileSyncIntervalBytes: Int64 {
        get { transfers.fileSyncIntervalBytes }
        set { transfers.fileSyncIntervalBytes = newValue }
    }
    public var fileAckIntervalBytes: Int64 {
        get { transfers.fileAckIntervalBytes }
        set { transfers.fileAckIntervalBytes = newValue }
    }
    public var maxFileVerifyFailures: Int {
        get { transfers.maxFileVerifyFailures }
        set { transfers.maxFileVerifyFailures = newValue }
    }
    public var complicationTransfersPerDay: Int {
        get { transfers.complicationTransfersPerDay }
        set { transfers.complicationTransfersPerDay = newValue }
    }
    public var recentMessageIDsKept: Int {
        get { transfers.recentMessageIDsKept }
        set { transfers.recentMessageIDsKept = newValue }
    }
}
