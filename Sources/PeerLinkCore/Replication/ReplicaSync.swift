/// Delta sync between the two replicas, on top of a guaranteed, in-order, exactly-once
/// channel (PeerLink's user-info transfers).
///
/// Rules:
/// - At most one delta is in flight. When the peer has confirmed it (the transfer's
///   `didFinish` without error), the next delta carries every change after it, each record
///   once, so the bytes sent grow with the records that changed, not with history.
/// - Deltas are made only while the link is up: during a partition changes accumulate in
///   the state, and reconnecting sends one delta each way.
/// - Each delta carries what the sender has applied of the receiver (`ack…`). Tombstones are
///   collected once such an ack covers them: every later delta from the peer was made after
///   it applied the delete, so nothing can bring the record back.
/// - After a store reset (corruption), the first delta carries `storeWasReset`: the peer then
///   resends everything, including what the reset replica itself had written.
/// - A delta addressed to an earlier incarnation of this store (made before the peer learnt
///   of the reset) is not applied: it may carry writes that lost to deletes this store no
///   longer knows about, and the peer resends everything it holds once it learns of the reset.
/// - A first contact (nothing ever received from the peer) is not a reset: nothing of the
///   peer's is held here to resend. Only if our deltas were confirmed before the peer's
///   first one arrived are our own changes resent, since the store that confirmed them
///   may have been lost before it spoke (the node's deltas normally cross, so this is rare).
///
/// Why a delete never comes back: a tombstone is collected here only when a delta from the
/// peer says it applied it; the channel is FIFO and exactly-once, so every later delta from
/// the peer was made after the delete, and every earlier one arrived while the tombstone was
/// still held (and lost to it). The receiver collects a received tombstone at once; if fields
/// for it come back anyway (a write made after collecting it), the tombstone holder re-sends it.
public struct ReplicaSync: Sendable, Equatable {
    /// What survives a restart (stored in the `replica_meta` table).
    public struct Persistent: Sendable, Equatable {
        /// This store's incarnation (random, chosen when the store was created).
        public var incarnation: UInt64
        /// The peer store's incarnation as last seen; 0 before the first delta.
        public var peerIncarnation: UInt64 = 0
        /// The peer's changes are all applied here up to this seq.
        public var peerWatermark: UInt64 = 0
        /// The peer confirmed it holds this replica's changes up to this seq.
        public var ackedByPeer: UInt64 = 0
        /// The delta in flight: its `upToSeq`, and how many parts are still unconfirmed.
        public var inFlightUpTo: UInt64? = nil
        /// Parts of the delta in flight not yet confirmed.
        public var inFlightPartsLeft: Int = 0
        /// The in-flight delta was addressed to a peer store that has since been reset.
        public var inFlightIsStale = false
        /// The peer lost its store: resend records it wrote itself too.
        public var resendPeerWrites = false
        /// Our store went back in time: send each record we wrote a field of whole, the peer's
        /// fields too, once (`ownStoreWentBack`).
        public var sendWholeRecords = false
        /// This store was reset: tell the peer in the next delta (sent even when empty).
        public var announceReset = false
        /// The peer sent tombstones: answer with an ack even when there is nothing else.
        public var owesAck = false
        /// After our store went back in time (`ownStoreWentBack`): the peer store it knew
        /// (0: none). If the peer's first delta then comes from another store, the peer was
        /// reset in the history we lost, and whether our complete resend reached it was lost
        /// too: everything is sent again, its writes included.
        public var formerPeerIncarnation: UInt64 = 0
        /// This store lost data (found corrupt, or went back in time) and has not yet applied
        /// a complete resend from the peer: what it lacks may be lost here only, so its own
        /// resends carry no key ranges (the peer must not take a missing record for deleted).
        public var awaitsRefill = false

        /// A new store's bookkeeping.
        public init(incarnation: UInt64) { self.incarnation = incarnation }
    }

    /// The durable part.
    public var persistent: Persistent
    /// This replica's id.
    public let replica: UInt16
    /// The peer's replica id.
    public let peer: UInt16
    /// Largest encoded part; a user-info payload is limited to 65,536 bytes.
    public var maxPartBytes: Int
    /// The last scan that found nothing to send. Not persisted; it spares a scan of every
    /// record at every event of an idle node.
    var quietScan: QuietScan?

    struct QuietScan: Sendable, Equatable {
        var seq: UInt64
        var base: UInt64
        var resend: Bool
        var whole: Bool
    }

    /// Leaves room for the user-info wrapper under `PayloadLimits.userInfoBytes`.
    public static let defaultMaxPartBytes = 60_000

    /// Sync between `replica` and `peer` with restored bookkeeping.
    public init(replica: UInt16, peer: UInt16, persistent: Persistent, maxPartBytes: Int = defaultMaxPartBytes) {
        self.replica = replica
        self.peer = peer
        self.persistent = persistent
        self.maxPartBytes = maxPartBytes
    }
}
