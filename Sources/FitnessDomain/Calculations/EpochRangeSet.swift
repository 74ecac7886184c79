import PeerLinkCore

/// A half-open span of time `[startMs, endMs)`.
public struct EpochRange: Sendable, Hashable, Codable, CustomStringConvertible {
    public var startMs: EpochMs
    public var endMs: EpochMs

    /// A span from `startMs` up to (not including) `endMs`; an inverted pair becomes empty at `startMs`.
    public init(startMs: EpochMs, endMs: EpochMs) {
        self.startMs = startMs
        self.endMs = max(startMs, endMs)
    }

    /// Length in milliseconds (0 when empty).
    public var durationMs: Int64 { endMs - startMs }
    /// True when the span holds no time.
    public var isEmpty: Bool { endMs <= startMs }

    /// True when `ms` lies inside the span (start included, end excluded).
    public func contains(_ ms: EpochMs) -> Bool { startMs <= ms && ms < endMs }

    /// The overlap of two spans, or nil when they share no time.
    public func clamped(to other: EpochRange) -> EpochRange? {
        let s = max(startMs, other.startMs), e = min(endMs, other.endMs)
        return s < e ? EpochRange(startMs: s, endMs: e) : nil
    }

    public var description: String { "[\(startMs), \(endMs))" }
}

/// A union of time spans, kept as sorted, disjoint, non-adjacent ranges.
///
/// Used to merge overlapping samples (sleep across sources) and to know which time a
/// higher-priority source already covers (statistics de-duplication). Queries are
/// logarithmic in the number of ranges plus the number of ranges they touch.
public struct EpochRangeSet: Sendable, Hashable {
    /// The disjoint ranges, sorted by start; no two touch.
    public private(set) var ranges: [EpochRange] = []

    /// The empty set.
    public init() {}

    /// The union of `ranges` (empty ones are dropped).
    public init<S: Sequence>(_ ranges: S) where S.Element == EpochRange {
        let sorted = ranges.filter { !$0.isEmpty }.sorted { ($0.startMs, $0.endMs) < ($1.startMs, $1.endMs) }
        var out: [EpochRange] = []
        out.reserveCapacity(sorted.count)
        for r in sorted {
            if let last = out.last, r.startMs <= last.endMs {
                out[out.count - 1].endMs = max(last.endMs, r.endMs)
            } else {
                out.append(r)
            }
        }
        self.ranges = out
    }

    // MARK: - Queries

    /// True when the set covers no time.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Total covered time in milliseconds.
    public var totalMs: Int64 { ranges.reduce(0) { $0 + $1.durationMs } }

    /// True when some range contains `ms`.
    public func contains(_ ms: EpochMs) -> Bool {
        let i = firstIndex(endingAfter: ms)
        return i < ranges.count && ranges[i].contains(ms)
    }

    /// How much of `range` the set covers, in milliseconds.
    public func coveredMs(of range: EpochRange) -> Int64 {
        var total: Int64 = 0
        var i = firstIndex(endingAfter: range.startMs)
        while i < ranges.count, ranges[i].startMs < range.endMs {
            if let overlap = ranges[i].clamped(to: range) { total += overlap.durationMs }
            i += 1
        }
        return total
    }

    /// How much of `range` the set leaves uncovered, in milliseconds.
    public func uncoveredMs(of range: EpochRange) -> Int64 { range.durationMs - coveredMs(of: range) }

    /// The part of the set inside `window`.
    public func clamped(to window: EpochRange) -> EpochRangeSet {
        EpochRangeSet(ranges.compactMap { $0.clamped(to: window) })
    }

    // MARK: - Updates

    /// Adds every range of `other`.
    public mutating func formUnion(_ other: EpochRangeSet) {
        guard !other.isEmpty else { return }
        self = EpochRangeSet(ranges + other.ranges)
    }

    /// The union of `self` and `other`.
    public func union(_ other: EpochRangeSet) -> EpochRangeSet {
        var copy = self
        copy.formUnion(other)
        return copy
    }

    /// The time in `self` that `other` does not cover.
    public func subtracting(_ other: EpochRangeSet) -> EpochRangeSet {
        var out: [EpochRange] = []
        for r in ranges {
            var cursor = r.startMs
            var i = other.firstIndex(endingAfter: r.startMs)
            while i < other.ranges.count, other.ranges[i].startMs < r.endMs {
                let cut = other.ranges[i]
                if cut.startMs > cursor { out.append(EpochRange(startMs: cursor, endMs: cut.startMs)) }
                cursor = max(cursor, cut.endMs)
                i += 1
            }
            if cursor < r.endMs { out.append(EpochRange(startMs: cursor, endMs: r.endMs)) }
        }
        return EpochRangeSet(out)
    }

    // MARK: - Search

    /// The index of the first range whose end is after `ms` (binary search).
    private func firstIndex(endingAfter ms: EpochMs) -> Int {
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].endMs <= ms { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
