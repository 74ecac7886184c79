
/// The user-info channel on the wire: sending within the window, receiving in order,
/// acknowledgements, and what each new link and each retransmission starts again.
extension UserInfoChannel {
    // MARK: - Sending

    /// Sends every outstanding transfer not yet sent on link `id`, within the window: the
    /// complication stream first. True when `highestSeqSent` moved (the meta row goes out
    /// with this event, before the frames leave).
    mutating func pump(on id: ConnectionID, state: inout UserInfoState, out: inout UserInfoOutput) -> Bool {
        var metaChanged = false
        for stream in Self.sendOrder {
            let s = stream.rawValue
            let q = streams[s].outbox
            var i = q.index(after: streams[s].sentThrough)
            let firstCancelled = q.firstCancelledSeq  // nothing after it is sent until it is answered
            while i < q.endIndex && i - q.head < config.maxUserInfoInFlight {
                let item = q[i]
                // The byte window: at least one transfer is always on the wire.
                if i > q.head, q.bytes(from: q.head, to: i + 1) > config.maxUserInfoInFlightBytes { break }
                if let c = firstCancelled, c < item.seq { break }
                if item.isCancelled {
                    sendCancel(item, on: id, out: &out)  // asked again (a retransmission)
                    streams[s].sentThrough = item.seq
                    break
                }
                let body = FrameBodies.UserInfo(seq: item.seq, prev: q.prev(at: i), isComplicationStream: stream == .complication,
                                                isCurrent: item.isCurrent, payload: item.encoded)
                out.send(id, Frame(.userInfo, body.encode()))
                streams[s].sentThrough = item.seq
                streams[s].highestSent = max(streams[s].highestSent, item.seq)
                if item.seq > state.highestSeqSent {
                    state.highestSeqSent = item.seq  // committed with this event, before the frame leaves
                    metaChanged = true
                }
                i += 1
            }
        }
        return metaChanged
    }

    // MARK: - Receiving

    /// A transfer the receiver delivers (`receive`).
    struct Delivery: Equatable {
        var stream: UserInfoStream
        var payload: PlistValue
        var isCurrent: Bool
    }

    /// A `userInfo` frame: the transfer to deliver when it is the next of its stream (the
    /// receive log is moved on), nil for a duplicate (re-acknowledged), one that waits for
    /// an earlier one, or one the sender cancelled.
    mutating func receive(_ frame: Frame, state: inout UserInfoState, stats: inout LinkStats) throws(ByteReaderError) -> Delivery? {
        let b = try FrameBodies.UserInfo.decode(frame.body)
        // The receiver enforces what the sender's API does: a dictionary within the limit.
        try PayloadLimits.enforce("a user info", bytes: b.payload.count, limit: PayloadLimits.userInfoBytes)
        let payload = try CanonicalEncoding.decode(b.payload)
        guard case .dictionary = payload else { throw .malformed("a user info that is not a dictionary") }
        let stream: UserInfoStream = b.isComplicationStream ? .complication : .ordinary
        let last = Self.lastDelivered(stream, state)
        guard b.seq > last else {
            stats.userInfoDuplicatesDropped += 1
            ackOwed = true  // re-acknowledge: the first acknowledgement may have been lost
            return nil
        }
        guard b.prev <= last else { return nil }  // an earlier transfer is missing: wait for the resend
        if !streams[stream.rawValue].refused.isEmpty {
            guard !streams[stream.rawValue].refused.contains(b.seq) else { return nil }  // cancelled by the sender
            streams[stream.rawValue].refused = streams[stream.rawValue].refused.filter { $0 > b.seq }
        }
        if stream == .ordinary { state.lastDeliveredFromPeer = b.seq } else { state.lastComplicationDeliveredFromPeer = b.seq }
        stats.userInfoDelivered += 1
        ackOwed = true
        return Delivery(stream: stream, payload: payload, isCurrent: b.isCurrent)
    }

    static func lastDelivered(_ stream: UserInfoStream, _ state: UserInfoState) -> UInt64 {
        stream == .ordinary ? state.lastDeliveredFromPeer : state.lastComplicationDeliveredFromPeer
    }

    /// The sender cancelled a seq: the answer (whether it came too late); if not, it is
    /// refused from now on. The answer leaves after the receive log's commit (`answerCancel`).
    mutating func onCancel(_ frame: Frame, state: UserInfoState) throws(ByteReaderError) -> FrameBodies.UserInfoCancel {
        let c = try FrameBodies.UserInfoCancel.decode(frame.body)
        let stream: UserInfoStream = c.isComplicationStream ? .complication : .ordinary
        let delivered = c.seq <= Self.lastDelivered(stream, state)
        if !delivered { streams[stream.rawValue].refused.insert(c.seq) }
        return FrameBodies.UserInfoCancel(seq: c.seq, isComplicationStream: c.isComplicationStream, wasDelivered: delivered)
    }

    func answerCancel(_ answer: FrameBodies.UserInfoCancel, on id: ConnectionID, out: inout UserInfoOutput) {
        out.send(id, Frame(.userInfoCancelReply, answer.encode()))
    }

    /// A cumulative acknowledgement: both streams' transfers through it are finished. True
    /// when the acknowledged seq moved.
    mutating func onAck(_ frame: Frame, state: inout UserInfoState, out: inout UserInfoOutput) throws(ByteReaderError) -> Bool {
        let ack = try FrameBodies.UserInfoAck.decode(frame.body)
        let a = peerDelivered(.ordinary, through: ack.ordinary, state: &state, out: &out)
        let b = peerDelivered(.complication, through: ack.complication, state: &state, out: &out)
        return a || b
    }

    /// The peer has delivered `stream` through `through`: finish those transfers. True when
    /// the acknowledged seq moved.
    mutating func peerDelivered(_ stream: UserInfoStream, through: UInt64, state: inout UserInfoState, out: inout UserInfoOutput) -> Bool {
        var metaChanged = false
        if stream == .ordinary, through > state.peerAckedThrough {
            state.peerAckedThrough = through
            metaChanged = true
        }
        let done = streams[stream.rawValue].outbox.removeThrough(through)
        guard !done.isEmpty else { return metaChanged }
        var b = WriteBatch()
        for item in done { b.delete(LinkPersistence.outbox, storeKey(item.seq)) }
        out.persist(b)
        for item in done { out.didFinish(transfer(item, onLink: false)) }
        return metaChanged
    }

    /// The owed cumulative acknowledgement, if one is owed (then it no longer is).
    mutating func takeOwedAck(_ state: UserInfoState) -> FrameBodies.UserInfoAck? {
        guard ackOwed else { return nil }
        ackOwed = false
        return FrameBodies.UserInfoAck(ordinary: state.lastDeliveredFromPeer, complication: state.lastComplicationDeliveredFromPeer)
    }

    func acknowledge(_ ack: FrameBodies.UserInfoAck, on id: ConnectionID, out: inout UserInfoOutput) {
        out.send(id, Frame(.userInfoAck, ack.encode()))
    }

    // MARK: - Links

    /// A new link is up: nothing was sent on it, and refusals (which guard against late frames
    /// of the link they were made on) are forgotten; the peer never sends a cancelled
    /// transfer again (unless its store lost the cancel, or it is a new store: then
    /// delivering is right).
    mutating func linkUp() {
        for s in streams.indices {
            streams[s].refused = []
            streams[s].sentThrough = 0
            streams[s].highestSent = 0
        }
    }

    /// Everything unacknowledged is sent again (a retransmission).
    mutating func rewind() {
        for s in streams.indices { streams[s].sentThrough = 0 }
    }
}
