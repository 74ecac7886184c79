#if canImport(Glibc)
import Glibc
#endif

/// Monotonic nanoseconds, for timing benchmark loops (never used by cores or tests).
func monotonicNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The median of `values` (the mean of the middle two when their count is even); 0 when empty.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let v = values.sorted(), m = v.count / 2
    return v.count % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2
}

/// CPU time (user + system) of the whole process so far, in seconds: every thread's, so
/// around a copy it counts both ends of it (the other threads idle in `poll` meanwhile).
func processCPUSeconds() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(u.ru_utime) + s(u.ru_stime)
}
