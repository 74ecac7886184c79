/// Strings' UTF-8 copied through a moving pointer into a buffer sized beforehand: the texts
/// made on every frame or sample (trace lines, frame labels, the `hr` reply, sample ids) are
/// written this way, with `DecimalDigits` for their numbers.
package enum PointerText {
    /// Copies `s`'s UTF-8 to `p`; returns the end.
    @inlinable
    package static func put(_ s: String, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if let end = s.utf8.withContiguousStorageIfAvailable({ b -> UnsafeMutablePointer<UInt8> in
            if let from = b.baseAddress { p.update(from: from, count: b.count) }
            return p + b.count
        }) { return end }
        var q = p
        for byte in s.utf8 { q.pointee = byte; q += 1 }
        return q
    }
}
