import PeerLinkCore

/// The faults currently applied to the link between the two nodes, in virtual time.
///
/// The same settings drive the fault proxy (process mode) and the simulated network (sim
/// mode). Loss, duplication and reordering act on whole frames: the link above must cope
/// (user info retransmits, messages time out), as WatchConnectivity's transport may lose or
/// repeat what it carries when the radio link flaps.
public struct LinkFaults: Sendable, Equatable, CustomStringConvertible {
    /// Out of range: nothing passes, new connections are refused.
    public var down = false
    public var latencyMs: Int64 = 0
    /// Each frame's latency varies uniformly by ± this much (order is kept unless reordered).
    public var jitterMs: Int64 = 0
    /// Bytes per second in each direction; nil for unlimited.
    public var bandwidthBytesPerSecond: Int64?
    /// Percentages of frames dropped, sent twice, or delayed behind later frames.
    public var lossPercent: Double = 0
    public var duplicatePercent: Double = 0
    public var reorderPercent: Double = 0
    /// Percentage of records with one body byte flipped on the way (a relay tampering).
    public var tamperPercent: Double = 0
    /// Forward each frame in writes of at most this many bytes.
    public var sliceBytes: Int?
    /// Close the connection after this many bytes have crossed it (both directions).
    public var closeAfterBytes: Int64?

    public init() {}

    /// No fault at all.
    public var isClear: Bool { self == LinkFaults() }

    /// A clear link with 2 ms of latency: the simulated network's faults until set.
    public static let simulatedDefault: LinkFaults = {
        var f = LinkFaults()
        f.latencyMs = 2
        return f
    }()

    public var description: String {
        var parts: [String] = []
        if down { parts.append("down") }
        if latencyMs > 0 || jitterMs > 0 { parts.append("latency \(latencyMs)ms±\(jitterMs)ms") }
        if let b = bandwidthBytesPerSecond { parts.append("bandwidth \(b)B/s") }
        if lossPercent > 0 { parts.append("loss \(lossPercent)%") }
        if duplicatePercent > 0 { parts.append("duplicate \(duplicatePercent)%") }
        if reorderPercent > 0 { parts.append("reorder \(reorderPercent)%") }
        if tamperPercent > 0 { parts.append("tamper \(tamperPercent)%") }
        if let s = sliceBytes { parts.append("slice \(s)") }
        if let c = closeAfterBytes { parts.append("close-after \(c)") }
        return parts.isEmpty ? "clear" : parts.joined(separator: ", ")
    }
}

/// Which way a frame travels.
public enum LinkDirection: String, Sendable, Equatable, CaseIterable {
    case phoneToWatch = "phone→watch"
    case watchToPhone = "watch→phone"
}

/// Decides each frame's fate and delivery time from the faults and a seeded generator.
/// Pure: the same seed and the same sequence of frames give the same decisions.
public struct FaultPlanner: Sendable {
    public var faults = LinkFaults()
    var rng: SplitMix64
    /// The latest delivery time planned per direction (keeps order and models bandwidth).
    var lastDeliveryMs: [LinkDirection: EpochMs] = [:]
    /// How far a reordered frame is pushed back.
    public var reorderDelayMs: Int64 = 3

    public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// The next draw of the planner's generator, for a decision taken beside its plan (which
    /// byte a tampered frame has flipped): the same stream, so a seed replays.
    public mutating func nextRandom() -> UInt64 { rng.next() }

    /// A new connection starts with an empty pipe: nothing of the old one delays it.
    public mutating func resetSchedule() {
        lastDeliveryMs = [:]
    }

    /// The delivery times of a frame of `bytes` sent at `nowMs`: empty when dropped, two when
    /// duplicated. `pieces`: under a bandwidth limit, the byte offsets and times at which the
    /// first delivery's bytes arrive over its transfer time (`BandwidthPieces`); the last piece
    /// is the whole frame at its delivery time.
    public mutating func plan(bytes: Int, direction: LinkDirection, nowMs: EpochMs)
        -> (fate: FrameFate, deliverAt: [EpochMs], pieces: [(end: Int, atMs: EpochMs)]) {
        if faults.down { return (.dropped, [], []) }
        if chance(faults.lossPercent) { return (.dropped, [], []) }
        var at = nowMs + faults.latencyMs
        if faults.jitterMs > 0 { at += Int64(rng.next(in: -Int(faults.jitterMs)...Int(faults.jitterMs))) }
        var transfer: (startMs: EpochMs, endMs: EpochMs)?
        if let bw = faults.bandwidthBytesPerSecond, bw > 0 {
            let start = max(nowMs, lastDeliveryMs[direction] ?? nowMs)
            transfer = (start, start + Int64(bytes) * 1000 / bw)
            at = max(at, start + Int64(bytes) * 1000 / bw)
        }
        at = max(at, nowMs)
        var fate = FrameFate.delivered
        if chance(faults.reorderPercent) {
            fate = .reordered
            at += reorderDelayMs
        } else {
            at = max(at, lastDeliveryMs[direction] ?? at)
            lastDeliveryMs[direction] = at
        }
        var pieces = [(end: bytes, atMs: at)]
        // Not while frames are reordered: a late frame must not land inside another one.
        if let transfer, faults.reorderPercent <= 0 {
            pieces = BandwidthPieces.pieces(count: bytes, startMs: transfer.startMs, endMs: transfer.endMs,
                                            delayMs: max(0, faults.latencyMs), lastAtMs: at)
        }
        if fate == .delivered, chance(faults.tamperPercent) { return (.tampered, [at], pieces) }
        if chance(faults.duplicatePercent) { return (.duplicated, [at, at], pieces) }
        return (fate, [at], pieces)
    }

    mutating func chance(_ percent: Double) -> Bool {
        percent > 0 && rng.nextUnit() * 100 < percent
    }
}
