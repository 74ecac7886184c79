
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

    /// `sendMessage(_:replyHandler:errorHandler:)` with handlers: exactly one of them is
    /// called, later, in its own event (never inside this call), with the context of that
    /// event; the app's `onLinkEvent` then gets neither `didReceiveMessageReply` nor
    /// `messageDidFail` for this message. A nil `reply` sends without expecting a reply
    /// (`error` is then called only if it fails). Handlers are not durable: a node that is
    /// killed forgets them, as it forgets the message.
    /// `replyTimeoutMs` overrides the session's reply timeout for this message.
    @discardableResult
    public mutating func sendMessage(_ message: PlistValue, replyTimeoutMs: Int64? = nil, reply: MessageHandlers.Reply?,
                                     error: @escaping MessageHandlers.Failure) -> MessageID {
        let id = session.sendMessage(message, replyExpected: reply != nil, replyTimeoutMs: replyTimeoutMs, now: session.clockMs)
        messageHandlers[id] = MessageHandlers(reply: reply, error: error)
        return id
    }

    /// `sendMessageData(_:replyHandler:errorHandler:)` with handlers (as `sendMessage(_:reply:error:)`).
    @discardableResult
    public mutating func sendMessageData(_ data: [UInt8], reply: MessageHandlers.Reply?, error: @escaping MessageHandlers.Failure) -> MessageID {
        let id = sendMessageData(data, replyExpected: reply != nil)
        messageHandlers[id] = MessageHandlers(reply: reply, error: error)
        return id
    }

    /// Calls the handler of message `event` refers to, if it was sent with handlers; returns
    /// false when the event is for the app's `onLinkEvent`.
    mutating func handleMessageOutcome(_ event: LinkEvent) -> Bool {
        switch event {
        case .didReceiveMessageReply(let id, let payload):
            guard let h = messageHandlers.removeValue(forKey: id) else { return false }
            h.reply?(payload, &self)
        case .messageDidFail(let id, let e):
            guard let h = messageHandlers.removeValue(forKey: id) else { return false }
            h.error(e, &self)
        default:
            return false
        }
        return true
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

/// The reply and error handlers of one message (`sendMessage(_:reply:error:)`).
public struct MessageHandlers: Sendable {
    public typealias Reply = @Sendable (MessagePayload, inout NodeContext) -> Void
    public typealias Failure = @Sendable (WCError, inout NodeContext) -> Void
    let reply: Reply?
    let error: Failure
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
