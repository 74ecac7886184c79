
/// The app-facing WatchConnectivity API, with `WCSession`'s names.
///
/// Calls take the node's clock from the session (the monotonic time of the current event);
/// outcomes that Apple reports through handlers arrive as `LinkEvent`s in
/// `NodeApp.onLinkEvent`: a message's reply or error, a transfer's `didFinish`, received
/// messages, contexts, user info and files.
extension NodeContext {
    // MARK: - State

    /// `activationState`.
    public var activationState: ActivationState { session.activationState }
    /// `isPaired`.
    public var isPaired: Bool { session.isPaired }
    /// `isWatchAppInstalled` (phone).
    public var isWatchAppInstalled: Bool { session.isWatchAppInstalled }
    /// `isComplicationEnabled` (phone).
    public var isComplicationEnabled: Bool { session.isComplicationEnabled }
    /// `isReachable`.
    public var isReachable: Bool { session.isReachable }
    /// `hasContentPending`.
    public var hasContentPending: Bool { session.hasContentPending }

    /// `activate()` (again, after `sessionDidDeactivate`).
    public mutating func activate() { session.activate() }

    // MARK: - Messages

    /// `sendMessage(_:replyHandler:errorHandler:)`: the reply or the error comes as
    /// `.didReceiveMessageReply(id, …)` / `.messageDidFail(id, …)` (exactly one when
    /// `replyExpected`).
    @discardableResult
    public mutating func sendMessage(_ message: PlistValue, replyExpected: Bool = true) -> MessageID {
        session.sendMessage(message, replyExpected: replyExpected, now: session.clockMs)
    }

    /// `sendMessage(_:replyExpected:)` of a dictionary `message` whose canonical encoding the
    /// app already has (kept up to date as the message changes, say): `canonicalBytes` MUST
    /// equal `CanonicalEncoding.encode(message)` (asserted in debug builds; release builds
    /// trust it). The message is not encoded again; the id, the frame and every outcome are
    /// those of `sendMessage(message, replyExpected:)`.
    @discardableResult
    public mutating func sendMessage(_ message: PlistValue, canonicalBytes: [UInt8], replyExpected: Bool = true) -> MessageID {
        session.sendMessage(message, canonicalBytes: canonicalBytes, replyExpected: replyExpected, now: session.clockMs)
    }

    /// `sendMessage` with an untyped dictionary (as `[String: Any]`): a value that is not a
    /// property-list type fails with `payloadUnsupportedTypes`.
    @discardableResult
    public mutating func sendMessage(any message: [String: Any], replyExpected: Bool = true) -> MessageID {
        do {
            return sendMessage(try PlistValue(any: message), replyExpected: replyExpected)
        } catch let e as UnsupportedPayloadType {
            return session.failNewMessage(WCError(unsupported: e))
        } catch {
            return session.failNewMessage(WCError(.genericError, "\(error)"))
        }
    }

    /// `sendMessageData(_:replyHandler:errorHandler:)`.
    @discardableResult
    public mutating func sendMessageData(_ data: [UInt8], replyExpected: Bool = true) -> MessageID {
        session.sendMessageData(data, replyExpected: replyExpected, now: session.clockMs)
    }

    /// `sendMessage` with its own reply timeout (`replyTimeoutMs` overrides the session's).
    /// The reply or the error comes to `onLinkEvent` like any other's.
    @discardableResult
    public mutating func sendMessage(_ message: PlistValue, replyExpected: Bool, replyTimeoutMs: Int64?) -> MessageID {
        session.sendMessage(message, replyExpected: replyExpected, replyTimeoutMs: replyTimeoutMs, now: session.clockMs)
    }

    /// The reply handler of a received message (`IncomingMessage.replyExpected`).
    @discardableResult
    public mutating func replyToMessage(_ id: MessageID, with reply: MessagePayload) -> Result<Void, WCError> {
        if repliesWithheld {
            log(.info, "reply to message \(id) withheld (wc replies withhold)")
            return .success(())
        }
        return session.replyToMessage(id, with: reply)
    }

    // MARK: - Application context

    /// `applicationContext`.
    public var applicationContext: [String: PlistValue] { session.applicationContext }
    /// `receivedApplicationContext`.
    public var receivedApplicationContext: [String: PlistValue] { session.receivedApplicationContext }

    /// `updateApplicationContext(_:)`.
    public mutating func updateApplicationContext(_ context: PlistValue) -> Result<Void, WCError> {
        noted(session.updateApplicationContext(context, now: session.clockMs), subject: "context")
    }

    /// `updateApplicationContext(_:)` with an untyped dictionary.
    public mutating func updateApplicationContext(any context: [String: Any]) -> Result<Void, WCError> {
        do { return updateApplicationContext(try PlistValue(any: context)) } catch let e as UnsupportedPayloadType {
            return .failure(WCError(unsupported: e))
        } catch { return .failure(WCError(.genericError, "\(error)")) }
    }

    // MARK: - User info

    /// `transferUserInfo(_:)` with an untyped dictionary.
    public mutating func transferUserInfo(any info: [String: Any]) -> Result<UserInfoTransfer, WCError> {
        do { return transferUserInfo(try PlistValue(any: info)) } catch let e as UnsupportedPayloadType {
            return .failure(WCError(unsupported: e))
        } catch { return .failure(WCError(.genericError, "\(error)")) }
    }

    /// The user-info key of the replica's own deltas (the node's sync machinery, not the app's).
    public static let replicaSyncKey = "peerlink.sync"

    /// `outstandingUserInfoTransfers`: the app's own transfers (the replica's deltas, which
    /// share the channel, are neither listed nor cancellable).
    public var outstandingUserInfoTransfers: [UserInfoTransfer] {
        session.outstandingUserInfoTransfers.filter { $0.userInfo[Self.replicaSyncKey] == nil }
    }

    /// `WCSessionUserInfoTransfer.cancel()` (also `transfer.cancel(in: &ctx)`).
    @discardableResult
    public mutating func cancel(_ transfer: UserInfoTransfer) -> Bool {
        guard transfer.userInfo[Self.replicaSyncKey] == nil else { return false }
        return session.cancelUserInfo(id: transfer.id)
    }

    /// `transferCurrentComplicationUserInfo(_:)` (phone): the budget counts per day of the
    /// device's local calendar.
    public mutating func transferCurrentComplicationUserInfo(_ info: PlistValue) -> Result<UserInfoTransfer, WCError> {
        let r = noted(session.transferCurrentComplicationUserInfo(info, localDay: calendar.civilDate(now), now: session.clockMs),
                      subject: "complication")
        if case .success(let t) = r, t.isCurrentComplicationInfo {
            DeliveryRecords.complicationWrite(info, sent: true, atMs: session.clockMs, into: &batch)
        }
        return r
    }

    /// `remainingComplicationUserInfoTransfers` today (local calendar).
    public var remainingComplicationUserInfoTransfers: Int {
        session.remainingComplicationUserInfoTransfers(localDay: calendar.civilDate(now))
    }

    // MARK: - Files

    /// `transferFile(_:metadata:)`: `path` is relative to the node's file root.
    public mutating func transferFile(_ path: String, metadata: PlistValue?) -> Result<FileTransfer, WCError> {
        noted(session.transferFile(path: path, metadata: metadata, now: session.clockMs), subject: "file")
    }

    /// `outstandingFileTransfers`.
    public var outstandingFileTransfers: [FileTransfer] { session.outstandingFileTransfers }

    /// `WCSessionFileTransfer.cancel()` (also `transfer.cancel(in: &ctx)`).
    @discardableResult
    public mutating func cancel(_ transfer: FileTransfer) -> Bool { session.cancelFile(id: transfer.id) }

    /// Keeps a received file: call from the `.didReceiveFile` callback, or the file is deleted.
    @discardableResult
    public mutating func moveReceivedFile(_ file: ReceivedFile, to path: String) -> Result<Void, WCError> {
        session.moveReceivedFile(file, to: path)
    }
}

extension UserInfoTransfer {
    /// `cancel()`: a transfer is a value here, so it is cancelled in the session that made it.
    /// See `LinkSession.cancelUserInfo(id:)` for what happens to one already on the wire.
    @discardableResult
    public func cancel(in ctx: inout NodeContext) -> Bool { ctx.cancel(self) }
}

extension FileTransfer {
    /// `cancel()`: a transfer is a value here, so it is cancelled in the session that made it.
    /// See `LinkSession.cancelFile(id:)` for what happens once its end went out.
    @discardableResult
    public func cancel(in ctx: inout NodeContext) -> Bool { ctx.cancel(self) }
}
