/// The bound on graves (deletes whose tombstones were collected).
///
/// A grave keeps a deleted record's id and the delete's stamp after the peer confirmed the
/// delete, so a stale write can never bring the record back and the id is never handed out
/// again. Kept forever they would grow with every delete. A grave is dropped once its delete is
/// `graveLifetimeMs` old, and beyond `maxGraves` the oldest go first.
///
/// "Old" is measured against the later of the wall clock and the hybrid logical clock, and a
/// replica that receives a delta first drops the graves older than the delta's newest stamp:
/// a write can only reuse a deleted id once its writer dropped the grave, so it is stamped
/// after the grave expired, and the receiver drops its own copy before the write meets it.
/// Without that, two devices whose clocks disagree near the expiry would take a new record
/// under a reused id for a stale write of the old one and delete it.
///
/// What the bound means for a peer: a tombstone is collected only after the peer confirmed the
/// delete, so a peer that was merely away — however long — still gets every delete made
/// meanwhile. The grave matters when the peer's store goes back to before a delete it had
/// confirmed (a rolled-back store, a restored backup, a device away longer than the bound that
/// comes back with an old copy of its store): within the bound its resend of the deleted
/// record is refused and the delete sent back; older than the bound, the record comes back as
/// that store held it. And an id whose grave is gone can be handed out again only by a device
/// that lost its id counter too (a store reset: docs/PHONE.md, *Goals*).
extension ReplicaState {
    /// How long a grave is kept: 90 days from its delete.
    public static let graveLifetimeMs: Int64 = 90 * 86_400_000
    /// The most graves kept (the oldest deletes are dropped first).
    public static let maxGraves = 10_000

    /// Graves held (for tests, figures and `query graves`).
    public var graveCount: Int { graves.count }

    /// Notes a grave's expiry for the hint.
    mutating func noteGraveExpiry(_ stamp: HLCTimestamp) {
        let expiry = stamp.wallMs + Self.graveLifetimeMs
        graveExpiryHintMs = min(graveExpiryHintMs ?? expiry, expiry)
    }

    /// Drops the graves past the bound at wall time `wallMs` (or the clock's latest stamp,
    /// when later); returns how many. Cheap when none has expired (the hint) and the count is
    /// within `maxGraves`.
    @discardableResult
    public mutating func pruneGraves(wallMs: Int64) -> Int {
        guard !graves.isEmpty else { return 0 }
        let horizon = max(wallMs, clock.last.wallMs)
        if let hint = graveExpiryHintMs, hint > horizon, graves.count <= Self.maxGraves { return 0 }
        var doomed = graves.filter { $0.value.wallMs + Self.graveLifetimeMs <= horizon }.map(\.key)
        let excess = graves.count - doomed.count - Self.maxGraves
        if excess > 0 {
            let dead = Set(doomed)
            let oldest = graves.filter { !dead.contains($0.key) }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            doomed += oldest.prefix(excess).map(\.key)
        }
        for key in doomed {
            graves[key] = nil
            gravesRemoved.insert(key)
            gravesAdded.remove(key)
        }
        graveExpiryHintMs = graves.values.map { $0.wallMs + Self.graveLifetimeMs }.min()
        return doomed.count
    }
}

extension ReplicaDelta {
    /// The wall time of the newest stamp the delta carries (0 for none).
    var newestStampWallMs: Int64 {
        var newest: Int64 = 0
        for r in records {
            if let t = r.tombstone, t.wallMs > newest { newest = t.wallMs }
            for f in r.fields where f.stamp.wallMs > newest { newest = f.stamp.wallMs }
        }
        return newest
    }
}
