/// One array's storage traded between a lender and a borrower, so that neither allocates
/// after the first events: the engine's outputs and the session's actions (`drainOutput(into:)`,
/// `drainActions(into:)`, `pump`), and the shells' output and poll arrays.
extension Array {
    /// Empties the array and keeps its storage. Nothing to do when it is empty already (the
    /// general `removeAll(keepingCapacity:)` goes through `replaceSubrange` even then).
    @inlinable @inline(__always)
    package mutating func clearKeepingCapacity() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }

    /// Takes `spare`'s storage, emptied, and leaves `spare` without any; `giveBack(to:)` returns
    /// it. A borrower inside a borrower (a nested event) finds the spare taken and starts empty.
    @inlinable @inline(__always)
    package static func borrow(_ spare: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &spare)
        taken.clearKeepingCapacity()
        return taken
    }

    /// Hands this array's storage back to `spare`, emptied.
    @inlinable @inline(__always)
    package mutating func giveBack(to spare: inout [Element]) {
        clearKeepingCapacity()
        swap(&self, &spare)
    }

    /// Moves what `source` holds into this array, whose storage (emptied) `source` keeps.
    @inlinable @inline(__always)
    package mutating func take(from source: inout [Element]) {
        clearKeepingCapacity()
        swap(&self, &source)
    }
}
