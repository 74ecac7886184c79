import Shared

/// `transferUserInfo`: guaranteed, FIFO, exactly once to the app.
///
/// Sender: each transfer is committed to the durable outbox with the next seq before the call
/// returns, then sent when the link is up. A frame carries its seq and the seq of the live
/// transfer before it (`prev`); the receiver delivers a frame only when `prev` is at most what
/// it has delivered and `seq` is beyond it, so loss, duplication and reordering never break
/// order or deliver twice. The receiver commits the delivery and its receive log together,
/// then acknowledges cumulatively; the sender drops acknowledged transfers and reports
/// `didFinish`. Unacknowledged transfers are resent after `retransmitAfterMs` without progress
/// and on every reconnect, starting after what the peer says it delivered.
///
/// Frame bodies:
/// - userInfo: varint seq, varint prev, u8 flags (1 = complication), canonical payload
/// - userInfoAck: varint lastDelivered
extension LinkSession {
    // MARK: - API

    /// Queues `userInfo` for guaranteed delivery. The outbox write is in the actions, before
    /// any send; the transfer exists once the shell has committed it.
    public mutating func transferUserInfo(_ userInfo: PlistValue, now: EpochMs) -> Result<UserInfoTransfer, WCError> {
        enqueueUserInfo(userInfo, isComplication: false, now: now)
    }

    mutating func enqueueUserInfo(_ userInfo: PlistValue, isComplication: Bool, now: EpochMs) -> Result<UserInfoTransfer, WCError> {
        switch activationState {
        case .notActivated: return .failure(WCError(.sessionNotActivated))
        case .inactive: return .failure(WCError(.sessionInactive))
        case .activated: break
        }
        guard config.pairingSecret != nil else { return .failure(WCError(.deviceNotPaired)) }
        guard case .dictionary = userInfo else { return .failure(WCError(.payloadUnsupportedTypes, "user info must be a dictionary")) }
        let encoded = CanonicalEncoding.encode(userInfo)
        guard encoded.count <= PayloadLimits.userInfoBytes else {
            return .failure(WCError(.payloadTooLarge, "user info is \(encoded.count) bytes; the limit is \(PayloadLimits.userInfoBytes)"))
        }
        let item = OutboxItem(seq: persistent.nextSeq, payload: userInfo, encoded: encoded, isComplication: isComplication, createdMs: now)
        persistent.nextSeq += 1
        outbox.append(item)
        var b = WriteBatch()
        b.put(LinkPersistence.outbox, storeKey(item.seq), LinkPersistence.encodeItem(item))
        LinkPersistence.metaWrite(persistent, into: &b)
        actions.append(.persist(b))
        if let a = active, outbox.count <= config.maxUserInfoInFlight || a.sentThrough + 1 >= item.seq {
            sendUserInfo(item, on: a.id, now: now)
        }
        return .success(transfer(item))
    }

    func transfer(_ item: OutboxItem) -> UserInfoTransfer {
        UserInfoTransfer(id: "u\(item.seq)", seq: item.seq, userInfo: item.payload, isCurrentComplicationInfo: item.isComplication,
                         isTransferring: active.map { item.seq <= $0.sentThrough } ?? false)
    }

    /// `outstandingUserInfoTransfers`: queued or on the wire, not yet acknowledged, not cancelled.
    public var outstandingUserInfoTransfers: [UserInfoTransfer] { outbox.live.map(transfer) }

    /// Number of outstanding transfers (cheap).
    public var outstandingUserInfoCount: Int { outbox.count }

    /// `cancel()` of a transfer. A transfer not yet on the wire is never delivered; one already
    /// sent may have been committed by the peer, in which case its acknowledgement reports it.
    /// Returns false when no such transfer is outstanding.
    @discardableResult
    public mutating func cancelUserInfo(id: String) -> Bool {
        guard id.hasPrefix("u"), let seq = UInt64(id.dropFirst()), outbox.remove(seq: seq) != nil else { return false }
        var b = WriteBatch()
        b.delete(LinkPersistence.outbox, storeKey(seq))
        actions.append(.persist(b))
        return true
    }

    // MARK: - Sending

    mutating func sendUserInfo(_ item: OutboxItem, on id: ConnectionID, now: EpochMs) {
        let prev = outbox.seq(before: item.seq) ?? 0
        var w = ByteWriter(capacity: item.encoded.count + 12)
        w.writeVarint(item.seq)
        w.writeVarint(prev)
        w.writeByte(item.isComplication ? 1 : 0)
        w.writeBytes(item.encoded)
        send(id, Frame(.userInfo, w.bytes))
        if var a = active, a.id == id {
            if a.sentThrough < item.seq { a.sentThrough = item.seq }
            active = a
        }
    }

    /// Sends every outstanding transfer not yet sent on this connection, within the window.
    mutating func sendOutbox(now: EpochMs) {
        guard let a = active else { return }
        var sent = 0
        for item in outbox.live where item.seq > a.sentThrough {
            if sent >= config.maxUserInfoInFlight { break }
            sendUserInfo(item, on: a.id, now: now)
            sent += 1
        }
    }

    /// Resends everything outstanding (after a timeout without progress).
    mutating func retransmit(now: EpochMs) {
        guard var a = active, !outbox.isEmpty else { return }
        a.sentThrough = 0
        a.lastProgressMs = now
        active = a
        stats.retransmits += 1
        sendOutbox(now: now)
    }

    // MARK: - Receiving

    mutating func onUserInfoFrame(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        var r = ByteReader(frame.body)
        let seq = try r.readVarint()
        let prev = try r.readVarint()
        let flags = try r.readByte()
        let payload = try CanonicalEncoding.decode(Array(frame.body[r.offset...]))
        guard seq > persistent.lastDeliveredFromPeer else {
            stats.userInfoDuplicatesDropped += 1
            ackOwed = true  // re-acknowledge: the first acknowledgement may have been lost
            return
        }
        guard prev <= persistent.lastDeliveredFromPeer else {
            return  // an earlier transfer is missing: wait for the sender to resend in order
        }
        persistent.lastDeliveredFromPeer = seq
        stats.userInfoDelivered += 1
        actions.append(.deliver(.didReceiveUserInfo(payload, isComplication: flags & 1 == 1)))
        var b = WriteBatch()
        LinkPersistence.metaWrite(persistent, into: &b)
        actions.append(.persist(b))
        ackOwed = true
    }

    mutating func onUserInfoAck(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        var r = ByteReader(frame.body)
        let through = try r.readVarint()
        onPeerDelivered(through: through)
        if var a = active { a.lastProgressMs = now; active = a }
        sendOutbox(now: now)
    }

    /// The peer has delivered our stream through `through`: finish those transfers.
    mutating func onPeerDelivered(through: UInt64) {
        let done = outbox.removeThrough(through)
        guard !done.isEmpty else { return }
        var b = WriteBatch()
        for item in done { b.delete(LinkPersistence.outbox, storeKey(item.seq)) }
        actions.append(.persist(b))
        for item in done {
            var t = transfer(item)
            t.isTransferring = false
            actions.append(.deliver(.didFinishUserInfoTransfer(t, error: nil)))
        }
    }

    /// Call after a batch of input: sends the owed cumulative acknowledgement (after the
    /// deliveries' commits, by the ordering contract).
    public mutating func endOfInput(now: EpochMs) {
        guard ackOwed, let a = active else { return }
        ackOwed = false
        var w = ByteWriter(capacity: 10)
        w.writeVarint(persistent.lastDeliveredFromPeer)
        send(a.id, Frame(.userInfoAck, w.bytes))
    }
}
