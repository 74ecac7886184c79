extension ReplicaSync {
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
            peerChangedSinceRollback(d.incarnation)
            persistent.peerIncarnation = d.incarnation
        } else if d.storeWasReset && persistent.ackedByPeer > 0 {
            // The peer's store announces itself again after confirming our deltas: it went back
            // to before it heard from us (a young store that lost a tail, whose link state came
            // back new so the link could not tell). Send everything again, its writes included.
            // (A second announcement sent before ours reached it costs only a repeat.)
            peerLostData()
        } else if persistent.peerIncarnation == 0 {
            peerChangedSinceRollback(d.incarnation)
            persistent.peerIncarnation = d.incarnation
        } else if d.incarnation != persistent.peerIncarnation {
            // The peer changed stores and we never heard its announcement: our own store went
            // back in time past it. Start over as a rolled-back store does (the peer resends
            // everything, our writes included) and take the peer's store as it is now, which
            // needs its own writes too (`peerChangedSinceRollback`).
            ownStoreWentBack()
            peerChangedSinceRollback(d.incarnation)
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
        // The last part of the peer's complete resend to this store: it holds all the peer has.
        if d.coverage != nil, d.isLastPart, d.ackIncarnation == persistent.incarnation { persistent.awaitsRefill = false }
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

    /// The first delta after our store went back in time comes from peer store `incarnation`:
    /// if that is not the store ours knew, the peer was reset in the history we lost, and
    /// whether our complete resend reached it was lost with it. Everything is sent again, the
    /// peer's writes included (a delete only we still hold would otherwise stay here alone,
    /// and the peer could hand out its id again).
    mutating func peerChangedSinceRollback(_ incarnation: UInt64) {
        defer { persistent.formerPeerIncarnation = 0 }
        guard persistent.formerPeerIncarnation != 0, incarnation != persistent.formerPeerIncarnation else { return }
        persistent.ackedByPeer = 0
        persistent.resendPeerWrites = true
        if persistent.inFlightUpTo != nil { persistent.inFlightIsStale = true }
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
}
