import PeerLinkCore

/// How a frame crosses a link of limited bandwidth: in pieces over its transfer time, as a
/// TCP stream delivers it, rather than whole at the end. A receiver then sees the bytes of a
/// long frame arrive (and counts its peer as alive) while the frame is still crossing.
///
/// Pure arithmetic: both fault shells (the simulated network and the fault proxy) use it,
/// and it draws nothing at random, so a seed's trace stays the same run after run.
public enum BandwidthPieces {
    /// A piece arrives every this much transfer time (well under the heartbeat interval).
    public static let intervalMs: EpochMs = 1_000

    /// The pieces of a frame of `count` bytes whose transfer runs from `startMs` to `endMs`,
    /// each arriving `delayMs` (latency) after its bytes left: `(end, atMs)` with `end` the
    /// byte offset the piece ends at. The last piece ends at `count` and arrives at `lastAtMs`
    /// (the frame's arrival); no piece arrives after it. A frame crossing within
    /// `intervalMs` is one piece.
    public static func pieces(count: Int, startMs: EpochMs, endMs: EpochMs, delayMs: EpochMs,
                              lastAtMs: EpochMs) -> [(end: Int, atMs: EpochMs)] {
        var out: [(end: Int, atMs: EpochMs)] = []
        let durationMs = endMs - startMs
        var t = intervalMs
        while t < durationMs {
            let end = Int(Int64(count) * t / durationMs)
            if end > (out.last?.end ?? 0), end < count { out.append((end, min(startMs + t + delayMs, lastAtMs))) }
            t += intervalMs
        }
        out.append((count, lastAtMs))
        return out
    }
}
