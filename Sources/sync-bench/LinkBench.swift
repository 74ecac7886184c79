#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PeerLinkCore
import PeerLinkPOSIX

/// The `link` suite: PeerLink between a phone and a watch node (each a `NodeProcess` on its
/// own thread, SQLite stores in temporary directories, loopback TCP), beside raw-socket
/// baselines measured in the same run.
///
/// - `message_rtt_us`: a 64-byte `sendMessageData` with a 64-byte reply, chained, timed by
///   the sending app from its first send to its last reply; beside `raw_tcp_rtt_us` (a
///   64-byte ping-pong on a plain socket pair). Ten blocks of 1,000 round trips each, one of
///   PeerLink's and one raw, in turn (ABBA); each figure is the median of its blocks, and
///   `message_rtt_ratio_blocks_min`/`_max` give the range of the ten pairs' ratios.
/// - `file_mb_s`: `transferFile` of a 256 MB file, from the call to `didFinish` (hashing
///   on both sides, the receiver's writes and syncs included); beside `raw_tcp_mb_s`, the
///   same file copied over a raw loopback socket into a file (no protocol, hash or sync),
///   and `raw_tcp_mem_mb_s`, 256 MB from memory to memory over a raw socket (no files).
///   `file_cpu_s` and `raw_tcp_cpu_s`: the process's CPU time during each of the two copies
///   (both ends). Each copy starts after `warmPageCache` (see there).
/// - `userinfo_per_s`: 100,000 `transferUserInfo`, durable on both sides, from the call to
///   the last acknowledgement.
/// - `seal_open_*`: what sealing costs with each cipher (`SealingBench`).
///
/// Every frame between the nodes is sealed (protocol 2): these are the figures with sealing on.
let linkSuite = BenchSuite(name: "link") { quick in
    // PEERLINK_BENCH_ONLY=rtt|userinfo|file|sealing runs one part (for profiling); figures of the others are 0.
    let only = ProcessInfo.processInfo.environment["PEERLINK_BENCH_ONLY"]
    // PEERLINK_BENCH_PIN=split|same places the round trip's ends alike (`ThreadPlacement`).
    try ThreadPlacement.start(try ThreadPlacement.requested())
    func runs(_ part: String) -> Bool { only == nil || only == part }
    let rttBlocks = quick ? 3 : 10
    let rttRounds = quick ? 300 : 10_000
    let fileBytes = quick ? 16 << 20 : 256_000_000
    let userInfos = quick ? 5_000 : 100_000
    // PEERLINK_BENCH_DIR puts the nodes' state elsewhere (e.g. /dev/shm, to see the cost of the disk).
    let base = (ProcessInfo.processInfo.environment["PEERLINK_BENCH_DIR"] ?? NSTemporaryDirectory()) + "/peerlink-bench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: base) }
    let secret = secureRandomBytes(PairingFile.secretBytes)
    // PEERLINK_BENCH_CIPHER=ChaChaPoly|AESGCM seals with another cipher than the protocol's (to compare).
    let cipher = ProcessInfo.processInfo.environment["PEERLINK_BENCH_CIPHER"].flatMap(AEADCipher.init(rawValue:))
        ?? LinkConfig(role: .phone, pairingSecret: nil).cipher
    func start(_ role: DeviceRole, port: UInt16?) throws -> NodeProcessThread {
        let dir = base + "/" + role.rawValue
        try makeDirectories(dir)
        try PairingFile.write(secret, directory: dir)
        var o = NodeProcessOptions(role: role, stateDirectory: dir)
        o.virtualStartMs = 1_780_000_000_000
        o.cipher = cipher
        o.seed = 1
        if let port { o.connect = SocketAddress(host: "127.0.0.1", port: port) } else { o.listen = SocketAddress(host: "127.0.0.1", port: 0) }
        return try NodeProcessThread(options: o) { LinkBenchApp() }
    }
    let phone = try start(.phone, port: nil)
    let watch = try start(.watch, port: phone.listeningPort)
    defer { watch.stop(); phone.stop() }
    _ = try watch.waitFor("query link reachable", pauseMicroseconds: 1_000) { $0 == .bool(true) }

    // Message round trips.
    var messageRtt = 0.0, rawRtt = 1.0, userInfoSeconds = 1e9, fileMBps = 0.0, rawMBps = 1.0, rawMemMBps = 1.0
    var fileCPU = 0.0, rawCPU = 0.0
    var t0 = monotonicNs()
    var rttRatios: [Double] = []
    if runs("rtt") {
        // Blocks of PeerLink's round trips and of raw ones, in turn, each figure the median
        // of its blocks: on a shared machine the speed of the moment moves both alike.
        let perBlock = rttRounds / rttBlocks
        // PEERLINK_BENCH_PIN: each node's thread pins itself (the command runs on it), and the
        // raw ends in their loops; all are given back their processors after the round trips.
        func pinNodes(_ phoneEnd: String, _ watchEnd: String) throws {
            guard ThreadPlacement.current != nil else { return }
            for (node, end) in [(phone, phoneEnd), (watch, watchEnd)] {
                let r = try node.call("pin \(end)")
                guard r.ok else { throw BenchFailure(message: "\(r.value)") }
            }
        }
        try pinNodes("0", "1")
        defer {
            try? pinNodes("all", "all")
            try? ThreadPlacement.release()
        }
        _ = try watch.call("rtt 200")
        _ = try watch.waitFor("query rttNs", pauseMicroseconds: 2_000) { ($0.intValue ?? 0) > 0 }
        let raw = try RawPingPong()
        defer { raw.close() }
        var mine: [Double] = [], theirs: [Double] = []
        func peerLinkBlock() throws {
            _ = try watch.call("rtt \(perBlock)")
            let ns = try watch.waitFor("query rttNs", attempts: 1_000_000, pauseMicroseconds: 5_000) { ($0.intValue ?? 0) > 0 }
            guard try watch.call("query rttDone").value == .int(Int64(perBlock)) else { throw BenchFailure(message: "a block of round trips ended early (see the watch's log)") }
            mine.append(Double(ns.intValue ?? 0) / 1000 / Double(perBlock))
        }
        // In ABBA order: neither kind always runs first in its pair.
        for k in 0..<rttBlocks {
            if k % 2 == 0 {
                try peerLinkBlock()
                theirs.append(try raw.rttMicroseconds(rounds: perBlock))
            } else {
                theirs.append(try raw.rttMicroseconds(rounds: perBlock))
                try peerLinkBlock()
            }
        }
        messageRtt = median(mine)
        rawRtt = median(theirs)
        rttRatios = zip(mine, theirs).map { $0 / $1 }.sorted()
    }

    // User info.
    if runs("userinfo") {
    t0 = monotonicNs()
    _ = try watch.call("ui \(userInfos)")
    _ = try watch.waitFor("query outstanding", attempts: 1_000_000, pauseMicroseconds: 2_000) { $0 == .int(0) }
    userInfoSeconds = Double(monotonicNs() - t0) / 1e9
    let received = try phone.call("query received").value.intValue ?? 0
    guard received == userInfos else { throw BenchFailure(message: "the phone received \(received) of \(userInfos) user infos") }
    }

    // Files.
    if runs("file") {
    let filesDir = base + "/watch/files"
    try makeDirectories(filesDir)
    let fd = open(filesDir + "/big.bin", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var rng = SplitMix64(seed: 3)
    var block = [UInt8](repeating: 0, count: 1 << 20)
    var written = 0
    while written < fileBytes {
        for i in stride(from: 0, to: block.count, by: 8) { withUnsafeBytes(of: rng.next()) { for j in 0..<8 { block[i + j] = $0[j] } } }
        let n = min(block.count, fileBytes - written)
        _ = block.withUnsafeBytes { write(fd, $0.baseAddress, n) }
        written += n
    }
    close(fd)
    try warmPageCache(directory: base, bytes: 2 * fileBytes)
    var cpu0 = processCPUSeconds()
    t0 = monotonicNs()
    _ = try watch.call("file big.bin")
    _ = try watch.waitFor("query filesSent", attempts: 1_000_000, pauseMicroseconds: 2_000) { $0 == .int(1) }
    fileMBps = Double(fileBytes) / 1e6 / (Double(monotonicNs() - t0) / 1e9)
    fileCPU = processCPUSeconds() - cpu0
    try warmPageCache(directory: base, bytes: 2 * fileBytes)
    cpu0 = processCPUSeconds()
    rawMBps = try RawTCPBaseline.fileStreamMBps(source: filesDir + "/big.bin", destination: base + "/phone/raw-copy.bin")
    rawCPU = processCPUSeconds() - cpu0
    rawMemMBps = try RawTCPBaseline.streamMBps(bytes: fileBytes)
    }

    var sealing: [String: PlistValue] = [:]
    if runs("sealing") { sealing = try SealingBench.figures(quick: quick) }

    return sealing.merging([
        "message_rtt_us": .double((messageRtt * 10).rounded() / 10),
        "raw_tcp_rtt_us": .double((rawRtt * 10).rounded() / 10),
        "message_rtt_ratio": .double((messageRtt / rawRtt * 100).rounded() / 100),
        "message_rtt_ratio_blocks_min": .double(((rttRatios.first ?? 0) * 100).rounded() / 100),
        "message_rtt_ratio_blocks_max": .double(((rttRatios.last ?? 0) * 100).rounded() / 100),
        "file_mb_s": .double(fileMBps.rounded()),
        "raw_tcp_mb_s": .double(rawMBps.rounded()),
        "raw_tcp_mem_mb_s": .double(rawMemMBps.rounded()),
        "file_ratio": .double((fileMBps / rawMBps * 100).rounded() / 100),
        "file_ratio_mem": .double((fileMBps / rawMemMBps * 100).rounded() / 100),
        "file_bytes": .int(Int64(fileBytes)),
        "file_cpu_s": .double((fileCPU * 1000).rounded() / 1000),
        "raw_tcp_cpu_s": .double((rawCPU * 1000).rounded() / 1000),
        "userinfo_per_s": .double((Double(userInfos) / userInfoSeconds).rounded()),
        "userinfo_count": .int(Int64(userInfos)),
        "message_rounds": .int(Int64(rttRounds)),
        "message_rtt_blocks": .int(Int64(rttBlocks)),
        "message_rtt_placement": .string(ThreadPlacement.current?.rawValue ?? "scheduler"),
        "goals_met": [
            "message_rtt_le_2x_raw": .bool(messageRtt <= 2 * rawRtt),
            "message_rtt_le_1_5x_raw": .bool(messageRtt <= 1.5 * rawRtt),
            "file_ge_0_6x_raw": .bool(fileMBps >= 0.6 * rawMBps),
            "userinfo_ge_50000_per_s": .bool(Double(userInfos) / userInfoSeconds >= 50_000),
        ],
        "quick": .bool(quick),
        "cipher": .string(cipher.rawValue),
    ]) { a, _ in a }
}

/// Writes and deletes a scratch file of `bytes` and syncs, so that the copy timed next
/// writes into memory the system just freed and with nothing dirty. On the VMs this was
/// measured on, page-cache pages the guest has not used lately cost far more to fill: past
/// a few hundred MB a writer slowed from about 4,500 to about 300 MB/s, depending only on
/// what ran before. Both the transfer and the raw file copy get the same preparation.
func warmPageCache(directory: String, bytes: Int) throws {
    let path = directory + "/warm-up.bin"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw BenchFailure(message: "cannot create \(path)") }
    let block = [UInt8](repeating: 0x5A, count: 1 << 20)
    for at in stride(from: 0, to: bytes, by: block.count) { RawTCPBaseline.writeFully(fd, block, min(block.count, bytes - at)) }
    fsync(fd)
    close(fd)
    unlink(path)
    sync()
}
