extension Array where Element == UInt8 {
    /// The largest array `init(smallUninitializedCapacity:initializingWith:)` writes on the
    /// stack first (the standard library's own bound for a temporary allocation that is
    /// always safe on the stack); a larger one goes the standard library's way.
    @inlinable
    package static var smallUninitializedLimit: Int { 1024 }

    /// `[UInt8](unsafeUninitializedCapacity:initializingWith:)`, cheaper for a small array
    /// (the frames, messages and snapshot rows made every simulated second): `body` writes
    /// into a buffer on the stack, and its initialized bytes are copied into an array of
    /// exactly that count.
    ///
    /// The standard library's initializer allocates through
    /// `Array._allocateBufferUninitialized`, which is kept out of line and generic, so it
    /// looks up `_ContiguousArrayStorage<UInt8>`'s metadata at run time on every call (about
    /// 360 instructions under callgrind, more than the allocation itself). Copying a buffer
    /// into an array is specialized in the caller and finds that metadata in a cache; up to
    /// `smallUninitializedLimit` bytes the copy costs less than the lookup (measured in
    /// docs/BENCHMARKS.md, "what the toolchain and OpenSSL added"). The result holds the same
    /// bytes either way; only its spare capacity may differ. As with the standard library's,
    /// `body` must not replace the buffer and may initialize at most its count; on a throw
    /// nothing is kept.
    @inlinable
    package init(smallUninitializedCapacity capacity: Int,
                 initializingWith body: (inout UnsafeMutableBufferPointer<UInt8>, inout Int) throws -> Void) rethrows {
        guard capacity <= Self.smallUninitializedLimit else {
            try self.init(unsafeUninitializedCapacity: capacity, initializingWith: body)
            return
        }
        self = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            var buffer = scratch
            var initialized = 0
            try body(&buffer, &initialized)
            precondition(buffer.baseAddress == scratch.baseAddress, "the initializer replaced its buffer")
            precondition(initialized >= 0 && initialized <= capacity, "initialized count out of range")
            return Array(UnsafeBufferPointer(rebasing: scratch[..<initialized]))
        }
    }
}
