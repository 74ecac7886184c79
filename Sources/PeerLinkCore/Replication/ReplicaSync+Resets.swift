extension ReplicaSync {
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
    /// The peer store it knew is kept aside (`formerPeerIncarnation`): if the peer speaks from
    /// another one, that store was reset in the lost history and needs its own writes too.
    public mutating func ownStoreWentBack() {
        // Gone back again before the peer spoke: the store it knew is still the one to address.
        let knownPeer = persistent.peerIncarnation != 0 ? persistent.peerIncarnation : persistent.formerPeerIncarnation
        var h = SHA256()
        var w = ByteWriter(capacity: 24)
        w.writeUInt64BE(persistent.incarnation)
        w.writeBytes(Array("rolled back".utf8))
        w.withUnsafeBytes { h.update($0) }
        let next = h.finish().prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } | 1
        storeWasReset(newIncarnation: next)
        persistent.sendWholeRecords = true
        persistent.formerPeerIncarnation = knownPeer
    }

    /// This store was found corrupt and started empty with a new incarnation (or, with
    /// `lostData` false, is a node's first store, which announces itself the same way).
    public mutating func storeWasReset(newIncarnation: UInt64, lostData: Bool = true) {
        persistent = Persistent(incarnation: newIncarnation)
        persistent.announceReset = true
        persistent.awaitsRefill = lostData
        quietScan = nil
    }
}
