
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
///
/// The channel keeps nothing durable. What it keeps of the link it is on (the ids received on
/// it) starts again at each `linkUp`; the session decides readiness, reachability and whether
/// the app takes a message, and gives the channel only the connection to use.
struct MessageChannel: Sendable {
    private let sharedConfig: SharedLinkConfig
    var config: LinkConfig { sharedConfig.value }
    /// The id the next message gets (unique within this session's run).
    private(set) var nextMessageID: MessageID = 1
    /// Our messages awaiting a reply or receipt, in id order.
    private(set) var pending: [PendingMessage] = []
    /// Peer messages the app has not answered yet, with the connection they came on.
    private(set) var awaitingReply: [MessageID: ConnectionID] = [:]
    /// Receiver, on the current link: the highest id delivered and the recent ids (duplicates):
    /// the last `recentMessageIDsKept` of `recentIDs`, those from `recentStart` on. The ids
    /// before it are dropped many at a time: shifting the array at every message (2 KiB)
    /// cost more than the rest of the message's bookkeeping.
    private(set) var highestReceived: MessageID = 0
    private var recentIDs: [MessageID] = []
    private var recentStart = 0
    /// The dictionary of the peer's last message, to decode the next one of the same keys
    /// with (`decodeMessage`); it changes nothing the session does.
    private var lastShape: CanonicalEncoding.DictionaryShape? = nil

    init(shared: SharedLinkConfig) { sharedConfig = shared }

    /// How a message from the peer was taken (`receive`).
    enum Arrival: Equatable {
        /// A copy of one already handled: nothing to do.
        case duplicate
        /// Overtaken in transit by a later one: refused (`deliveryFailed`).
        case outOfOrder
        /// New and in order: the session decides whether the app takes it.
        case fresh
    }

    // MARK: - Sending

    /// A message that failed before it was sent: a fresh id and its failure event.
    mutating func fail(_ error: WCError, out: inout MessageOutput) -> MessageID {
        let id = nextMessageID
        nextMessageID += 1
        out.didFail(id, error)
        return id
    }

    /// Sends `payload` on `connection` (nil: the peer app is not reachable), or fails it.
    mutating func send(_ payload: MessagePayload, replyExpected: Bool, replyTimeoutMs: Int64?, on connection: ConnectionID?,
                       now: EpochMs, out: inout MessageOutput) -> MessageID {
        // The body is encoded first and the payload measured in it: walking the dictionary
        // once more only to count its bytes cost as much as a third of the encoding.
        let id = nextMessageID
        let body = FrameBodies.Message(id: id, payload: payload, replyExpected: replyExpected).encode()
        let size = FrameBodies.Message.payloadSize(inEncoded: body, id: id, payload: payload)
        return send(body: body, payloadSize: size, replyExpected: replyExpected, replyTimeoutMs: replyTimeoutMs,
                    on: connection, now: now, out: &out)
    }

    /// `send(.dictionary(d), …)` given `canonical`, the dictionary's canonical encoding
    /// (`CanonicalEncoding.encode(.dictionary(d))`, the caller's promise): the same frame, id,
    /// decisions and failures, with the payload's bytes put in the body as they are and its
    /// size for the limit their count.
    mutating func send(canonicalDictionary canonical: [UInt8], replyExpected: Bool, replyTimeoutMs: Int64?,
                       on connection: ConnectionID?, now: EpochMs, out: inout MessageOutput) -> MessageID {
        let body = FrameBodies.Message.encode(id: nextMessageID, replyExpected: replyExpected, canonicalDictionary: canonical)
        return send(body: body, payloadSize: canonical.count, replyExpected: replyExpected, replyTimeoutMs: replyTimeoutMs,
                    on: connection, now: now, out: &out)
    }

    /// Sends the `message` frame `body` of the next id, whose payload's canonical size is
    /// `size`, on `connection`, or fails it (too large, then not reachable).
    private mutating func send(body: [UInt8], payloadSize size: Int, replyExpected: Bool, replyTimeoutMs: Int64?,
                               on connection: ConnectionID?, now: EpochMs, out: inout MessageOutput) -> MessageID {
        let id = nextMessageID
        guard size <= PayloadLimits.messageBytes else {
            return fail(WCError(.payloadTooLarge, "message is \(size) bytes; the limit is \(PayloadLimits.messageBytes)"), out: &out)
        }
        guard let conn = connection else {
            return fail(WCError(.notReachable, "the \(config.role.peer) app is not reachable"), out: &out)
        }
        nextMessageID += 1
        out.send(conn, Frame(.message, body))
        let timeoutMs = max(1, replyTimeoutMs ?? config.messageReplyTimeoutMs)
        pending.append(PendingMessage(id: id, connection: conn, deadlineMs: now + timeoutMs, replyExpected: replyExpected, timeoutMs: timeoutMs))
        return id
    }

    /// Answers the peer's message `id`; `activeID` is the link now up (the reply goes only on
    /// the one the message came on).
    mutating func reply(to id: MessageID, with reply: MessagePayload, activeID: ConnectionID?, out: inout MessageOutput) -> Result<Void, WCError> {
        guard let conn = awaitingReply.removeValue(forKey: id) else {
            return .failure(WCError(.invalidParameter, "message \(id) awaits no reply"))
        }
        guard activeID == conn else { return .failure(WCError(.notReachable, "the link the message came on is gone")) }
        let body = FrameBodies.Message(id: id, payload: reply, replyExpected: false).encode()
        let size = FrameBodies.Message.payloadSize(inEncoded: body, id: id, payload: reply)
        guard size <= PayloadLimits.messageBytes else {
            let e = WCError(.messageReplyFailed, "the reply was \(size) bytes; the limit is \(PayloadLimits.messageBytes)")
            out.send(conn, Frame(.messageError, FrameBodies.MessageError(id: id, error: e).encode()))
            return .failure(WCError(.payloadTooLarge, e.reason))
        }
        out.send(conn, Frame(.messageReply, body))
        return .success(())
    }

    /// Answers the peer's message `id` with `error` instead of a reply (the receiving app has no
    /// handler for it); false when it awaits no reply or its link (`activeID`) is gone.
    mutating func refuseAwaited(_ id: MessageID, _ error: WCError, activeID: ConnectionID?, out: inout MessageOutput) -> Bool {
        guard let conn = awaitingReply.removeValue(forKey: id) else { return false }
        guard activeID == conn else { return false }
        refuse(id, error, on: conn, out: &out)
        return true
    }

    /// The canonical size of a message payload, as the limit measures it.
    static func payloadSize(_ p: MessagePayload) -> Int {
        switch p {
        case .dictionary(let d): CanonicalEncoding.encodedSize(.dictionary(d))
        case .data(let b): CanonicalEncoding.encodedSize(.data(b))
        }
    }

    // MARK: - Receiving

    /// The message in a `message` frame from the peer, with its payload (within the limit),
    /// decoded with the keys of the peer's last message when it has them (`lastShape`).
    mutating func decodeMessage(_ frame: Frame) throws(ByteReaderError) -> (FrameBodies.Message, MessagePayload) {
        try Self.decodeMessage(frame, reusing: &lastShape)
    }

    /// The message in a `message` frame, with its payload (within the limit); `shape` is the
    /// dictionary decoded last, reused when this one has its keys (`FrameBodies.Message.decode(_:reusing:)`).
    /// A refused message leaves no shape: its body (up to the message limit) is not kept.
    static func decodeMessage(_ frame: Frame, reusing shape: inout CanonicalEncoding.DictionaryShape?) throws(ByteReaderError) -> (FrameBodies.Message, MessagePayload) {
        do throws(ByteReaderError) {
            let m = try FrameBodies.Message.decode(frame.body, reusing: &shape)
            guard let payload = m.payload else { throw .malformed("a message without payload") }
            try enforceLimit("a message", payload, body: frame.body)
            return (m, payload)
        } catch {
            shape = nil
            throw error
        }
    }

    /// Refuses a received payload whose canonical size is over the message limit. A dictionary
    /// came as at least as many bytes as its canonical form takes (the decoder accepts no
    /// shorter form of any value, only longer varints), so a body within the limit needs no
    /// count. (Data is counted: its canonical form adds a length the body does not carry.)
    static func enforceLimit(_ what: String, _ payload: MessagePayload, body: [UInt8]) throws(ByteReaderError) {
        if case .dictionary = payload, body.count <= PayloadLimits.messageBytes { return }
        try PayloadLimits.enforce(what, bytes: payloadSize(payload), limit: PayloadLimits.messageBytes)
    }

    /// A message arrived on the link `id`: a duplicate is dropped, one overtaken in transit
    /// refused, a fresh one noted (then `refuse` or `deliver` it).
    mutating func receive(_ m: FrameBodies.Message, on id: ConnectionID, out: inout MessageOutput) -> Arrival {
        // Every id in `recentIDs` is at most `highestReceived` (each was the highest when kept),
        // so only an id at or below it can be a duplicate.
        guard m.id > highestReceived else {
            if recentIDs[recentStart...].contains(m.id) { return .duplicate }  // its first copy was handled
            refuse(m.id, WCError(.deliveryFailed, "message \(m.id) arrived after message \(highestReceived)"), on: id, out: &out)
            return .outOfOrder
        }
        highestReceived = m.id
        recentIDs.append(m.id)
        let kept = config.recentMessageIDsKept
        if recentIDs.count - recentStart > kept { recentStart += 1 }
        if recentStart >= max(kept, 64) {
            recentIDs.removeFirst(recentStart)
            recentStart = 0
        }
        return .fresh
    }

    /// Tells the peer its message `id` was not delivered.
    func refuse(_ id: MessageID, _ error: WCError, on conn: ConnectionID, out: inout MessageOutput) {
        out.send(conn, Frame(.messageError, FrameBodies.MessageError(id: id, error: error).encode()))
    }

    /// The app takes the fresh message `m`: it awaits the app's reply, or the peer gets its receipt.
    mutating func deliver(_ m: FrameBodies.Message, _ payload: MessagePayload, on conn: ConnectionID, out: inout MessageOutput) {
        if m.replyExpected {
            awaitingReply[m.id] = conn
        } else {
            out.send(conn, Frame(.messageReply, FrameBodies.Message(id: m.id, payload: nil, replyExpected: false).encode()))
        }
        out.didReceive(IncomingMessage(id: m.id, payload: payload, replyExpected: m.replyExpected))
    }

    /// A `messageReply` frame came on `id`: the reply (or receipt) of one of our messages.
    mutating func onReply(_ frame: Frame, on id: ConnectionID, out: inout MessageOutput) throws(ByteReaderError) {
        let m = try FrameBodies.Message.decode(frame.body)
        if let p = m.payload { try Self.enforceLimit("a message reply", p, body: frame.body) }
        guard let i = pending.firstIndex(where: { $0.id == m.id && $0.connection == id }) else { return }  // late or duplicate
        let sent = pending.remove(at: i)
        switch (sent.replyExpected, m.payload) {
        case (true, let p?): out.didReceiveReply(m.id, p)
        case (true, nil): out.didFail(m.id, WCError(.messageReplyFailed, "the peer sent no reply"))
        case (false, _): break  // the receipt: delivered, nothing to report
        }
    }

    /// A `messageError` frame came on `id`: the peer did not deliver one of our messages.
    mutating func onError(_ frame: Frame, on id: ConnectionID, out: inout MessageOutput) throws(ByteReaderError) {
        let m = try FrameBodies.MessageError.decode(frame.body)
        guard let i = pending.firstIndex(where: { $0.id == m.id && $0.connection == id }) else { return }
        pending.remove(at: i)
        out.didFail(m.id, m.error)
    }

    // MARK: - Links and time

    /// A new link is up: the ids received on the last one no longer count.
    mutating func linkUp() {
        highestReceived = 0
        recentIDs = []
        recentStart = 0
    }

    /// The link `id` went down: messages sent on it fail, and the peer's messages that came on
    /// it can no longer be answered.
    mutating func linkDown(_ id: ConnectionID, _ error: WCError, out: inout MessageOutput) {
        failPending(error, connection: id, out: &out)
        awaitingReply = awaitingReply.filter { $0.value != id }
    }

    /// Fails the pending messages (of `connection`, or all when nil).
    mutating func failPending(_ error: WCError, connection: ConnectionID?, out: inout MessageOutput) {
        let failing = pending.filter { connection == nil || $0.connection == connection }
        pending.removeAll { connection == nil || $0.connection == connection }
        for m in failing { out.didFail(m.id, error) }
    }

    /// Fails the messages whose reply time is over.
    mutating func expire(now: EpochMs, out: inout MessageOutput) {
        let expired = pending.filter { $0.deadlineMs <= now }
        guard !expired.isEmpty else { return }
        pending.removeAll { $0.deadlineMs <= now }
        for m in expired {
            let e = m.replyExpected
                ? WCError(.messageReplyTimedOut, "no reply within \(m.timeoutMs) ms")
                : WCError(.deliveryFailed, "no receipt within \(m.timeoutMs) ms")
            out.didFail(m.id, e)
        }
    }

    /// The earliest reply deadline; nil when no message is pending.
    var nextDeadlineMs: EpochMs? { pending.lazy.map(\.deadlineMs).min() }
}

/// A message of ours awaiting its reply (or, without a reply handler, its receipt).
struct PendingMessage: Sendable, Equatable {
    var id: MessageID
    var connection: ConnectionID
    var deadlineMs: EpochMs
    var replyExpected: Bool
    /// The reply timeout this message was sent with.
    var timeoutMs: Int64
}
