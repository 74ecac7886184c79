
/// The two user-info streams: ordinary transfers and complication user info, each FIFO
/// with its own chain of sequence numbers and receive log. Complication user info jumps
/// ahead of queued ordinary transfers, so it cannot share their order.
public enum UserInfoStream: Int, Sendable, Equatable, CaseIterable {
    case ordinary = 0
    case complication = 1
}

/// One queued user-info transfer in the sender's durable outbox.
public struct OutboxItem: Sendable, Equatable {
    public var seq: UInt64
    public var payload: PlistValue
    /// The canonical encoding of `payload` (what goes on the wire).
    public var encoded: [UInt8]
    public var stream: UserInfoStream
    /// Complication stream only: the newest queued one is tagged current.
    public var isCurrent: Bool
    public var createdMs: EpochMs
    /// `cancel()` was called after its frame went out: the peer is asked whether it
    /// delivered it; until it answers, nothing after it in its stream is sent.
    public var isCancelled = false
}

/// A file the sender has queued (`transferFile`), in its durable outbox.
public struct OutgoingFile: Sendable, Equatable {
    public var number: UInt64
    public var path: String
    public var name: String
    public var sizeBytes: Int64
    public var metadata: PlistValue?
    public var createdMs: EpochMs
    /// `cancel()` was called after its whole content and hash may have reached the peer: the
    /// peer is asked whether it delivered it; until it answers no other file is sent.
    public var isCancelled = false
}

/// The file being received: where it is and how much of it is durable.
public struct IncomingFile: Sendable, Equatable {
    public var number: UInt64
    public var name: String
    public var sizeBytes: Int64
    /// The sender's SHA-256 (from `fileEnd`; empty until it came).
    public var sha256: [UInt8]
    public var metadata: PlistValue?
    /// Bytes written, synced and committed (what a resume starts from).
    public var committedBytes: Int64
    /// Checksum mismatches so far (the transfer fails after `LinkConfig.maxFileVerifyFailures`).
    public var verifyFailures: Int
}

/// Content that arrived while the app was not running (`hasContentPending`); it is delivered,
/// in arrival order, when the app runs.
public enum PendingContent: Sendable, Equatable {
    case userInfo(PlistValue, isComplication: Bool)
    case applicationContext(PlistValue)
    case file(ReceivedFile)
}

/// Content received while the app could not take it, with its inbox row number.
public struct InboxEntry: Sendable, Equatable {
    public var seq: UInt64
    public var content: PendingContent
}

/// The part of a session that survives restarts and crashes: the identity of this store
/// and of its peer, and each channel's durable slice. `LinkPersistence` writes its scalars
/// as one meta row (the same bytes, in the same order, as before the slices) and the rest
/// as table rows.
public struct LinkPersistent: Sendable, Equatable {
    /// This link store's incarnation: random, chosen when the store was created.
    public var incarnation: UInt64
    /// The peer incarnation whose streams the receive logs count.
    public var peerIncarnation: UInt64 = 0
    /// A peer has authenticated at least once (the phone's `isWatchAppInstalled`).
    public var peerEverSeen = false
    /// The watch's complication was on the active face when last heard (phone).
    public var peerComplicationEnabled = false

    /// User info: both streams' sequence numbers, the outbox, the receive logs, the budget.
    public var userInfo = UserInfoState()
    /// The application context sent and received.
    public var context = ApplicationContextState()
    /// Files queued to send.
    public var fileSend = FileSendQueue()
    /// The file being received and the receive log of files.
    public var fileReceive = FileReceiveState()
    /// Content received while the app could not take it.
    public var pendingInbox = Inbox()

    public init(incarnation: UInt64) { self.incarnation = incarnation }
}

/// The user-info streams' durable state (a slice of `LinkPersistent`).
public struct UserInfoState: Sendable, Equatable {
    /// The next outbox sequence number (starts at 1), shared by both user-info streams.
    public var nextSeq: UInt64 = 1
    /// Undelivered user-info transfers, in seq order (as loaded; the session keeps them in
    /// its outbox queues and leaves this empty).
    public var outbox: [OutboxItem] = []
    /// The highest seq of our ordinary stream the peer has acknowledged: if it later says it
    /// delivered less (same store), its store went back in time and lost what it confirmed.
    public var peerAckedThrough: UInt64 = 0
    /// The highest user-info seq ever put on the wire (committed before the frame leaves):
    /// a peer that holds more came by it in a history this store has lost.
    public var highestSeqSent: UInt64 = 0
    /// The receive log: the highest peer seq delivered here, per stream.
    public var lastDeliveredFromPeer: UInt64 = 0
    public var lastComplicationDeliveredFromPeer: UInt64 = 0
    /// Complication budget: the local day (days since 1970) and transfers used that day.
    public var complicationBudgetDay: Int = 0
    public var complicationTransfersUsed: Int = 0

    public init() {}
}

/// The sender's durable file queue (a slice of `LinkPersistent`).
public struct FileSendQueue: Sendable, Equatable {
    public var nextFileNumber: UInt64 = 1
    /// The highest file number ever offered to the peer (committed before the offer leaves):
    /// a peer that delivered more came by it in a history this store has lost.
    public var highestFileSent: UInt64 = 0
    /// Queued files, in number order.
    public var files: [OutgoingFile] = []

    public init() {}
}
