import PeerLinkCore

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
