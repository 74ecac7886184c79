import Foundation
import PeerLinkCore

extension WCSession {
    // MARK: - User info

    /// Queues `userInfo` for guaranteed delivery, in order, exactly once (also after either
    /// app exits). Failures come to `session(_:didFinish:error:)`.
    @discardableResult
    public func transferUserInfo(_ userInfo: [String: Any] = [:]) -> WCSessionUserInfoTransfer {
        let t = WCSessionUserInfoTransfer(userInfo: userInfo, complication: false, host: host)
        host.perform { [host] ctx in host.start(t, &ctx) }
        return t
    }

    /// iOS: user info for the watch's complication, sent ahead of ordinary user info while the
    /// day's budget lasts (`remainingComplicationUserInfoTransfers`, 50 a day); past it, an
    /// ordinary user-info transfer. Fails when the complication is not on the active face.
    @discardableResult
    public func transferCurrentComplicationUserInfo(_ userInfo: [String: Any] = [:]) -> WCSessionUserInfoTransfer {
        let t = WCSessionUserInfoTransfer(userInfo: userInfo, complication: true, host: host)
        host.perform { [host] ctx in host.start(t, &ctx) }
        return t
    }

    /// iOS: complication transfers left today (the device's local day); 0 on the watch.
    public var remainingComplicationUserInfoTransfers: Int { host.state.remainingComplication }

    /// Transfers not yet delivered, cancelled or failed, oldest first.
    public var outstandingUserInfoTransfers: [WCSessionUserInfoTransfer] {
        host.state.outstandingUserInfo.map(host.userInfoObject)
    }

    // MARK: - Files

    /// Queues the file at `file` (read now: PeerLink sends the content it had at this call)
    /// with `metadata`. Failures come to `session(_:didFinish:error:)`.
    @discardableResult
    public func transferFile(_ file: URL, metadata: [String: Any]?) -> WCSessionFileTransfer {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        let t = WCSessionFileTransfer(file: WCSessionFile(fileURL: file, metadata: metadata), sizeBytes: size, host: host)
        host.perform { [host] ctx in host.start(t, &ctx) }
        return t
    }

    /// File transfers not yet delivered, cancelled or failed, oldest first.
    public var outstandingFileTransfers: [WCSessionFileTransfer] {
        host.state.outstandingFiles.map(host.fileObject)
    }
}
