
/// The session's side of `transferUserInfo` (`UserInfoChannel` holds the streams, the durable
/// state is `persistent.userInfo`): readiness, the meta row committed before the frames that
/// depend on it, delivery through the inbox, and the retransmission clock.
extension LinkSession {
    // MARK: - API

    /// `transferUserInfo`: queues `userInfo` (a dictionary) for guaranteed delivery.
    public mutating func transferUserInfo(_ userInfo: PlistValue, now: EpochMs) -> Result<UserInfoTransfer, WCError> {
        enqueueUserInfo(userInfo, stream: .ordinary, now: now)
    }

    /// Validates a user-info payload: a dictionary within `PayloadLimits.userInfoBytes`.
    func validateUserInfo(_ userInfo: PlistValue) -> Result<[UInt8], WCError> {
        if let e = readinessError() { return .failure(e) }
        return UserInfoChannel.validate(userInfo)
    }

    mutating func enqueueUserInfo(_ userInfo: PlistValue, stream: UserInfoStream, now: EpochMs) -> Result<UserInfoTransfer, WCError> {
        let encoded: [UInt8]
        switch validateUserInfo(userInfo) {
        case .failure(let e): return .failure(e)
        case .success(let b): encoded = b
        }
        let item = userInfoChannel.enqueue(userInfo, encoded: encoded, stream: stream, now: now, state: &persistent.userInfo, out: &out.userInfo)
        metaDirty = true
        flushMeta()
        sendOutbox(now: now)
        return .success(transfer(item))
    }

    func transfer(_ item: OutboxItem) -> UserInfoTransfer { userInfoChannel.transfer(item, onLink: connections.activeID != nil) }

    /// The user-info outboxes, indexed by `UserInfoStream.rawValue`.
    var outboxes: [OutboxQueue] { userInfoChannel.streams.map(\.outbox) }

    /// Per stream, the seqs the receiver refuses on this link (see `UserInfoStreamState.refused`).
    var refusedUserInfo: [Set<UInt64>] { userInfoChannel.streams.map(\.refused) }

    /// `outstandingUserInfoTransfers`: queued or on the wire, not yet acknowledged, not
    /// cancelled; complication user info first (it is sent first).
    public var outstandingUserInfoTransfers: [UserInfoTransfer] { userInfoChannel.outstanding.map(transfer) }

    /// Number of outstanding transfers (cheap).
    public var outstandingUserInfoCount: Int { userInfoChannel.outstandingCount }

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
        let mark = out.count
        defer { noteSends(since: mark) }
        return userInfoChannel.cancel(id: id, link: connections.activeID, state: persistent.userInfo, out: &out.userInfo)
    }

    /// The peer answered a `userInfoCancel`.
    mutating func onUserInfoCancelReply(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        guard connections.activeID != nil else { return }
        let r = try userInfoChannel.onCancelReply(frame, state: &persistent.userInfo, out: &out.userInfo)
        guard r.answered else { return }
        if r.metaChanged { metaDirty = true }
        active!.liveness.lastProgressMs = now
        sendOutbox(now: now)
    }

    /// A new link is up and the peer said what it delivered: cancelled transfers it has not
    /// delivered are never delivered.
    mutating func dropCancelledUserInfo() {
        userInfoChannel.dropCancelled(out: &out.userInfo)
    }

    // MARK: - Sending

    /// Sends every outstanding transfer not yet sent on this link, within the window (the
    /// complication stream first), and starts the retransmission clock if nothing was
    /// awaiting an acknowledgement.
    mutating func sendOutbox(now: EpochMs) {
        guard activationState == .activated, connections.activeID != nil else { return }
        active!.liveness.nowMs = max(active!.liveness.nowMs, now)
        let wasIdle = !awaitsAck
        let mark = out.count
        if userInfoChannel.pump(on: active!.id, state: &persistent.userInfo, out: &out.userInfo) { metaDirty = true }
        noteSends(since: mark)
        if wasIdle, connections.activeID != nil, awaitsAck { active!.liveness.lastProgressMs = active!.liveness.nowMs }
    }

    // MARK: - Receiving

    mutating func onUserInfoFrame(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        guard let d = try userInfoChannel.receive(frame, state: &persistent.userInfo, stats: &stats) else { return }
        metaDirty = true
        if d.stream == .complication && config.role == .watch { wakeApp() }
        var batch = WriteBatch()
        deliverContent(.userInfo(d.payload, isComplication: d.isCurrent), into: &batch)
        if !batch.isEmpty { out.persist(batch) }
    }

    /// The sender cancelled a seq: tell it whether that came too late; if not, refuse it.
    /// (The answer leaves after the receive log's commit, like an acknowledgement.)
    mutating func onUserInfoCancel(_ frame: Frame) throws(ByteReaderError) {
        let answer = try userInfoChannel.onCancel(frame, state: persistent.userInfo)
        guard let id = connections.activeID else { return }
        flushMeta()
        let mark = out.count
        userInfoChannel.answerCancel(answer, on: id, out: &out.userInfo)
        noteSends(since: mark)
    }

    mutating func onUserInfoAck(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        if try userInfoChannel.onAck(frame, state: &persistent.userInfo, out: &out.userInfo) { metaDirty = true }
        if connections.activeID != nil { active!.liveness.lastProgressMs = now }
        sendOutbox(now: now)
    }

    /// The peer has delivered a stream through `through`: finish those transfers.
    mutating func onPeerDelivered(stream: UserInfoStream, through: UInt64) {
        if userInfoChannel.peerDelivered(stream, through: through, state: &persistent.userInfo, out: &out.userInfo) { metaDirty = true }
    }

    /// Call after a batch of input: writes the receive log, then sends the owed cumulative
    /// acknowledgement (after the deliveries' commits, by the ordering contract).
    public mutating func endOfInput(now: EpochMs) {
        flushMeta()
        guard userInfoChannel.ackOwed, let id = connections.activeID, let ack = userInfoChannel.takeOwedAck(persistent.userInfo) else { return }
        let mark = out.count
        userInfoChannel.acknowledge(ack, on: id, out: &out.userInfo)
        noteSends(since: mark)
    }
}
