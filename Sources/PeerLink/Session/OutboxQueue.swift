import Shared

/// One user-info stream's outbox in memory: ordered by seq, cheap removal from the front,
/// binary search for "the first item after seq" (sending resumes there).
struct OutboxQueue: Sendable, Equatable {
    private(set) var items: [OutboxItem]
    private(set) var head = 0

    init(_ items: [OutboxItem]) { self.items = items.sorted { $0.seq < $1.seq } }

    var count: Int { items.count - head }
    var isEmpty: Bool { count == 0 }
    var live: ArraySlice<OutboxItem> { items[head...] }
    var endIndex: Int { items.count }

    subscript(i: Int) -> OutboxItem { items[i] }

    mutating func append(_ item: OutboxItem) { items.append(item) }

    /// Removes and returns every item with seq ≤ `seq` (they are at the front).
    mutating func removeThrough(_ seq: UInt64) -> ArraySlice<OutboxItem> {
        let end = index(after: seq)
        let removed = items[head..<end]
        head = end
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return removed
    }

    /// Removes the item with `seq`, wherever it is.
    mutating func remove(seq: UInt64) -> OutboxItem? {
        let i = index(after: seq - 1)
        guard i < items.count, items[i].seq == seq else { return nil }
        return items.remove(at: i)
    }

    /// The index of the first live item with seq > `seq` (`endIndex` when none).
    func index(after seq: UInt64) -> Int {
        var lo = head, hi = items.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if items[mid].seq <= seq { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The chain link of the item at index `i`: the seq of the live item before it, 0 for the first.
    func prev(at i: Int) -> UInt64 { i > head ? items[i - 1].seq : 0 }

    /// Clears the "current" tag of every queued item; returns the ones changed.
    mutating func untagAll() -> [OutboxItem] {
        var changed: [OutboxItem] = []
        for i in head..<items.count where items[i].isCurrent {
            items[i].isCurrent = false
            changed.append(items[i])
        }
        return changed
    }
}
