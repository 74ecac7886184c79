
/// The session's side of live messages (`MessageChannel` holds their state): readiness and
/// reachability, whether the app takes a message (the watch app must be in the foreground; a
/// message wakes the phone app), and the liveness bookkeeping of what the channel sent.
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

    /// `sendMessage(_:replyExpected:replyTimeoutMs:now:)` of a dictionary `message` whose
    /// canonical encoding the caller already has: `canonicalBytes` MUST equal
    /// `CanonicalEncoding.encode(message)` (asserted: debug builds and tests check it, release
    /// builds trust it). The message is not encoded again: the frame carries `canonicalBytes`
    /// and the payload limit measures their count. Ids, frames, decisions and failure events
    /// (readiness, `payloadUnsupportedTypes`, `payloadTooLarge`, `notReachable`) are exactly
    /// those of `sendMessage(message, …)`.
    @discardableResult
    public mutating func sendMessage(_ message: PlistValue, canonicalBytes: [UInt8], replyExpected: Bool = true,
                                     replyTimeoutMs: Int64? = nil, now: EpochMs) -> MessageID {
        assert(CanonicalEncoding.encode(message) == canonicalBytes, "canonicalBytes are not the message's canonical encoding")
        guard case .dictionary = message else {
            return failNewMessage(WCError(.payloadUnsupportedTypes, "a message must be a dictionary"))
        }
        if let e = readinessError() { return failNewMessage(e) }
        let mark = out.count
        let id = messages.send(canonicalDictionary: canonicalBytes, replyExpected: replyExpected, replyTimeoutMs: replyTimeoutMs,
                               on: isReachable ? connections.activeID : nil, now: now, out: &out.messages)
        noteSends(since: mark)
        return id
    }

    /// `sendMessageData(_:replyHandler:errorHandler:)`.
    @discardableResult
    public mutating func sendMessageData(_ data: [UInt8], replyExpected: Bool = true, now: EpochMs) -> MessageID {
        sendLiveMessage(.data(data), replyExpected: replyExpected, now: now)
    }

    /// A message that failed before it was sent: a fresh id and its failure event.
    mutating func failNewMessage(_ error: WCError) -> MessageID {
        messages.fail(error, out: &out.messages)
    }

    mutating func sendLiveMessage(_ payload: MessagePayload, replyExpected: Bool, replyTimeoutMs: Int64? = nil, now: EpochMs) -> MessageID {
        if let e = readinessError() { return failNewMessage(e) }
        let mark = out.count
        let id = messages.send(payload, replyExpected: replyExpected, replyTimeoutMs: replyTimeoutMs,
                               on: isReachable ? connections.activeID : nil, now: now, out: &out.messages)
        noteSends(since: mark)
        return id
    }

    /// Answers the peer's message `id` (the reply handler). Fails when no such message awaits
    /// a reply (`invalidParameter`), the reply is too large (`payloadTooLarge`; the sender then
    /// gets `messageReplyFailed`), or the link it came on is gone (`notReachable`).
    public mutating func replyToMessage(_ id: MessageID, with reply: MessagePayload) -> Result<Void, WCError> {
        let mark = out.count
        defer { noteSends(since: mark) }
        return messages.reply(to: id, with: reply, activeID: connections.activeID, out: &out.messages)
    }

    /// Ids of the peer's messages the app has not answered yet.
    public var messagesAwaitingReply: [MessageID] { messages.awaitingReply.keys.sorted() }

    /// The id the next message will get.
    var nextMessageID: MessageID { messages.nextMessageID }

    /// Our messages awaiting a reply or receipt, in id order.
    var pendingMessages: [PendingMessage] { messages.pending }

    // MARK: - Receiving

    mutating func onMessageFrame(_ id: ConnectionID, _ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let (m, payload) = try messages.decodeMessage(frame)
        guard connections.activeID != nil else { return }
        let mark = out.count
        let arrival = messages.receive(m, on: id, out: &out.messages)
        noteSends(since: mark)
        switch arrival {
        case .duplicate: return
        case .outOfOrder:
            stats.messagesDroppedOutOfOrder += 1
            return
        case .fresh: break
        }
        guard activationState == .activated else {
            return refuseMessage(m.id, WCError(.sessionNotActivated, "the \(config.role) session is not activated"), on: id)
        }
        switch config.role {
        case .watch:
            // A phone message does not wake the watch app.
            guard localAppState.watchAppReachable else { return refuseMessage(m.id, WCError(.notReachable, "the watch app is not in the foreground"), on: id) }
        case .phone:
            wakeApp()
        }
        stats.messagesDelivered += 1
        let mark2 = out.count
        messages.deliver(m, payload, on: id, out: &out.messages)
        noteSends(since: mark2)
    }

    mutating func refuseMessage(_ m: MessageID, _ error: WCError, on id: ConnectionID) {
        let mark = out.count
        messages.refuse(m, error, on: id, out: &out.messages)
        noteSends(since: mark)
    }

    mutating func onMessageReply(_ id: ConnectionID, _ frame: Frame) throws(ByteReaderError) {
        try messages.onReply(frame, on: id, out: &out.messages)
    }

    mutating func onMessageError(_ id: ConnectionID, _ frame: Frame) throws(ByteReaderError) {
        try messages.onError(frame, on: id, out: &out.messages)
    }

    // MARK: - Failure

    /// Fails the pending messages (of `connection`, or all when nil).
    mutating func failPendingMessages(_ error: WCError, connection: ConnectionID?) {
        messages.failPending(error, connection: connection, out: &out.messages)
    }

    /// Fails the messages whose reply time is over.
    mutating func expireMessages(now: EpochMs) {
        messages.expire(now: now, out: &out.messages)
    }
}
