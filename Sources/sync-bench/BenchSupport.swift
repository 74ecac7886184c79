#if canImport(Glibc)
import Glibc
#endif

/// A suite that has no measurement yet.
struct BenchNotImplemented: Error, CustomStringConvertible {
    var suite: String
    var description: String { "the \(suite) suite is not implemented yet" }
}

/// Monotonic nanoseconds, for timing benchmark loops (never used by cores or tests).
func monotonicNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
