
/// `transferUserInfo`: guaranteed, FIFO, exactly once to the app.
///
/// Sender: each transfer is committed to the durable outbox with the next seq before any
/// frame that carries it, then sent when the link is up. A frame carries its seq and the
/// seq of the live transfer before it in the same stream (`prev`); the receiver delivers a
/// frame only when `prev` is at most what it has delivered and `seq` is beyond it, so loss,
/// duplication and reordering never break order or deliver twice. The receiver commits the
/// delivery and its receive log together, then acknowledges cumulatively; the sender drops
/// acknowledged transfers and reports `didFinish`. Unacknowledged transfers are resent after
/// `retransmitAfterMs` without progress and on every reconnect, after what the peer says
/// it delivered. Complication user info is a second stream sent ahead of the first.
extension LinkSession {
    // MARK: - API

    /// `transferUserInfo`: queues `userInfo` (a dictionary) for guaranteed delivery.
    public mutating func transferUserInfo(_ userInfo: PlistValue, now: EpochMs) -> Result<UserInfoTransfer, WCError> {
        enqueueUserInfo(userInfo, stream: .ordinary, now: now)
    }

    /// Validates a user-info payload: a dictionary within `PayloadLimits.userInfoBytes`.
    func validateUserInfo(_ userInfo: PlistValue) -> Result<[UInt8], WCError> {
        if let e = readinessError() { return .failure(e) }
        guard case .dictionary = userInfo else { return .failure(WCError(.payloadUnsupportedTypes, "user info must be a dictionary")) }
        let encoded = CanonicalEncoding.encode(userInfo)
        guard encoded.count <= PayloadLimits.userInfoBytes else {
            return .failure(WCError(.payloadTooLarge, "user info is \(encoded.count) bytes; the limit is \(PayloadLimits.userInfoBytes)"))
        }
        return .success(encoded)
    }

    mutating func enqueueUserInfo(_ userInfo: PlistValue, stream: UserInfoStream, now: EpochMs) -> Result<UserInfoTransfer, WCError> {
        let encoded: [UInt8]
        switch validateUserInfo(userInfo) {
        case .failure(let e): return .failure(e)
        case .success(let b): encoded = b
        }
        let item = OutboxItem(seq: persistent.nextSeq, payload: userInfo, encoded: encoded, stream: stream,
                              isCurrent: stream == .complication, createdMs: now)
        persistent.nextSeq += 1
        metaDirty = true
        var b = WriteBatch()
        if stream == .complication {
            for old in outboxes[stream.rawValue].untagAll() { b.put(LinkPersistence.outbox, storeKey(old.seq), LinkPersistence.encodeItem(old)) }
        }
        outboxes[stream.rawValue].append(item)
        b.put(LinkPersistence.outbox, storeKey(item.seq), LinkPersistence.encodeItem(item))
        out.persist(b)
        flushMeta()
        sendOutbox(now: now)
        return .success(transfer(item))
    }

    func transfer(_ item: OutboxItem) -> UserInfoTransfer {
        UserInfoTransfer(id: "u\(item.seq)", seq: item.seq, userInfo: item.payload, isCurrentComplicationInfo: item.isCurrent,
                         isTransferring: (active?.sentThrough[item.stream.rawValue]).map { item.seq <= $0 } ?? false,
                         stream: item.stream, queuedAtMs: item.createdMs)
    }

    /// `outstandingUserInfoTransfers`: queued or on the wire, not yet acknowledged, not
    /// cancelled; complication user info first (it is sent first).
    public var outstandingUserInfoTransfers: [UserInfoTransfer] {
        (outboxes[1].outstanding + outboxes[0].outstanding).map(transfer)
    }

    /// Number of outstanding transfers (cheap).
    public var outstandingUserInfoCount: Int {
        outboxes[0].count - outboxes[0].cancelledCount + outboxes[1].count - outboxes[1].cancelledCount
    }

    /// `cancel()` of a transfer: "if the data has already been transferred, calling this
    /// method has no effect" — otherwise it is never delivered.
    ///
    /// A transfer whose frame never left is dropped at once. One whose frame went out may be
    /// delivered before the cancel reaches the peer, so it is marked cancelled (durably) and the
    /// peer is asked (`userInfoCancel`); until it answers nothing after it in its stream is
    /// sent. The peer answers whether it had delivered it — then the sender gets
    /// `didFinishUserInfoTransfer` without error, as for any delivered transfer — or refuses it
    /// from then on; a cancelled transfer that is not delivered gets no `didFinish`. When the
    /// link is down the answer is the peer's delivered count at the next handshake. Returns
    /// false when no such transfer is outstanding.
    @discardableResult
    public mutating func cancelUserInfo(id: String) -> Bool {
        guard id.hasPrefix("u"), let seq = UInt64(id.dropFirst()) else { return false }
        for s in UserInfoStream.allCases {
            guard let item = outboxes[s.rawValue].item(seq: seq), !item.isCancelled else { continue }
            // On a link: sent on it (what went on a gone one, the handshake showed undelivered).
            // Without one: ever sent.
            let mayHaveLeft = active.map { seq <= $0.highestSent[s.rawValue] } ?? (seq <= persistent.highestSeqSent)
            guard mayHaveLeft else {
                // Never on the wire (or only on a connection that is gone, which the handshake
                // showed undelivered): it can no longer be delivered.
                outboxes[s.rawValue].remove(seq: seq)
                persist { $0.delete(LinkPersistence.outbox, storeKey(seq)) }
                return true
            }
            let marked = outboxes[s.rawValue].markCancelled(seq: seq)!
            persist { $0.put(LinkPersistence.outbox, storeKey(seq), LinkPersistence.encodeItem(marked)) }
            if let a = active { sendUserInfoCancel(marked, on: a.id) }
            return true
        }
        return false
    }

    /// The peer answered a `userInfoCancel`.
    mutating func onUserInfoCancelReply(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let r = try FrameBodies.UserInfoCancel.decode(frame.body)
        let stream: UserInfoStream = r.isComplicationStream ? .complication : .ordinary
        guard outboxes[stream.rawValue].item(seq: r.seq)?.isCancelled == true, var a = active else { return }
        a.lastProgressMs = now
        if r.wasDelivered {
            active = a
            onPeerDelivered(stream: stream, through: r.seq)  // it and all before it: finished
        } else {
            outboxes[stream.rawValue].remove(seq: r.seq)
            persist { $0.delete(LinkPersistence.outbox, storeKey(r.seq)) }
            // What was sent after it names it as `prev` and waits for it: send those again.
            a.sentThrough[stream.rawValue] = min(a.sentThrough[stream.rawValue], r.seq - 1)
            active = a
        }
        sendOutbox(now: now)
    }

    /// Asks the peer whether it delivered the cancelled `item`.
    mutating func sendUserInfoCancel(_ item: OutboxItem, on id: ConnectionID) {
        send(id, Frame(.userInfoCancel, FrameBodies.UserInfoCancel(seq: item.seq, isComplicationStream: item.stream == .complication).encode()))
    }

    /// A new connection is up and the peer said what it delivered (`onPeerDelivered` ran):
    /// cancelled transfers it has not delivered were sent on connections that are gone and
    /// are never sent again, so they are never delivered.
    mutating func dropCancelledUserInfo() {
        for s in UserInfoStream.allCases where outboxes[s.rawValue].cancelledCount > 0 {
            let dropped = outboxes[s.rawValue].removeCancelled()
            persist { b in for seq in dropped { b.delete(LinkPersistence.outbox, storeKey(seq)) } }
        }
    }

    // MARK: - Sending

    /// Sends every outstanding transfer not yet sent on this connection, within the window:
    /// the complication stream first.
    ///
    /// The connection is changed in place (`active!`): a copy of it would share its per-stream
    /// arrays, and every write to them would copy them (this runs for every transfer queued).
    mutating func sendOutbox(now: EpochMs) {
        guard activationState == .activated, active?.id != nil else { return }
        active!.nowMs = max(active!.nowMs, now)
        let wasIdle = !active!.awaitsAck(self)
        defer { if wasIdle, active?.id != nil, active!.awaitsAck(self) { active!.lastProgressMs = active!.nowMs } }
        for stream in Self.sendOrder {
            guard active?.id != nil else { return }
            let s = stream.rawValue
            let q = outboxes[s]
            var i = q.index(after: active!.sentThrough[s])
            let firstCancelled = q.firstCancelledSeq  // nothing after it is sent until it is answered
            while i < q.endIndex && i - q.head < config.maxUserInfoInFlight {
                let item = q[i]
                // The byte window: at least one transfer is always on the wire.
                if i > q.head, q.bytes(from: q.head, to: i + 1) > config.maxUserInfoInFlightBytes { break }
                if let c = firstCancelled, c < item.seq { break }
                if item.isCancelled {
                    sendUserInfoCancel(item, on: active!.id)  // asked again (a retransmission)
                    active!.sentThrough[s] = item.seq
                    break
                }
                let body = FrameBodies.UserInfo(seq: item.seq, prev: q.prev(at: i), isComplicationStream: stream == .complication,
                                                isCurrent: item.isCurrent, payload: item.encoded)
                out.send(active!.id, Frame(.userInfo, body.encode()))
                stats.framesSent += 1
                active!.framesSent += 1
                active!.sentThrough[s] = item.seq
                active!.highestSent[s] = max(active!.highestSent[s], item.seq)
                if item.seq > persistent.highestSeqSent {
                    persistent.highestSeqSent = item.seq  // committed with this event, before the frame leaves
                    metaDirty = true
                }
                active!.lastSentMs = active!.nowMs
                active!.noteDataSent()
                i += 1
            }
        }
    }

    /// The complication stream is sent first.
    static let sendOrder: [UserInfoStream] = [.complication, .ordinary]

    // MARK: - Receiving

    mutating func onUserInfoFrame(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let b = try FrameBodies.UserInfo.decode(frame.body)
        // The receiver enforces what the sender's API does: a dictionary within the limit.
        try PayloadLimits.enforce("a user info", bytes: b.payload.count, limit: PayloadLimits.userInfoBytes)
        let payload = try CanonicalEncoding.decode(b.payload)
        guard case .dictionary = payload else { throw .malformed("a user info that is not a dictionary") }
        let stream: UserInfoStream = b.isComplicationStream ? .complication : .ordinary
        let last = stream == .ordinary ? persistent.lastDeliveredFromPeer : persistent.lastComplicationDeliveredFromPeer
        guard b.seq > last else {
            stats.userInfoDuplicatesDropped += 1
            ackOwed = true  // re-acknowledge: the first acknowledgement may have been lost
            return
        }
        guard b.prev <= last else { return }  // an earlier transfer is missing: wait for the resend
        if !refusedUserInfo[stream.rawValue].isEmpty {
            guard !refusedUserInfo[stream.rawValue].contains(b.seq) else { return }  // cancelled by the sender
            refusedUserInfo[stream.rawValue] = refusedUserInfo[stream.rawValue].filter { $0 > b.seq }
        }
        if stream == .ordinary { persistent.lastDeliveredFromPeer = b.seq } else { persistent.lastComplicationDeliveredFromPeer = b.seq }
        metaDirty = true
        stats.userInfoDelivered += 1
        if stream == .complication && config.role == .watch { wakeApp() }
        var batch = WriteBatch()
        deliverContent(.userInfo(payload, isComplication: b.isCurrent), into: &batch)
        if !batch.isEmpty { out.persist(batch) }
        ackOwed = true
    }

    /// The sender cancelled `seq`: tell it whether that came too late; if not, refuse it.
    /// (The answer leaves after the receive log's commit, like an acknowledgement.)
    mutating func onUserInfoCancel(_ frame: Frame) throws(ByteReaderError) {
        let c = try FrameBodies.UserInfoCancel.decode(frame.body)
        let stream: UserInfoStream = c.isComplicationStream ? .complication : .ordinary
        let last = stream == .ordinary ? persistent.lastDeliveredFromPeer : persistent.lastComplicationDeliveredFromPeer
        let delivered = c.seq <= last
        if !delivered { refusedUserInfo[stream.rawValue].insert(c.seq) }
        guard let a = active else { return }
        flushMeta()
        send(a.id, Frame(.userInfoCancelReply, FrameBodies.UserInfoCancel(seq: c.seq, isComplicationStream: c.isComplicationStream, wasDelivered: delivered).encode()))
    }

    mutating func onUserInfoAck(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let ack = try FrameBodies.UserInfoAck.decode(frame.body)
        onPeerDelivered(stream: .ordinary, through: ack.ordinary)
        onPeerDelivered(stream: .complication, through: ack.complication)
        if active?.id != nil { active!.lastProgressMs = now }
        sendOutbox(now: now)
    }

    /// The peer has delivered a stream through `through`: finish those transfers.
    mutating func onPeerDelivered(stream: UserInfoStream, through: UInt64) {
        if stream == .ordinary, through > persistent.peerAckedThrough {
            persistent.peerAckedThrough = through
            metaDirty = true
        }
        let done = outboxes[stream.rawValue].removeThrough(through)
        guard !done.isEmpty else { return }
        var b = WriteBatch()
        for item in done { b.delete(LinkPersistence.outbox, storeKey(item.seq)) }
        out.persist(b)
        for item in done {
            var t = transfer(item)
            t.isTransferring = false
            out.deliver(.didFinishUserInfoTransfer(t, error: nil))
        }
    }

    /// Call after a batch of input: writes the receive log, then sends the owed cumulative
    /// acknowledgement (after the deliveries' commits, by the ordering contract).
    public mutating func endOfInput(now: EpochMs) {
        flushMeta()
        guard ackOwed, let id = active?.id else { return }
        ackOwed = false
        let ack = FrameBodies.UserInfoAck(ordinary: persistent.lastDeliveredFromPeer, complication: persistent.lastComplicationDeliveredFromPeer)
        send(id, Frame(.userInfoAck, ack.encode()))
    }
}
