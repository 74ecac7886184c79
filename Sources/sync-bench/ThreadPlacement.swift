#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PeerLinkPOSIX

/// Where the round trip's two ends run, when `PEERLINK_BENCH_PIN` says (the link suite's
/// round-trip part only: the threads are given back the process's processors after it).
///
/// Left to the scheduler, a run's figure depends on where it put the threads: each keeps its
/// processor, and a pair on one processor wakes its peer for a fraction of what a pair on two
/// pays (here 5 – 6 µs against 17 – 19 µs for the raw ping-pong). When the two PeerLink nodes
/// land together and the raw pair apart, or the other way round, the ratio is off by half.
/// Pinned, both pairs are placed alike:
/// - `split`: one end on processor 0, the other on 1 (the phone's node thread and the raw
///   client on 0, the watch's node thread and the raw echo on 1), as two devices are;
/// - `same`: all on processor 0.
/// Each thread pins itself: a node's thread at its `pin` command, the raw ends in their loops.
enum ThreadPlacement: String {
    case split, same

    /// The placement asked for; nil when the variable is not set. A value that is neither
    /// is an error, not a silent default.
    static func requested() throws -> ThreadPlacement? {
        guard let v = ProcessInfo.processInfo.environment["PEERLINK_BENCH_PIN"] else { return nil }
        guard let p = ThreadPlacement(rawValue: v) else { throw BenchFailure(message: "PEERLINK_BENCH_PIN takes split or same, not '\(v)'") }
        guard Affinity.set != nil, Affinity.get != nil else { throw BenchFailure(message: "PEERLINK_BENCH_PIN: sched_setaffinity is not available") }
        return p
    }

    /// The placement in force for this process, set before any thread of the benchmark starts.
    nonisolated(unsafe) static var current: ThreadPlacement?
    /// The processors this process may run on, read when the placement is set (a thread is
    /// given them back after the round trips).
    nonisolated(unsafe) static var processMask: cpu_set_t?

    /// Sets the placement, and remembers the process's processors.
    static func start(_ p: ThreadPlacement?) throws {
        current = p
        guard p != nil else { return }
        var mask = cpu_set_t()
        guard withUnsafeMutableBytes(of: &mask, { Affinity.get!(0, MemoryLayout<cpu_set_t>.size, $0.baseAddress!) }) == 0 else {
            throw BenchFailure(message: "PEERLINK_BENCH_PIN: \(POSIXError("sched_getaffinity").description)")
        }
        processMask = mask
    }

    /// Pins the calling thread as end `end` (0 or 1) of a pair, when a placement is in force.
    static func pin(end: Int) throws {
        guard let p = current else { return }
        let cpu = p == .same ? 0 : end
        var mask = cpu_set_t()
        withUnsafeMutableBytes(of: &mask) { $0.storeBytes(of: UInt64(1) << UInt64(cpu), as: UInt64.self) }
        try apply(mask, "pin a thread to processor \(cpu)")
    }

    /// Gives the calling thread back the process's processors (after the round trips).
    static func release() throws {
        guard let mask = processMask else { return }
        try apply(mask, "give a thread back its processors")
    }

    private static func apply(_ mask: cpu_set_t, _ what: String) throws {
        var mask = mask
        guard withUnsafeBytes(of: &mask, { Affinity.set!(0, MemoryLayout<cpu_set_t>.size, $0.baseAddress!) }) == 0 else {
            throw BenchFailure(message: "PEERLINK_BENCH_PIN: could not \(what): \(POSIXError("sched_setaffinity").description)")
        }
    }

    /// `sched_setaffinity` and `sched_getaffinity`, GNU extensions the Glibc module does not
    /// export: looked up once.
    private enum Affinity {
        typealias Call = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
        static let set = systemFunction("sched_setaffinity", as: Call.self)
        static let get = systemFunction("sched_getaffinity", as: Call.self)
    }
}
