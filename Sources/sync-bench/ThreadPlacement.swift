#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PeerLinkPOSIX

/// Where the round trip's two ends run, when `PEERLINK_BENCH_PIN` says (the link suite).
///
/// Left to the scheduler, a run's figure depends on where it put the threads: each keeps its
/// processor, and a pair on one processor wakes its peer for a fraction of what a pair on two
/// pays (here 5 – 6 µs against 17 – 19 µs for the raw ping-pong). When the two PeerLink nodes
/// land together and the raw pair apart, or the other way round, the ratio is off by half.
/// Pinned, both pairs are placed alike:
/// - `split`: one end on processor 0, the other on 1 (the phone's node and the raw client on
///   0, the watch's node and the raw echo on 1), as two devices are;
/// - `same`: all on processor 0.
enum ThreadPlacement: String {
    case split, same

    /// The placement asked for; nil when the variable is not set. A value that is neither
    /// is an error, not a silent default.
    static func requested() throws -> ThreadPlacement? {
        guard let v = ProcessInfo.processInfo.environment["PEERLINK_BENCH_PIN"] else { return nil }
        guard let p = ThreadPlacement(rawValue: v) else { throw BenchFailure(message: "PEERLINK_BENCH_PIN takes split or same, not '\(v)'") }
        return p
    }

    /// The placement in force for this process (read once).
    nonisolated(unsafe) static var current: ThreadPlacement?

    /// Pins the calling thread as end `end` (0 or 1) of a pair, when a placement is in force.
    static func pin(end: Int) {
        guard let p = current else { return }
        let cpu = p == .same ? 0 : end
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { $0.storeBytes(of: UInt64(1) << UInt64(cpu), as: UInt64.self) }
        // `sched_setaffinity` is a GNU extension the Glibc module does not export.
        typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "sched_setaffinity") else { return }
        let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
        let failed = withUnsafeBytes(of: &set) { setAffinity(0, MemoryLayout<cpu_set_t>.size, $0.baseAddress!) } != 0
        if failed { StandardError.write("sync-bench: warning: could not pin a thread to processor \(cpu): \(POSIXError("sched_setaffinity").description)\n") }
    }
}
