import PeerLinkCore

/// The faults and shape of the simulated network (percentages are 0…100, per frame).
public struct NetworkFaults: Sendable, Equatable {
    /// One-way latency of every delivery.
    public var latencyMs: Int64 = 2
    /// Extra latency, uniform in 0…jitterMs (in-order frames never overtake each other).
    public var jitterMs: Int64 = 0
    /// Bandwidth per direction in bytes per millisecond; nil for unlimited.
    public var bytesPerMs: Int? = nil
    /// Bandwidth per direction in bytes per second (for rates below 1 byte/ms); nil for unlimited.
    public var bytesPerSecond: Int64? = nil
    /// Frames lost.
    public var lossPercent: Double = 0
    /// Frames delivered twice.
    public var duplicatePercent: Double = 0
    /// Frames held back so that later frames overtake them.
    public var reorderPercent: Double = 0
    /// Frames with one byte of a record body flipped on the way (`RecordTamper`).
    public var tamperPercent: Double = 0
    /// Writes are delivered in pieces of at most this many bytes (nil: whole).
    public var sliceBytes: Int? = nil
    /// A connection is closed after carrying this many bytes (both directions; nil: never).
    public var closeAfterBytes: Int? = nil

    public init() {}

    /// No faults, 2 ms latency.
    public static let clean = NetworkFaults()
}

/// What happened to a frame in the simulated network (the trace's last word).
public enum FrameFate: String, Sendable {
    case delivered, dropped, duplicated, reordered, tampered
}

/// A timed event of the simulated network.
enum SimEvent: Sendable {
    /// Bytes arrive at `to` on connection `conn` (of `generation` of that node).
    case bytes(conn: ConnectionID, to: DeviceRole, generation: Int, bytes: [UInt8])
    /// `to` learns that connection `conn` closed.
    case closed(conn: ConnectionID, to: DeviceRole, generation: Int)
    /// The watch's connection attempt completes (or fails).
    case connectDone(watchGeneration: Int)
}

/// A priority queue of events by (time, insertion order): equal times keep their order.
struct SimEventQueue: Sendable {
    private var heap: [(time: EpochMs, seq: UInt64, event: SimEvent)] = []
    private var nextSeq: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    var nextTime: EpochMs? { heap.first?.time }

    private static func less(_ a: (time: EpochMs, seq: UInt64, event: SimEvent), _ b: (time: EpochMs, seq: UInt64, event: SimEvent)) -> Bool {
        a.time != b.time ? a.time < b.time : a.seq < b.seq
    }

    mutating func push(_ time: EpochMs, _ event: SimEvent) {
        heap.append((time, nextSeq, event))
        nextSeq += 1
        var i = heap.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            guard Self.less(heap[i], heap[p]) else { break }
            heap.swapAt(i, p)
            i = p
        }
    }

    mutating func pop() -> (time: EpochMs, event: SimEvent)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count, Self.less(heap[l], heap[m]) { m = l }
            if r < heap.count, Self.less(heap[r], heap[m]) { m = r }
            if m == i { break }
            heap.swapAt(i, m)
            i = m
        }
        return (top.time, top.event)
    }

    /// Removes every event matching `drop`.
    mutating func removeAll(where drop: (SimEvent) -> Bool) {
        let kept = heap.filter { !drop($0.event) }
        heap = []
        for e in kept.sorted(by: { Self.less($0, $1) }) { heap.append(e) }
    }
}
