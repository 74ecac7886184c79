import Shared

/// Identifies one transport connection of a node (the shell numbers them).
public typealias ConnectionID = Int

/// `WCSessionActivationState`.
public enum ActivationState: String, Sendable, Equatable {
    case notActivated, inactive, activated
}

/// How a log line is classed.
public enum LogLevel: String, Sendable, Equatable {
    case debug, info, warning, error
}

/// A user-info transfer as the sender sees it (`WCSessionUserInfoTransfer`).
public struct UserInfoTransfer: Sendable, Equatable {
    /// Unique on this node: `u<seq>` (the outbox sequence number).
    public var id: String
    public var seq: UInt64
    public var userInfo: PlistValue
    /// True for `transferCurrentComplicationUserInfo`.
    public var isCurrentComplicationInfo: Bool
    /// True while its frame is on the wire and not yet acknowledged.
    public var isTransferring: Bool
}

/// A delegate callback (`WCSessionDelegate`), delivered in order on the node's one loop.
public enum LinkEvent: Sendable, Equatable {
    case activationDidComplete(ActivationState)
    case sessionDidBecomeInactive
    case sessionDidDeactivate
    case reachabilityDidChange(Bool)
    case watchStateDidChange
    /// A user-info transfer arrived. The app MUST apply it within the same commit as the
    /// session's receive log (the host guarantees this): exactly once, in order.
    case didReceiveUserInfo(PlistValue, isComplication: Bool)
    case didFinishUserInfoTransfer(UserInfoTransfer, error: WCError?)
    /// The authenticated peer connection came up (`true`) or went away (`false`).
    case linkDidChange(up: Bool)
}

/// What the session asks its shell to do, in order.
///
/// Ordering contract: a `.send` MUST NOT reach the wire before every `.persist` that precedes
/// it is committed; the app's handling of a `.deliver` is committed with the next `.persist`.
public enum LinkAction: Sendable, Equatable {
    case send(ConnectionID, Frame)
    /// Close the connection after sending what is queued for it.
    case close(ConnectionID, reason: String)
    case persist(WriteBatch)
    case deliver(LinkEvent)
    case log(LogLevel, String)
}
