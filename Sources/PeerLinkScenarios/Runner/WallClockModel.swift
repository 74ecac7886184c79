import PeerLinkCore

/// A node's wall clock as scenario faults make it: true time plus a bump, a drift, or frozen.
/// The runner turns it into the node's wall offset at every clock move.
public struct WallClockModel: Sendable, Equatable {
    var offsetMs: Int64 = 0
    var driftPPM: Int64 = 0
    var driftSinceMs: EpochMs = 0
    var frozenAtWallMs: EpochMs?

    public init() {}

    /// The offset (wall − monotonic) at monotonic time `nowMs`.
    public func offset(at nowMs: EpochMs) -> Int64 {
        if let frozen = frozenAtWallMs { return frozen - nowMs }
        return offsetMs + (nowMs - driftSinceMs) * driftPPM / 1_000_000
    }

    public mutating func apply(_ change: ClockChange, at nowMs: EpochMs) {
        let current = offset(at: nowMs)
        switch change {
        case .bump(let d):
            if let f = frozenAtWallMs { frozenAtWallMs = f + d } else { rebase(current + d, at: nowMs) }
        case .drift(let ppm):
            rebase(current, at: nowMs)
            driftPPM = ppm
        case .freeze:
            frozenAtWallMs = nowMs + current
        case .unfreeze:
            frozenAtWallMs = nil
            rebase(current, at: nowMs)
        case .reset:
            self = WallClockModel()
        }
    }

    mutating func rebase(_ offset: Int64, at nowMs: EpochMs) {
        offsetMs = offset
        driftSinceMs = nowMs
    }
}
