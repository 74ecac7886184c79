
/// One user-info stream's state in memory: its outbox queue, the seqs the receiver refuses,
/// and how far it was sent on the current link.
struct UserInfoStreamState: Sendable, Equatable {
    var outbox: OutboxQueue
    /// Receiver: seqs the sender cancelled before we delivered them, refused if a late frame
    /// of them arrives on this link (forgotten once a later seq is delivered, which the
    /// sender sends only after it learnt of the refusal, and at every new link).
    var refused: Set<UInt64> = []
    /// The highest outbox seq sent on this link.
    var sentThrough: UInt64 = 0
    /// The highest seq ever sent on this link (a retransmission lowers `sentThrough`, not
    /// this): a frame up to it may still be in flight.
    var highestSent: UInt64 = 0

    /// What was sent on this link awaits the peer's acknowledgement.
    var awaitsAck: Bool { sentThrough > 0 && !outbox.isEmpty && outbox[outbox.head].seq <= sentThrough }
}

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
///
/// The durable state is the session's `persistent.userInfo`, passed in; a change of its
/// scalars is reported to the session (`true` results), which commits the meta row before
/// the next send.
struct UserInfoChannel: Sendable {
    private let sharedConfig: SharedLinkConfig
    var config: LinkConfig { sharedConfig.value }
    /// Indexed by `UserInfoStream.rawValue`.
    var streams: [UserInfoStreamState]
    /// An acknowledgement is owed for delivered user info (sent at the end of the input).
    var ackOwed = false

    /// The complication stream is sent first.
    static let sendOrder: [UserInfoStream] = [.complication, .ordinary]

    /// Takes the loaded outbox out of `state` (into the queues) and moves `nextSeq` past it;
    /// the configuration is the session's, shared.
    init(shared: SharedLinkConfig, state: inout UserInfoState) {
        sharedConfig = shared
        let items = state.outbox
        streams = UserInfoStream.allCases.map { s in UserInfoStreamState(outbox: OutboxQueue(items.filter { $0.stream == s })) }
        if let maxSeq = items.map(\.seq).max(), maxSeq >= state.nextSeq { state.nextSeq = maxSeq + 1 }
        state.outbox = []
    }

    subscript(_ s: UserInfoStream) -> UserInfoStreamState { streams[s.rawValue] }

    /// Nothing is queued in either stream.
    var isEmpty: Bool { streams.allSatisfy(\.outbox.isEmpty) }

    var awaitsAck: Bool { streams.contains(where: \.awaitsAck) }

    // MARK: - Queueing

    /// Validates a user-info payload: a dictionary within `PayloadLimits.userInfoBytes`.
    static func validate(_ userInfo: PlistValue) -> Result<[UInt8], WCError> {
        guard case .dictionary = userInfo else { return .failure(WCError(.payloadUnsupportedTypes, "user info must be a dictionary")) }
        let encoded = CanonicalEncoding.encode(userInfo)
        guard encoded.count <= PayloadLimits.userInfoBytes else {
            return .failure(WCError(.payloadTooLarge, "user info is \(encoded.count) bytes; the limit is \(PayloadLimits.userInfoBytes)"))
        }
        return .success(encoded)
    }

    /// Queues a valid payload with the next seq (its row in `out`; `nextSeq` changed).
    mutating func enqueue(_ userInfo: PlistValue, encoded: [UInt8], stream: UserInfoStream, now: EpochMs,
                          state: inout UserInfoState, out: inout UserInfoOutput) -> OutboxItem {
        let item = OutboxItem(seq: state.nextSeq, payload: userInfo, encoded: encoded, stream: stream,
                              isCurrent: stream == .complication, createdMs: now)
        state.nextSeq += 1
        var b = WriteBatch()
        if stream == .complication {
            for old in streams[stream.rawValue].outbox.untagAll() { b.put(LinkPersistence.outbox, storeKey(old.seq), LinkPersistence.encodeItem(old)) }
        }
        streams[stream.rawValue].outbox.append(item)
        b.put(LinkPersistence.outbox, storeKey(item.seq), LinkPersistence.encodeItem(item))
        out.persist(b)
        return item
    }

    /// The app's view of a queued item (`onLink`: a link is up).
    func transfer(_ item: OutboxItem, onLink: Bool) -> UserInfoTransfer {
        UserInfoTransfer(id: "u\(item.seq)", seq: item.seq, userInfo: item.payload, isCurrentComplicationInfo: item.isCurrent,
                         isTransferring: onLink && item.seq <= streams[item.stream.rawValue].sentThrough,
                         stream: item.stream, queuedAtMs: item.createdMs)
    }

    /// Queued or on the wire, not acknowledged, not cancelled; complication user info first.
    var outstanding: [OutboxItem] { streams[1].outbox.outstanding + streams[0].outbox.outstanding }

    var outstandingCount: Int { streams.reduce(0) { $0 + $1.outbox.count - $1.outbox.cancelledCount } }

    // MARK: - Cancelling

    /// `cancel()` of transfer `id`; `link` is the link now up. False when no such transfer
    /// is outstanding. See `LinkSession.cancelUserInfo`.
    mutating func cancel(id: String, link: ConnectionID?, state: UserInfoState, out: inout UserInfoOutput) -> Bool {
        guard id.hasPrefix("u"), let seq = UInt64(id.dropFirst()) else { return false }
        for s in UserInfoStream.allCases {
            guard let item = streams[s.rawValue].outbox.item(seq: seq), !item.isCancelled else { continue }
            // On a link: sent on it (what went on a gone one, the handshake showed undelivered).
            // Without one: ever sent.
            let mayHaveLeft = link != nil ? seq <= streams[s.rawValue].highestSent : seq <= state.highestSeqSent
            guard mayHaveLeft else {
                // Never on the wire (or only on a connection that is gone, which the handshake
                // showed undelivered): it can no longer be delivered.
                streams[s.rawValue].outbox.remove(seq: seq)
                out.persist { $0.delete(LinkPersistence.outbox, storeKey(seq)) }
                return true
            }
            let marked = streams[s.rawValue].outbox.markCancelled(seq: seq)!
            out.persist { $0.put(LinkPersistence.outbox, storeKey(seq), LinkPersistence.encodeItem(marked)) }
            if let id = link { sendCancel(marked, on: id, out: &out) }
            return true
        }
        return false
    }

    /// Asks the peer whether it delivered the cancelled `item`.
    func sendCancel(_ item: OutboxItem, on id: ConnectionID, out: inout UserInfoOutput) {
        out.send(id, Frame(.userInfoCancel, FrameBodies.UserInfoCancel(seq: item.seq, isComplicationStream: item.stream == .complication).encode()))
    }

    /// The peer answered a `userInfoCancel`: false when it is about nothing cancelled here
    /// (late or duplicate). `true` in the result's `metaChanged`: the acknowledged seq moved.
    mutating func onCancelReply(_ frame: Frame, state: inout UserInfoState, out: inout UserInfoOutput)
        throws(ByteReaderError) -> (answered: Bool, metaChanged: Bool)
    {
        let r = try FrameBodies.UserInfoCancel.decode(frame.body)
        let stream: UserInfoStream = r.isComplicationStream ? .complication : .ordinary
        guard streams[stream.rawValue].outbox.item(seq: r.seq)?.isCancelled == true else { return (false, false) }
        if r.wasDelivered {
            return (true, peerDelivered(stream, through: r.seq, state: &state, out: &out))  // it and all before it: finished
        }
        streams[stream.rawValue].outbox.remove(seq: r.seq)
        out.persist { $0.delete(LinkPersistence.outbox, storeKey(r.seq)) }
        // What was sent after it names it as `prev` and waits for it: send those again.
        streams[stream.rawValue].sentThrough = min(streams[stream.rawValue].sentThrough, r.seq - 1)
        return (true, false)
    }

    /// A new link is up and the peer said what it delivered (`peerDelivered` ran): cancelled
    /// transfers it has not delivered were sent on links that are gone and are never sent
    /// again, so they are never delivered.
    mutating func dropCancelled(out: inout UserInfoOutput) {
        for s in UserInfoStream.allCases where streams[s.rawValue].outbox.cancelledCount > 0 {
            let dropped = streams[s.rawValue].outbox.removeCancelled()
            out.persist { b in for seq in dropped { b.delete(LinkPersistence.outbox, storeKey(seq)) } }
        }
    }
}
