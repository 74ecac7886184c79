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

    // MARK: - Sending

    /// The next delta, split into parts, when one is due and none is in flight; marks it in flight.
    public mutating func makeDelta(from state: ReplicaState) -> [ReplicaDelta]? {
        guard persistent.inFlightUpTo == nil else { return nil }
        let base = persistent.ackedByPeer
        let mustSend = persistent.announceReset || persistent.owesAck
        let scan = QuietScan(seq: state.seq, base: base, resend: persistent.resendPeerWrites, whole: persistent.sendWholeRecords)
        if !mustSend, quietScan == scan { return nil }
        let records = state.changes(after: base, excludingWriter: persistent.resendPeerWrites ? nil : peer,
                                    wholeRecords: persistent.sendWholeRecords)
        guard !records.isEmpty || mustSend else {
            quietScan = scan
            return nil
        }
        let template = ReplicaDelta(
            origin: replica, incarnation: persistent.incarnation, baseSeq: base, upToSeq: state.seq,
            ackIncarnation: persistent.peerIncarnation, ackSeq: persistent.peerWatermark,
            records: [])
        let complete = base == 0 && persistent.resendPeerWrites
        var all = records
        if complete {
            // A peer that lost data learns every delete too, collected ones included.
            all += state.graves.map { DeltaRecord(key: $0.key, fields: [], tombstone: $0.value) }
            all.sort { $0.key < $1.key }
        }
        var parts = split(all, template: template)
        if persistent.announceReset { for i in parts.indices { parts[i].storeWasReset = true } }
        if complete {
            // Each part covers the keys after the previous part's last one, up to its own last
            // (the first and the last part are open-ended).
            for i in parts.indices {
                parts[i].coverage = DeltaCoverage(from: i == 0 ? nil : parts[i - 1].records.last?.key,
                                                  through: i == parts.count - 1 ? nil : parts[i].records.last?.key)
            }
        }
        persistent.inFlightUpTo = state.seq
        persistent.inFlightPartsLeft = parts.count
        persistent.inFlightIsStale = false
        persistent.owesAck = false
        return parts
    }

    private func split(_ records: [DeltaRecord], template: ReplicaDelta) -> [ReplicaDelta] {
        var parts: [[DeltaRecord]] = [[]]
        var size = 64
        for r in records {
            let s = Self.approximateSize(r)
            if size + s > maxPartBytes, !parts[parts.count - 1].isEmpty {
                parts.append([])
                size = 64
            }
            parts[parts.count - 1].append(r)
            size += s
        }
        return parts.enumerated().map { i, recs in
            var d = template
            d.part = i
            d.partCount = parts.count
            d.records = recs
            return d
        }
    }

    /// An upper bound of the record's encoded size (ids and names counted in full).
    static func approximateSize(_ r: DeltaRecord) -> Int {
        var n = r.key.id.utf8.count + 24
        for f in r.fields { n += f.name.utf8.count + 24 + CanonicalEncoding.encodedSize(f.value) }
        return n
    }

    /// One part of the in-flight delta reached the peer's store.
    public mutating func onPartConfirmed() {
        guard let upTo = persistent.inFlightUpTo else { return }
        persistent.inFlightPartsLeft -= 1
        if persistent.inFlightPartsLeft <= 0 {
            if !persistent.inFlightIsStale {
                persistent.ackedByPeer = max(persistent.ackedByPeer, upTo)
                persistent.announceReset = false
                persistent.resendPeerWrites = false
                persistent.sendWholeRecords = false
            }
            persistent.inFlightUpTo = nil
            persistent.inFlightPartsLeft = 0
            persistent.inFlightIsStale = false
        }
    }

    /// A part could not be delivered (cancelled or failed): the next delta covers it again.
    public mutating func onPartFailed() {
        persistent.inFlightUpTo = nil
        persistent.inFlightPartsLeft = 0
        persistent.inFlightIsStale = false
    }

    // MARK: - Receiving

    /// What applying a received part did.
    public struct Received: Sendable, Equatable {
        /// Records whose visible state or tombstone changed here.
        public var recordsChanged: Int
        /// Tombstones removed: received ones, and ours the peer acknowledged.
        public var tombstonesCollected: Int
        /// The peer announced a store reset (not on first contact).
        public var peerWasReset: Bool
        /// Set when the part was not applied, and why.
        public var ignored: Ignored?
    }

    /// Why a received part was not applied.
    public enum Ignored: Sendable, Equatable {
        /// It came from another replica id than the peer's.
        case wrongOrigin(UInt16)
        /// It was made for an earlier incarnation of this store (before its reset).
        case addressedToEarlierStore(UInt64)
    }

    /// Applies a part received from the peer and updates watermarks and tombstones.
    public mutating func receive(_ d: ReplicaDelta, into state: inout ReplicaState, wallMs: Int64) -> Received {
        guard d.origin == peer else {
            return Received(recordsChanged: 0, tombstonesCollected: 0, peerWasReset: false, ignored: .wrongOrigin(d.origin))
        }
        var peerWasReset = false
        if d.storeWasReset && d.incarnation != persistent.peerIncarnation {
            if persistent.peerIncarnation != 0 {
                // The peer starts again from nothing: it needs everything, its own writes included.
                peerWasReset = true
                persistent.peerWatermark = 0
                persistent.ackedByPeer = 0
                persistent.resendPeerWrites = true
                if persistent.inFlightUpTo != nil { persistent.inFlightIsStale = true }
            } else if state.holdsWrites(of: peer) {
                // First contact of this store, yet it holds the peer's writes: an earlier store
                // of ours heard from the peer (ours went back and started a new incarnation,
                // forgetting which peer store it knew). The peer starts from nothing: it needs
                // everything, its own writes and every delete included.
                persistent.ackedByPeer = 0
                persistent.resendPeerWrites = true
                if persistent.inFlightUpTo != nil { persistent.inFlightIsStale = true }
            } else if persistent.ackedByPeer > 0 {
                // First contact, but a store we never heard from confirmed our deltas: it may
                // have been lost before it spoke. Resend our changes (we hold none of its).
                persistent.ackedByPeer = 0
                if persistent.inFlightUpTo != nil { persistent.inFlightIsStale = true }
            }
            persistent.peerIncarnation = d.incarnation
        } else if d.storeWasReset && persistent.ackedByPeer > 0 {
            // The peer's store announces itself again after confirming our deltas: it went back
            // to before it heard from us (a young store that lost a tail, whose link state came
            // back new so the link could not tell). Send everything again, its writes included.
            // (A second announcement sent before ours reached it costs only a repeat.)
            peerLostData()
        } else if persistent.peerIncarnation == 0 {
            persistent.peerIncarnation = d.incarnation
        } else if d.incarnation != persistent.peerIncarnation {
            // The peer changed stores and we never heard its announcement: our own store went
            // back in time past it. Start over as a rolled-back store does (the peer resends
            // everything, our writes included) and take the peer's store as it is now.
            ownStoreWentBack()
            persistent.peerIncarnation = d.incarnation
            return Received(recordsChanged: 0, tombstonesCollected: 0, peerWasReset: false,
                            ignored: .addressedToEarlierStore(d.ackIncarnation))
        }
        guard d.ackIncarnation == 0 || d.ackIncarnation == persistent.incarnation else {
            // The peer still writes to a store of ours that is gone: tell it which one is here
            // (the announcement makes it resend everything to this one).
            persistent.announceReset = true
            return Received(recordsChanged: 0, tombstonesCollected: 0, peerWasReset: peerWasReset,
                            ignored: .addressedToEarlierStore(d.ackIncarnation))
        }
        // Graves past their bound go before the delta meets them, measured up to the delta's
        // newest stamp (ReplicaState+Graves.swift).
        state.pruneGraves(wallMs: max(wallMs, d.newestStampWallMs))
        var changed = state.apply(d, wallMs: wallMs)
        if let coverage = d.coverage { changed += prune(coverage, present: d.records, state: &state, wallMs: wallMs) }
        var collected = 0
        var receivedTombstones = false
        for r in d.records where r.tombstone != nil {
            receivedTombstones = true
            if state.collectTombstone(r.key) { collected += 1 }
        }
        if receivedTombstones { persistent.owesAck = true }
        if d.incarnation == persistent.peerIncarnation, d.isLastPart, d.baseSeq <= persistent.peerWatermark {
            persistent.peerWatermark = max(persistent.peerWatermark, d.upToSeq)
        }
        if d.ackIncarnation == persistent.incarnation, d.ackSeq > 0 {
            // The peer applied everything of ours up to ackSeq (even if the confirmation of
            // the transfer that carried it has not reached us yet).
            collected += state.collectTombstones(upTo: d.ackSeq)
        }
        if collected > 0 { state.pruneGraves(wallMs: wallMs) }
        return Received(recordsChanged: changed, tombstonesCollected: collected, peerWasReset: peerWasReset, ignored: nil)
    }

    /// A complete resend from the peer covers `coverage`: a live record of ours in that range
    /// that the peer does not hold, and that the peer wrote some field of, was deleted there
    /// (its tombstone since collected): it is deleted here too. Records only we wrote may be
    /// news to the peer and stay. Returns how many were deleted.
    mutating func prune(_ coverage: DeltaCoverage, present: [DeltaRecord], state: inout ReplicaState, wallMs: Int64) -> Int {
        let held = Set(present.map(\.key))
        var doomed: [RecordKey] = []
        for (key, entry) in state.records where entry.isLive && coverage.contains(key) && !held.contains(key) {
            if state.schema.isGrowOnly(key.collection) { continue }
            if entry.registers.contains(where: { $0.register.stamp.replica == peer }) { doomed.append(key) }
        }
        for key in doomed.sorted() { state.delete(key, wallMs: wallMs) }
        return doomed.count
    }

    /// The peer's store went back in time (its write-ahead log lost a tail it had already
    /// acknowledged): it keeps its incarnation but lacks changes it confirmed. Everything is
    /// sent again, the peer's own writes included; merging makes the repeats harmless.
    public mutating func peerLostData() {
        persistent.ackedByPeer = 0
        persistent.resendPeerWrites = true
        if persistent.inFlightUpTo != nil { persistent.inFlightIsStale = true }
    }

    /// Our own store went back in time: it keeps what it has but lacks changes it had sent or
    /// received. It starts a new incarnation as a reset store does (deltas made for the old one
    /// are ignored) and announces it, so the peer resends everything, our own writes included.
    /// Its announcement carries each record we wrote a field of whole, the peer's fields too: a
    /// record the peer deleted meanwhile and whose grave it has since dropped (90 days) comes
    /// back as this store held it, not with our fields only (the peer's are held only here
    /// now; without them the two would never agree). Records only the peer wrote stay out: the
    /// peer's complete resend brings back those it holds and drops the others here (coverage).
    /// The new incarnation is derived from the old one, so a simulated run stays deterministic.
    public mutating func ownStoreWentBack() {
        var h = SHA256()
        var w = ByteWriter(capacity: 24)
        w.writeUInt64BE(persistent.incarnation)
        w.writeBytes(Array("rolled back".utf8))
        h.update(w.bytes)
        let next = h.finish().prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } | 1
        storeWasReset(newIncarnation: next)
        persistent.sendWholeRecords = true
    }

    /// This store was found corrupt and started empty with a new incarnation.
    public mutating func storeWasReset(newIncarnation: UInt64) {
        persistent = Persistent(incarnation: newIncarnation)
        persistent.announceReset = true
        quietScan = nil
    }
}
