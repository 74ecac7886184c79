import Foundation
import PeerLinkCore

/// `WCSessionActivationState`, Apple's raw values.
@objc public enum WCSessionActivationState: Int, Sendable {
    case notActivated = 0
    case inactive = 1
    case activated = 2
}

/// `WCSessionFile`: a received file (at `fileURL`, in the session's inbox until
/// `session(_:didReceive:)` returns), or the file of an outgoing transfer.
open class WCSessionFile: NSObject, @unchecked Sendable {
    /// Where the file is. For a received file, a URL in the session's inbox directory: move
    /// the file elsewhere inside `session(_:didReceive:)` to keep it.
    open private(set) var fileURL: URL
    open private(set) var metadata: [String: Any]?

    init(fileURL: URL, metadata: [String: Any]?) {
        self.fileURL = fileURL
        self.metadata = metadata
    }
}

/// `WCSessionUserInfoTransfer`: one `transferUserInfo` or `transferCurrentComplicationUserInfo`.
open class WCSessionUserInfoTransfer: NSObject, @unchecked Sendable {
    open private(set) var userInfo: [String: Any]
    let host: WCSessionHost
    /// The core's id (`u<seq>`); nil until a call made outside an event was carried out, or
    /// when the call failed.
    var id: String?
    var complication: Bool
    var finished = false

    init(userInfo: [String: Any], complication: Bool, host: WCSessionHost) {
        self.userInfo = userInfo
        self.complication = complication
        self.host = host
    }

    /// While queued: true for the newest queued `transferCurrentComplicationUserInfo`. Once
    /// delivered, failed or cancelled (in `didFinish`): true when it went as complication user
    /// info, as Apple's is for a transfer started with `transferCurrentComplicationUserInfo`.
    /// One past the daily budget is ordinary user info, and false here.
    open var isCurrentComplicationInfo: Bool {
        guard let id else { return false }
        if let queued = host.state.outstandingUserInfo.first(where: { $0.id == id }) { return queued.isCurrentComplicationInfo }
        return complication
    }

    /// True until the transfer is delivered, cancelled or failed (PeerLink: while it is among
    /// `outstandingUserInfoTransfers`).
    open var isTransferring: Bool {
        guard !finished else { return false }
        guard let id else { return true }
        return host.state.outstandingUserInfo.contains { $0.id == id }
    }

    /// Cancels the transfer if it was not delivered yet; no `didFinish` follows.
    open func cancel() {
        host.perform { [self] ctx in
            guard let id, let t = ctx.outstandingUserInfoTransfers.first(where: { $0.id == id }) else { return }
            ctx.cancel(t)
            finished = true
            host.userInfoTransfers[id] = nil
        }
    }
}

/// `WCSessionFileTransfer`: one `transferFile(_:metadata:)`.
open class WCSessionFileTransfer: NSObject, @unchecked Sendable {
    open private(set) var file: WCSessionFile
    /// Bytes acknowledged by the receiver of `totalUnitCount` (the file's size), updated after
    /// every event of the node; complete once delivered.
    open private(set) var progress: Progress
    let host: WCSessionHost
    var id: String?
    /// The copy the core sends, relative to the node's file root.
    var corePath: String?
    var finished = false

    init(file: WCSessionFile, sizeBytes: Int64, host: WCSessionHost) {
        self.file = file
        self.progress = Progress(totalUnitCount: sizeBytes)
        self.host = host
    }

    /// True until the transfer is delivered, cancelled or failed.
    open var isTransferring: Bool {
        guard !finished else { return false }
        guard let id else { return true }
        return host.state.outstandingFiles.contains { $0.id == id }
    }

    /// Cancels the transfer; no `didFinish` follows.
    open func cancel() {
        host.perform { [self] ctx in
            guard let id, let t = ctx.outstandingFileTransfers.first(where: { $0.id == id }) else { return }
            ctx.cancel(t)
            finished = true
            host.fileTransfers[id] = nil
            host.removeOutgoingCopy(self, &ctx)
        }
    }

    /// Follows the core's transfer. Its size is -1 until the core has measured the file: the
    /// total then stays the size read at `transferFile`. A total is never set back to 0 from
    /// another value (swift-corelibs-foundation's `Progress` traps on that).
    func noteProgress(_ t: FileTransfer) {
        if t.sizeBytes > 0, t.sizeBytes != progress.totalUnitCount { progress.totalUnitCount = t.sizeBytes }
        let total = max(progress.totalUnitCount, 0)
        progress.completedUnitCount = t.isDelivered ? total : min(max(t.acknowledgedBytes, 0), total)
    }
}
