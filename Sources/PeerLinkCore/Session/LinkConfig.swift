
/// Settings of a link session. Every limit and timeout is here, named with its unit.
public struct LinkConfig: Sendable, Equatable {
    /// Which device this session runs on.
    public var role: DeviceRole
    /// The shared pairing secret (the Noise pre-shared key, `pairingSecretBytes` of real
    /// entropy); nil when this node is not paired (it then refuses peers, and a watch does
    /// not dial).
    public var pairingSecret: [UInt8]?
    /// The size of a pairing secret.
    public static let pairingSecretBytes = 32
    /// The AEAD of protocol 2's handshake and sealed records: AES-256-GCM, which measured
    /// faster than ChaCha20-Poly1305 on the project's machine (AES-NI; docs/BENCHMARKS.md).
    public static let protocolCipher: AEADCipher = .aesGCM
    /// The AEAD this node seals with. Part of the protocol: both sides MUST use the same;
    /// only tests and benchmarks set another than `protocolCipher`.
    public var cipher: AEADCipher = protocolCipher
    /// After this many bytes of sealed records under one key, each direction's key is
    /// replaced by `REKEY(k)`. Part of the protocol (16 MiB): both sides MUST agree.
    public var rekeyAfterBytes: Int = 16 << 20

    /// Connection limits (handshakes, slow frames, the refusal log).
    public var connections = ConnectionLimits()
    /// Timers (liveness, retransmission, reconnect, message replies).
    public var timers = LinkTimers()
    /// Transfer windows and sizes.
    public var transfers = TransferLimits()

    public init(role: DeviceRole, pairingSecret: [UInt8]?) {
        self.role = role
        self.pairingSecret = pairingSecret
    }
}

/// The limits a connection meets before and while it is up (what an attacker meets too).
public struct ConnectionLimits: Sendable, Equatable {
    /// A connection that has not authenticated within this time is closed.
    public var handshakeTimeoutMs: Int64 = 5_000
    /// At most this many connections may be in the handshake at once (the listener's):
    /// when another opens, the oldest is refused.
    public var maxHandshakes: Int = 32
    /// What the connections in the handshake may hold in received bytes, together; over
    /// it, the oldest are refused.
    public var maxHandshakeBufferedBytes: Int = 16 << 10
    /// The slowest link a frame may cross: a frame that started arriving MUST be complete
    /// within `peerSilenceTimeoutMs` plus its size at this rate, or the connection is closed
    /// (a peer that trickles bytes does not hold it open).
    public var minLinkBytesPerSecond: Int64 = 1_000
    /// Refused connections logged one by one per `refusalLogIntervalMs`; beyond that they
    /// are counted and summarised in one line at the interval's end.
    public var refusalLogBurst: Int = 10
    public var refusalLogIntervalMs: Int64 = 60_000

    public init() {}
}

/// The link's timers: liveness, retransmission, reconnecting, message replies.
public struct LinkTimers: Sendable, Equatable {
    /// A connection that stayed up this long resets the reconnect backoff when it drops; one
    /// that drops sooner (a link refused right after each handshake) is retried ever later.
    public var stableConnectionMs: Int64 = 10_000
    /// A ping is sent after this much time without sending anything.
    public var heartbeatIntervalMs: Int64 = 2_000
    /// A peer silent this long is declared gone: the connection is closed, unreachable.
    public var peerSilenceTimeoutMs: Int64 = 7_000
    /// Unacknowledged transfers (user info, context, file chunks) are sent again after this
    /// long without progress (doubling after each retransmission without progress, up to 16×).
    public var retransmitAfterMs: Int64 = 1_500
    /// Reconnect backoff: first delay, cap, and jitter as a fraction of the delay.
    public var reconnectInitialMs: Int64 = 250
    public var reconnectMaxMs: Int64 = 30_000
    public var reconnectJitter: Double = 0.2
    /// `sendMessage`: no reply (or receipt) within this time fails with `messageReplyTimedOut`.
    public var messageReplyTimeoutMs: Int64 = 5_000

    public init() {}
}

/// The windows and sizes of the channels' transfers.
public struct TransferLimits: Sendable, Equatable {
    /// At most this many user-info transfers per stream are on the wire unacknowledged…
    public var maxUserInfoInFlight: Int = 8_192
    /// …and at most this many bytes of their payloads (with the file window, this bounds
    /// what a connection's output can hold).
    public var maxUserInfoInFlightBytes: Int = 4 << 20
    /// File content per `fileChunk` frame (at most `FrameBodies.maxFileChunkBytes`). The
    /// default fills four sealed records exactly with the chunk's header (at most 20 bytes):
    /// 256 KiB would spill a few bytes into a fifth.
    public var fileChunkBytes: Int = 4 * SecureChannel.maxFragmentBytes - 20
    /// File bytes sent beyond what the receiver acknowledged. It must exceed
    /// `fileSyncIntervalBytes` (the receiver acknowledges only what it committed). 6 MiB
    /// rather than more keeps what is sent warm in the cache: over loopback, 32 MiB (with 8 MiB
    /// commits) moved a file about 40 % slower (`sync-bench link`).
    public var fileWindowBytes: Int64 = 6 << 20
    /// The receiver syncs and commits a file's content (the point a resume starts from)
    /// every this many bytes.
    public var fileSyncIntervalBytes: Int64 = 2 << 20
    /// The receiver reports progress (its committed offset) every this many bytes received,
    /// so a slow link is not mistaken for a lost one.
    public var fileAckIntervalBytes: Int64 = 1 << 20
    /// A file whose SHA-256 mismatches this many times fails with `deliveryFailed`.
    public var maxFileVerifyFailures: Int = 3
    /// `transferCurrentComplicationUserInfo` budget per local calendar day.
    public var complicationTransfersPerDay: Int = 50
    /// How many recent message ids the receiver remembers to drop duplicates.
    public var recentMessageIDsKept: Int = 256

    public init() {}
}
