
/// Identifies one transport connection of a node (the shell numbers them).
public typealias ConnectionID = Int

/// Identifies a live message: the sender's number for it, unique within the sending session's run.
public typealias MessageID = UInt64

/// `WCSessionActivationState`.
public enum ActivationState: String, Sendable, Equatable {
    case notActivated, inactive, activated
}

/// How a log line is classed.
public enum LogLevel: String, Sendable, Equatable, Comparable, CaseIterable {
    case debug, info, warning, error

    var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rank < b.rank }
}

// MARK: - Transfers

/// A user-info transfer as the sender sees it (`WCSessionUserInfoTransfer`).
public struct UserInfoTransfer: Sendable, Equatable {
    /// Unique on this node: `u<seq>` (the outbox sequence number).
    public var id: String
    public var seq: UInt64
    public var userInfo: PlistValue
    /// True for the newest queued `transferCurrentComplicationUserInfo`.
    public var isCurrentComplicationInfo: Bool
    /// True while its frame is on the wire and not yet acknowledged.
    public var isTransferring: Bool
    /// The stream it travels in: ordinary, or complication user info (which jumps the queue).
    public var stream: UserInfoStream = .ordinary
    /// When it was queued (the session's clock).
    public var queuedAtMs: EpochMs = 0
}

/// A file transfer as the sender sees it (`WCSessionFileTransfer`).
public struct FileTransfer: Sendable, Equatable {
    /// Unique on this node: `f<number>`.
    public var id: String
    public var number: UInt64
    /// The file's path, relative to the node's file root.
    public var path: String
    public var metadata: PlistValue?
    public var sizeBytes: Int64
    /// Bytes the receiver has acknowledged, 0…`sizeBytes`.
    public var acknowledgedBytes: Int64
    /// True while it is being sent on the current connection.
    public var isTransferring: Bool
    /// True once the receiver verified and delivered it.
    public var isDelivered = false
    /// When it was queued (the session's clock).
    public var queuedAtMs: EpochMs = 0

    /// `progress.fractionCompleted`: 0 before anything is acknowledged, 1 once delivered.
    public var progress: Double {
        if isDelivered { return 1 }
        return sizeBytes <= 0 ? 0 : Double(acknowledgedBytes) / Double(sizeBytes)
    }
}

/// A file received from the peer (`WCSessionFile`): it lies in the node's inbox and is
/// deleted after the delegate callback unless the app moved it (`NodeContext.moveReceivedFile`).
public struct ReceivedFile: Sendable, Equatable {
    /// The file's path in the inbox, relative to the node's file root.
    public var path: String
    /// The name the sender gave (the last part of its path).
    public var name: String
    public var metadata: PlistValue?
    public var sizeBytes: Int64
    /// The file's bytes, read by the engine before the app's callback when the file is no
    /// larger than the app's `receivedFileReadLimit` (nil otherwise, or when unreadable).
    public var contents: [UInt8]?

    public init(path: String, name: String, metadata: PlistValue?, sizeBytes: Int64, contents: [UInt8]? = nil) {
        self.path = path
        self.name = name
        self.metadata = metadata
        self.sizeBytes = sizeBytes
        self.contents = contents
    }
}

// MARK: - Messages

/// The payload of a live message or reply: a dictionary (`sendMessage`) or data (`sendMessageData`).
public enum MessagePayload: Sendable, Equatable {
    case dictionary([String: PlistValue])
    case data([UInt8])

    /// True for `sendMessageData` payloads.
    public var isData: Bool { if case .data = self { true } else { false } }
}

/// A message the peer sent (`didReceiveMessage`). When `replyExpected`, the app answers with
/// `replyToMessage(id:…)`; without an answer the sender gets `messageReplyTimedOut`.
public struct IncomingMessage: Sendable, Equatable {
    public var id: MessageID
    public var payload: MessagePayload
    public var replyExpected: Bool
}

// MARK: - Events and actions

/// A delegate callback (`WCSessionDelegate`), delivered in order on the node's one loop.
public enum LinkEvent: Sendable, Equatable {
    /// The peer's store went back in time and lost transfers it had acknowledged (detected
    /// at the handshake). The node's replica sync resends everything.
    case peerLostData
    /// Our own store went back in time (the peer holds more of our streams than we issued).
    /// The node's replica asks the peer for everything again.
    case selfLostData
    case activationDidComplete(ActivationState)
    /// iOS only: the paired watch is being switched.
    case sessionDidBecomeInactive
    /// iOS only: the switch finished; the app activates again.
    case sessionDidDeactivate
    case reachabilityDidChange(Bool)
    /// `isPaired`, `isWatchAppInstalled` or `isComplicationEnabled` changed.
    case watchStateDidChange
    /// The peer reported an app state other than the last one it reported on this
    /// connection (the first report of each connection counts as a change). On the phone it
    /// stands in for HealthKit's mirrored workout session: the watch's `workoutActive` false
    /// means it holds no workout session.
    case peerAppStateDidChange(AppState)
    /// The peer's message woke this (phone) app in the background.
    case appDidWakeInBackground
    case didReceiveMessage(IncomingMessage)
    /// The reply to our message `id`. For each message exactly one of this and `messageDidFail` comes.
    case didReceiveMessageReply(MessageID, MessagePayload)
    /// Our message `id` failed (`notReachable`, `messageReplyTimedOut`, `payloadTooLarge`…).
    case messageDidFail(MessageID, WCError)
    case didReceiveApplicationContext(PlistValue)
    /// A user-info transfer arrived. The app MUST apply it within the same commit as the
    /// session's receive log (the host guarantees this): exactly once, in order.
    /// `isComplication` is true for complication user info tagged current.
    case didReceiveUserInfo(PlistValue, isComplication: Bool)
    case didFinishUserInfoTransfer(UserInfoTransfer, error: WCError?)
    /// A file arrived, verified; see `ReceivedFile`.
    case didReceiveFile(ReceivedFile)
    case didFinishFileTransfer(FileTransfer, error: WCError?)
    /// The authenticated peer connection came up (`true`) or went away (`false`).
    case linkDidChange(up: Bool)
}

/// A file operation the session asks its shell to carry out at once (paths relative to the
/// node's file root).
public enum FileOperation: Sendable, Equatable {
    /// Write `bytes` at `offset`, creating the file when needed.
    case write(path: String, offset: Int64, bytes: ArraySlice<UInt8>)
    /// Cut (or create) the file to `sizeBytes`.
    case truncate(path: String, sizeBytes: Int64)
    /// Make the file's content durable (fsync) before the next commit.
    case sync(path: String)
    /// Rename a file (the shell creates missing directories).
    case move(from: String, to: String)
    /// Delete the file if it exists.
    case remove(path: String)
    /// Measure a file to send; answer with `LinkSession.onFileMeasured` (or `onFileReadFailed`).
    case measure(number: UInt64, path: String)
    /// Hash the file and answer with `LinkSession.onFileVerified(number:matches:now:)`.
    case verify(number: UInt64, path: String, sha256: [UInt8])
}

/// What the session asks its shell to do, in order.
///
/// Ordering contract (persist before send): a `.send` (and `.sendFileChunk`, `.sendFileEnd`)
/// MUST NOT reach the wire before every `.persist` of the same entry point is committed, the
/// ones after it in the list included: the meta row with `highestSeqSent` and
/// `highestFileSent`, which a user info or an offer depends on, is appended once per entry
/// point, by `drainActions`, after the frames (`NodeEngine.finish` commits an entry point's
/// batch, then releases its frames). The app's handling of a
/// `.deliver` is committed with the next `.persist`; `.file` operations are carried out at
/// once, before that commit.
public enum LinkAction: Sendable, Equatable {
    case send(ConnectionID, Frame)
    /// From here on, frames on the connection are sealed and received records opened with
    /// these keys (the handshake's `Split()`): frames sent before this action go in the clear.
    case startSealing(ConnectionID, TransportKeys)
    /// Read `count` bytes at `offset` of `path` and send them as a `fileChunk` frame for
    /// transfer `number` (on a read error, call `onFileReadFailed`).
    case sendFileChunk(ConnectionID, number: UInt64, path: String, offset: Int64, count: Int)
    /// Send `fileEnd` for transfer `number`: the SHA-256 of the `sizeBytes` of `path` (the
    /// shell hashes the chunks as it sends them; on a read error, call `onFileReadFailed`).
    case sendFileEnd(ConnectionID, number: UInt64, path: String, sizeBytes: Int64)
    /// Close the connection after sending what is queued for it.
    case close(ConnectionID, reason: String)
    case persist(WriteBatch)
    case deliver(LinkEvent)
    case file(FileOperation)
    case log(LogLevel, String)
}

/// Paths of the node's files, relative to its file root.
public enum NodeFilePath {
    /// Rejects empty and absolute paths and `..` (neither the app nor a peer reaches a file
    /// outside the root).
    public static func isInsideRoot(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains("..")
    }
}
