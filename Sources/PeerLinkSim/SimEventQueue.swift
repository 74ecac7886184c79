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
    private typealias Entry = (time: EpochMs, seq: UInt64, event: SimEvent)
    private var heap: [Entry] = []
    private var nextSeq: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    var nextTime: EpochMs? { heap.first?.time }

    private static func less(_ a: Entry, _ b: Entry) -> Bool {
        a.time != b.time ? a.time < b.time : a.seq < b.seq
    }

    /// `less` of two entries in place: passing entries by value retained and released each
    /// one's bytes at every comparison, and swapping through the array did the same.
    private static func less(_ h: UnsafeMutableBufferPointer<Entry>, _ i: Int, _ j: Int) -> Bool {
        h[i].time != h[j].time ? h[i].time < h[j].time : h[i].seq < h[j].seq
    }

    mutating func push(_ time: EpochMs, _ event: SimEvent) {
        heap.append((time, nextSeq, event))
        nextSeq += 1
        heap.withUnsafeMutableBufferPointer { h in
            var i = h.count - 1
            while i > 0 {
                let p = (i - 1) / 2
                guard Self.less(h, i, p) else { break }
                h.swapAt(i, p)
                i = p
            }
        }
    }

    mutating func pop() -> (time: EpochMs, event: SimEvent)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        heap.withUnsafeMutableBufferPointer { h in
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < h.count, Self.less(h, l, m) { m = l }
                if r < h.count, Self.less(h, r, m) { m = r }
                if m == i { break }
                h.swapAt(i, m)
                i = m
            }
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
