
/// `sendMessage` / `sendMessageData`: live, only between two running apps, in order.
///
/// Every call returns a `MessageID` at once; its outcome comes later as events: exactly one
/// of `didReceiveMessageReply` and `messageDidFail` for a message that expects a reply, and
/// for one that does not, `messageDidFail` only if it fails. Validation failures
/// (`payloadTooLarge`, `payloadUnsupportedTypes`, `notReachable`…) are reported the same way,
/// and nothing is put on the wire for them.
///
/// Order: message ids grow; the receiver delivers a message only if its id is above every
/// id it delivered on the connection, so a message overtaken in transit is refused with
/// `deliveryFailed` instead of being delivered late.
extension LinkSession {
    // MARK: - API

    /// `sendMessage(_:replyHandler:errorHandler:)` with a dictionary payload. `replyTimeoutMs`
    /// overrides the configured reply timeout for this message (nil: `messageReplyTimeoutMs`).
    @discardableResult
    public mutating func sendMessage(_ message: PlistValue, replyExpected: Bool = true, replyTimeoutMs: Int64? = nil, now: EpochMs) -> MessageID {
        guard case .dictionary(let d) = message else {
            return failNewMessage(WCError(.payloadUnsupportedTypes, "a message must be a dictionary"))
        }
        return sendLiveMessage(.dictionary(d), replyExpected: replyExpected, replyTimeoutMs: replyTimeoutMs, now: now)
    }

    /// `sendMessageData(_:replyHandler:errorHandler:)`.
    @discardableResult
    public mutating func sendMessageData(_ data: [UInt8], replyExpected: Bool = true, now: EpochMs) -> MessageID {
        sendLiveMessage(.data(data), replyExpected: replyExpected, now: now)
    }

    /// A message that failed before it was sent: a fresh id and its failure event.
    mutating func failNewMessage(_ error: WCError) -> MessageID {
        let id = nextMessageID
        nextMessageID += 1
        out.deliver(.messageDidFail(id, error))
        return id
    }

    /// The canonical size of a message payload, as the limit measures it.
    static func payloadSize(_ p: MessagePayload) -> Int {
        switch p {
        case .dictionary(let d): CanonicalEncoding.encodedSize(.dictionary(d))
        case .data(let b): CanonicalEncoding.encodedSize(.data(b))
        }
    }

    mutating func sendLiveMessage(_ payload: MessagePayload, replyExpected: Bool, replyTimeoutMs: Int64? = nil, now: EpochMs) -> MessageID {
        if let e = readinessError() { return failNewMessage(e) }
        let size = Self.payloadSize(payload)
        guard size <= PayloadLimits.messageBytes else {
            return failNewMessage(WCError(.payloadTooLarge, "message is \(size) bytes; the limit is \(PayloadLimits.messageBytes)"))
        }
        guard isReachable, let conn = active?.id else {
            return failNewMessage(WCError(.notReachable, "the \(config.role.peer) app is not reachable"))
        }
        let id = nextMessageID
        nextMessageID += 1
        send(conn, Frame(.message, FrameBodies.Message(id: id, payload: payload, replyExpected: replyExpected).encode()))
        let timeoutMs = max(1, replyTimeoutMs ?? config.messageReplyTimeoutMs)
        pendingMessages.append(PendingMessage(id: id, connection: conn, deadlineMs: now + timeoutMs, replyExpected: replyExpected, timeoutMs: timeoutMs))
        return id
    }

    /// Answers the peer's message `id` (the reply handler). Fails when no such message awaits
    /// a reply (`invalidParameter`), the reply is too large (`payloadTooLarge`; the sender then
    /// gets `messageReplyFailed`), or the link it came on is gone (`notReachable`).
    public mutating func replyToMessage(_ id: MessageID, with reply: MessagePayload) -> Result<Void, WCError> {
        guard let conn = awaitingReply.removeValue(forKey: id) else {
            return .failure(WCError(.invalidParameter, "message \(id) awaits no reply"))
        }
        guard active?.id == conn else { return .failure(WCError(.notReachable, "the link the message came on is gone")) }
        let size = Self.payloadSize(reply)
        guard size <= PayloadLimits.messageBytes else {
            let e = WCError(.messageReplyFailed, "the reply was \(size) bytes; the limit is \(PayloadLimits.messageBytes)")
            send(conn, Frame(.messageError, FrameBodies.MessageError(id: id, error: e).encode()))
            return .failure(WCError(.payloadTooLarge, e.reason))
        }
        send(conn, Frame(.messageReply, FrameBodies.Message(id: id, payload: reply, replyExpected: false).encode()))
        return .success(())
    }

    /// Ids of the peer's messages the app has not answered yet.
    public var messagesAwaitingReply: [MessageID] { awaitingReply.keys.sorted() }

    // MARK: - Receiving

    mutating func onMessageFrame(_ id: ConnectionID, _ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let m = try FrameBodies.Message.decode(frame.body)
        guard let payload = m.payload else { throw .malformed("a message without payload") }
        try PayloadLimits.enforce("a message", bytes: Self.payloadSize(payload), limit: PayloadLimits.messageBytes)
        guard active?.id != nil else { return }
        if active!.recentMessageIDs.contains(m.id) { return }  // a duplicate: its first copy was handled
        func refuseMessage(_ e: WCError) {
            send(id, Frame(.messageError, FrameBodies.MessageError(id: m.id, error: e).encode()))
        }
        guard m.id > active!.highestMessageReceived else {
            stats.messagesDroppedOutOfOrder += 1
            return refuseMessage(WCError(.deliveryFailed, "message \(m.id) arrived after message \(active!.highestMessageReceived)"))
        }
        // In place: a copy of the connection would copy its list of recent ids to append one.
        active!.highestMessageReceived = m.id
        active!.recentMessageIDs.append(m.id)
        if active!.recentMessageIDs.count > config.recentMessageIDsKept { active!.recentMessageIDs.removeFirst() }
        guard activationState == .activated else { return refuseMessage(WCError(.sessionNotActivated, "the \(config.role) session is not activated")) }
        switch config.role {
        case .watch:
            // A phone message does not wake the watch app.
            guard localAppState.watchAppReachable else { return refuseMessage(WCError(.notReachable, "the watch app is not in the foreground")) }
        case .phone:
            wakeApp()
        }
        stats.messagesDelivered += 1
        if m.replyExpected {
            awaitingReply[m.id] = id
        } else {
            send(id, Frame(.messageReply, FrameBodies.Message(id: m.id, payload: nil, replyExpected: false).encode()))
        }
        out.deliver(.didReceiveMessage(IncomingMessage(id: m.id, payload: payload, replyExpected: m.replyExpected)))
    }

    mutating func onMessageReply(_ id: ConnectionID, _ frame: Frame) throws(ByteReaderError) {
        let m = try FrameBodies.Message.decode(frame.body)
        if let p = m.payload { try PayloadLimits.enforce("a message reply", bytes: Self.payloadSize(p), limit: PayloadLimits.messageBytes) }
        guard let i = pendingMessages.firstIndex(where: { $0.id == m.id && $0.connection == id }) else { return }  // late or duplicate
        let pending = pendingMessages.remove(at: i)
        switch (pending.replyExpected, m.payload) {
        case (true, let p?): out.deliver(.didReceiveMessageReply(m.id, p))
        case (true, nil): out.deliver(.messageDidFail(m.id, WCError(.messageReplyFailed, "the peer sent no reply")))
        case (false, _): break  // the receipt: delivered, nothing to report
        }
    }

    mutating func onMessageError(_ id: ConnectionID, _ frame: Frame) throws(ByteReaderError) {
        let m = try FrameBodies.MessageError.decode(frame.body)
        guard let i = pendingMessages.firstIndex(where: { $0.id == m.id && $0.connection == id }) else { return }
        pendingMessages.remove(at: i)
        out.deliver(.messageDidFail(m.id, m.error))
    }

    // MARK: - Failure

    /// Fails the pending messages (of `connection`, or all when nil).
    mutating func failPendingMessages(_ error: WCError, connection: ConnectionID?) {
        let failing = pendingMessages.filter { connection == nil || $0.connection == connection }
        pendingMessages.removeAll { connection == nil || $0.connection == connection }
        for m in failing { out.deliver(.messageDidFail(m.id, error)) }
    }

    /// Fails the messages whose reply time is over.
    mutating func expireMessages(now: EpochMs) {
        let expired = pendingMessages.filter { $0.deadlineMs <= now }
        guard !expired.isEmpty else { return }
        pendingMessages.removeAll { $0.deadlineMs <= now }
        for m in expired {
            let e = m.replyExpected
                ? WCError(.messageReplyTimedOut, "no reply within \(m.timeoutMs) ms")
                : WCError(.deliveryFailed, "no receipt within \(m.timeoutMs) ms")
            out.deliver(.messageDidFail(m.id, e))
        }
    }
}
