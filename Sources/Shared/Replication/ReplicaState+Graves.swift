/// The bound on graves (deletes whose tombstones were collected).
///
/// A grave keeps a deleted record's id and the delete's stamp after the peer confirmed the
/// delete, so a stale write can never bring the record back and the id is never handed out
/// again. Kept forever they would grow with every delete. A grave is dropped once its delete is
/// `graveLifetimeMs` old (by the stamp's wall time against this replica's wall clock), and
/// beyond `maxGraves` the oldest go first.
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

    /// Drops the graves past the bound at wall time `wallMs`; returns how many. Cheap when
    /// none has expired (the hint) and the count is within `maxGraves`.
    @discardableResult
    public mutating func pruneGraves(wallMs: Int64) -> Int {
        guard !graves.isEmpty else { return 0 }
        if let hint = graveExpiryHintMs, hint > wallMs, graves.count <= Self.maxGraves { return 0 }
        var doomed = graves.filter { $0.value.wallMs + Self.graveLifetimeMs <= wallMs }.map(\.key)
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
