import Foundation

/// `WCSessionDelegate`, with Apple's method signatures. Calls come one at a time, in the order
/// the session produced them, on the node's one queue (in the simulator: inside the event of
/// the simulation that caused them).
///
/// Apple's optional methods are requirements here with empty default implementations (Swift
/// on Linux has no `@objc optional`), so an implementation is found by ordinary dynamic
/// dispatch. `sessionDidBecomeInactive` and `sessionDidDeactivate` are iOS-only at Apple and
/// required there; here they exist on every platform (with empty defaults). Write them under
/// `#if os(iOS) || !canImport(WatchConnectivity)`, so that they compile for iOS and for PeerLink
/// on Linux, and are left out of the watchOS build (docs/WATCHCONNECTIVITY.md).
public protocol WCSessionDelegate: NSObjectProtocol {
    /// Activation finished (`activate()`): `activationState` says how; `error` why not.
    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?)
    /// iOS: the session is switching to another watch; no more sending until it is active again.
    func sessionDidBecomeInactive(_ session: WCSession)
    /// iOS: the switch is over; call `activate()` again to talk to the new watch.
    func sessionDidDeactivate(_ session: WCSession)
    /// iOS: `isPaired`, `isWatchAppInstalled`, `isComplicationEnabled` or `watchDirectoryURL` changed.
    func sessionWatchStateDidChange(_ session: WCSession)
    /// watchOS: `isCompanionAppInstalled` changed.
    func sessionCompanionAppInstalledDidChange(_ session: WCSession)
    /// `isReachable` changed.
    func sessionReachabilityDidChange(_ session: WCSession)
    /// A message that expects no reply.
    func session(_ session: WCSession, didReceiveMessage message: [String: Any])
    /// A message that expects a reply: call `replyHandler` once (here or later).
    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void)
    func session(_ session: WCSession, didReceiveMessageData messageData: Data)
    func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void)
    /// The counterpart's latest context (an identical one is not delivered twice).
    func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any])
    /// A `transferUserInfo` (or complication user info) arrived: exactly once, in order.
    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any])
    /// Our user-info transfer was delivered (`error` nil) or failed.
    func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?)
    /// A file arrived: move it out of `file.fileURL` before returning, or it is deleted.
    func session(_ session: WCSession, didReceive file: WCSessionFile)
    /// Our file transfer was delivered (`error` nil) or failed.
    func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?)
}

extension WCSessionDelegate {
    public func sessionDidBecomeInactive(_ session: WCSession) {}
    public func sessionDidDeactivate(_ session: WCSession) {}
    public func sessionWatchStateDidChange(_ session: WCSession) {}
    public func sessionCompanionAppInstalledDidChange(_ session: WCSession) {}
    public func sessionReachabilityDidChange(_ session: WCSession) {}
    public func session(_ session: WCSession, didReceiveMessage message: [String: Any]) {}
    /// Not implemented by the delegate: the sender's message fails with `deliveryFailed`.
    public func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        session.host.unhandledDelivery = true
    }
    public func session(_ session: WCSession, didReceiveMessageData messageData: Data) {}
    /// Not implemented by the delegate: the sender's message fails with `deliveryFailed`.
    public func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void) {
        session.host.unhandledDelivery = true
    }
    public func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {}
    public func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) {}
    public func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?) {}
    public func session(_ session: WCSession, didReceive file: WCSessionFile) {}
    public func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?) {}
}
