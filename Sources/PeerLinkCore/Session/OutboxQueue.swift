
/// One user-info stream's outbox in memory: ordered by seq, cheap removal from the front,
/// binary search for "the first item after seq" (sending resumes there).
struct OutboxQueue: Sendable, Equatable {
    private(set) var items: [OutboxItem]
    private(set) var head = 0
    /// How many live items are cancelled and await the peer's answer (see `OutboxItem.isCancelled`).
    private(set) var cancelledCount = 0
    /// Payload bytes of the items up to and including each index, from `origin` (what
    /// `bytes(from:to:)` subtracts).
    private var ends: [Int] = []
    private var origin = 0

    init(_ items: [OutboxItem]) {
        self.items = items.sorted { $0.seq < $1.seq }
        cancelledCount = items.count { $0.isCancelled }
        rebuildEnds(from: 0)
    }

    /// Recomputes `ends` from index `i` on.
    private mutating func rebuildEnds(from i: Int) {
        ends.removeSubrange(min(i, ends.count)...)
        var total = i > 0 ? ends[i - 1] : origin
        for j in i..<items.count {
            total += items[j].encoded.count
            ends.append(total)
        }
    }

    /// The payload bytes of the items at indices `lo..<hi`.
    func bytes(from lo: Int, to hi: Int) -> Int {
        guard hi > lo else { return 0 }
        return ends[hi - 1] - (lo > 0 ? ends[lo - 1] : origin)
    }

    var count: Int { items.count - head }
    var isEmpty: Bool { count == 0 }
    var live: ArraySlice<OutboxItem> { items[head...] }
    var endIndex: Int { items.count }

    subscript(i: Int) -> OutboxItem { items[i] }

    mutating func append(_ item: OutboxItem) {
        items.append(item)
        ends.append((ends.last ?? origin) + item.encoded.count)
        if item.isCancelled { cancelledCount += 1 }
    }

    /// Removes every cancelled item; returns their seqs.
    mutating func removeCancelled() -> [UInt64] {
        let seqs = live.filter(\.isCancelled).map(\.seq)
        let kept = live.filter { !$0.isCancelled }
        items.replaceSubrange(head..., with: kept)
        cancelledCount = 0
        rebuildEnds(from: head)
        return seqs
    }

    /// Removes and returns every item with seq ≤ `seq` (they are at the front).
    mutating func removeThrough(_ seq: UInt64) -> ArraySlice<OutboxItem> {
        let end = index(after: seq)
        let removed = items[head..<end]
        if cancelledCount > 0 { cancelledCount -= removed.count { $0.isCancelled } }
        head = end
        if head > 1024 && head * 2 > items.count {
            origin = ends[head - 1]
            items.removeFirst(head)
            ends.removeFirst(head)
            head = 0
        }
        return removed
    }

    /// The index of the live item with `seq`, nil when there is none.
    func index(of seq: UInt64) -> Int? {
        let i = index(after: seq - 1)
        return i < items.count && items[i].seq == seq ? i : nil
    }

    /// The live item with `seq`, nil when there is none.
    func item(seq: UInt64) -> OutboxItem? { index(of: seq).map { items[$0] } }

    /// Removes the item with `seq`, wherever it is.
    @discardableResult
    mutating func remove(seq: UInt64) -> OutboxItem? {
        guard let i = index(of: seq) else { return nil }
        if items[i].isCancelled { cancelledCount -= 1 }
        let removed = items.remove(at: i)
        rebuildEnds(from: i)
        return removed
    }

    /// Marks the item with `seq` cancelled; returns it (nil when there is none).
    mutating func markCancelled(seq: UInt64) -> OutboxItem? {
        guard let i = index(of: seq) else { return nil }
        if !items[i].isCancelled { items[i].isCancelled = true; cancelledCount += 1 }
        return items[i]
    }

    /// The seq of the first cancelled item (nil when none): nothing after it may be sent.
    var firstCancelledSeq: UInt64? {
        guard cancelledCount > 0 else { return nil }
        return live.first { $0.isCancelled }?.seq
    }

    /// The live items that are not cancelled (`outstandingUserInfoTransfers`).
    var outstanding: [OutboxItem] { cancelledCount == 0 ? Array(live) : live.filter { !$0.isCancelled } }

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
