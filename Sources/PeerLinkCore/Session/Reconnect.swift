
/// The connector's (the watch's) reconnect schedule: when the shell should next try to
/// connect, backing off exponentially with jitter while attempts fail, and starting again
/// from the shortest wait once a connection stayed up (`LinkConfig.stableConnectionMs`).
///
/// The listener (the phone), and a node without a pairing secret, never schedule anything.
struct Reconnect: Sendable {
    private let sharedConfig: SharedLinkConfig
    var config: LinkConfig { sharedConfig.value }
    private var rng: SplitMix64
    /// Attempts since the backoff last started again: each doubles the wait (up to the cap).
    private(set) var attempt = 0
    /// When the shell should next try to connect; nil while an attempt or a connection is
    /// under way, and always for a listener.
    private(set) var nextConnectAtMs: EpochMs?

    init(shared: SharedLinkConfig, seed: UInt64) {
        sharedConfig = shared
        rng = SplitMix64(seed: seed)
        if isConnector { nextConnectAtMs = 0 }
    }

    /// This side connects (and so reconnects): the paired watch.
    var isConnector: Bool { config.role == .watch && config.pairingSecret != nil }

    /// The shell started connecting (or a connection came up): nothing is due until it ends.
    mutating func attemptStarted() {
        nextConnectAtMs = nil
    }

    /// An attempt failed or the link went down: the next attempt is due after the backoff.
    mutating func schedule(now: EpochMs) {
        guard isConnector else { return }
        let exp = min(Double(config.reconnectMaxMs), Double(config.reconnectInitialMs) * Self.pow2(attempt))
        let jitter = 1 + config.reconnectJitter * (2 * rng.nextUnit() - 1)
        attempt += 1
        nextConnectAtMs = now + Int64(min(Double(config.reconnectMaxMs), exp * jitter))
    }

    /// A connection that was not the link closed while no link is up: an attempt is
    /// scheduled unless one is already due.
    mutating func attemptEnded(now: EpochMs) {
        if config.role == .watch, nextConnectAtMs == nil { schedule(now: now) }
    }

    /// The link that came up at `upSinceMs` went down: only one that stayed up starts the
    /// backoff again (one dropped right after its handshake, by a relay that breaks every
    /// connection, is retried ever later).
    mutating func linkClosed(upSinceMs: EpochMs, now: EpochMs) {
        if now - upSinceMs >= config.stableConnectionMs { attempt = 0 }
    }

    private static func pow2(_ n: Int) -> Double { n >= 30 ? Double(1 << 30) : Double(1 << n) }
}
