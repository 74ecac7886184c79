#if canImport(Glibc)
import Glibc
#endif

/// Monotonic nanoseconds, for timing benchmark loops (never used by cores or tests).
func monotonicNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
