import PeerLinkCore

/// The rate limit on mirroring live workout data to the phone
/// (`sendToRemoteWorkoutSession`: 100 KB per 10 s).
///
/// Window: **sliding**. A send of `b` bytes at `t` occupies `b` bytes of budget for
/// `t ≤ now < t + windowMs`; a payload is sent when the bytes still occupied plus its own
/// size are at most `maxBytesPerWindow`. A sliding window never lets 200 KB through around
/// a fixed window's boundary, which a fixed window would.
///
/// "100 KB" is taken as 100,000 bytes (the smaller reading, so we never exceed Apple's limit
/// whichever one Apple means). Sizes are canonical-encoding sizes of the payload.
///
/// A skipped payload is dropped, not queued: mirrored metrics are live values, and the next
/// tick carries newer ones.
public struct MirrorBudget: Sendable, Hashable {
    /// Bytes allowed within one window.
    public static let maxBytesPerWindow = 100_000
    /// The window length, ms.
    public static let windowMs: Int64 = 10_000
    /// The most sends remembered in one window; beyond it a payload is skipped (a flood of
    /// tiny payloads must not grow memory without bound).
    public static let maxSendsPerWindow = 1_000

    /// Whether a payload may go now.
    public enum Decision: Sendable, Hashable {
        case send
        case skip(SkipReason)

        /// True for `.send`.
        public var isSend: Bool { self == .send }
    }

    /// Why a payload was skipped.
    public enum SkipReason: Sendable, Hashable, CustomStringConvertible {
        /// The window is full; budget frees at `retryAtMs` at the latest.
        case overBudget(usedBytes: Int, retryAtMs: EpochMs)
        /// A single payload bigger than the whole window's budget can never go.
        case payloadTooLarge(bytes: Int)
        /// Mirroring is not running (no workout, or the workout has ended).
        case notMirroring
        /// `maxSendsPerWindow` sends are already in the window.
        case tooManySends

        /// For logs.
        public var description: String {
            switch self {
            case .overBudget(let used, let retry): "mirror budget full (\(used) bytes in window), retry at \(retry)"
            case .payloadTooLarge(let b): "mirror payload of \(b) bytes exceeds \(MirrorBudget.maxBytesPerWindow)"
            case .notMirroring: "not mirroring"
            case .tooManySends: "more than \(MirrorBudget.maxSendsPerWindow) mirror sends in one window"
            }
        }
    }

    /// Sends still inside the window: (time, bytes), oldest first.
    public private(set) var recentSends: [Send] = []
    /// False before a workout starts mirroring and after it ends.
    public private(set) var isMirroring: Bool

    /// One recorded send.
    public struct Send: Sendable, Hashable {
        public var atMs: EpochMs
        public var bytes: Int
    }

    /// A budget; `isMirroring` says whether a workout is mirroring yet.
    public init(isMirroring: Bool = true) {
        self.isMirroring = isMirroring
    }

    // MARK: - Decisions

    /// Bytes occupied in the window that ends at `nowMs`.
    public func usedBytes(at nowMs: EpochMs) -> Int {
        recentSends.lazy.filter { $0.atMs + Self.windowMs > nowMs }.reduce(0) { $0 + $1.bytes }
    }

    /// Decides whether `bytes` may be mirrored at `nowMs`, and records the send when it may.
    /// A time earlier than the last send counts as the last send's time (clocks are
    /// monotonic in the shells; this keeps a stray value from freeing budget early).
    public mutating func consider(bytes: Int, now nowMs: EpochMs) -> Decision {
        guard isMirroring else { return .skip(.notMirroring) }
        let now = max(nowMs, recentSends.last?.atMs ?? nowMs)
        // Sends are recorded in time order (each at the latest time so far), so the ones that
        // left the window are a prefix.
        var left = 0
        while left < recentSends.count, recentSends[left].atMs + Self.windowMs <= now { left += 1 }
        if left > 0 { recentSends.removeFirst(left) }
        let size = max(0, bytes)
        guard size <= Self.maxBytesPerWindow else { return .skip(.payloadTooLarge(bytes: size)) }
        guard recentSends.count < Self.maxSendsPerWindow else { return .skip(.tooManySends) }
        var used = 0
        for s in recentSends { used += s.bytes }
        guard used + size <= Self.maxBytesPerWindow else {
            return .skip(.overBudget(usedBytes: used, retryAtMs: retryTime(for: size, now: now)))
        }
        recentSends.append(Send(atMs: now, bytes: size))
        return .send
    }

    /// The earliest time at which enough old sends have left the window for `size` bytes.
    func retryTime(for size: Int, now: EpochMs) -> EpochMs {
        var used = recentSends.reduce(0) { $0 + $1.bytes }
        for s in recentSends {
            used -= s.bytes
            if used + size <= Self.maxBytesPerWindow { return s.atMs + Self.windowMs }
        }
        return now
    }

    // MARK: - Mirroring on and off

    /// Starts mirroring (a workout started or was recovered); the window's history is kept,
    /// as the limit is on the link, not on one workout.
    public mutating func startMirroring() { isMirroring = true }

    /// Stops mirroring: the workout ended. Every later `consider` skips.
    public mutating func stopMirroring() { isMirroring = false }
}
