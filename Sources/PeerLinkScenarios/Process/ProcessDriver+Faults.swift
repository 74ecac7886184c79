#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkSim

extension ProcessDriver {
    /// Damages the store file of a killed node so that opening it finds the damage: first the
    /// write-ahead log is checkpointed into the main file (a corrupt WAL tail is silently
    /// dropped by SQLite, which would be a rollback, not a detectable corruption), then random
    /// bytes are written over random 512-byte stretches of the main file.
    public func corruptStore(_ role: DeviceRole, seed: UInt64) throws {
        let path = stateDir(role) + "/" + NodeStoreFile.fileName
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        var rng = SplitMix64(seed: seed)
        let fd = open(path, O_WRONLY)
        guard fd >= 0 else { throw POSIXError("open(\(path))") }
        defer { close(fd) }
        var st = stat()
        fstat(fd, &st)
        let size = Int(st.st_size)
        guard size > 0 else { return }
        for _ in 0..<8 {
            let offset = rng.next(in: 0...(size - 1))
            let junk = (0..<min(512, size - offset)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = junk.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
        }
        fsync(fd)
    }

    /// Cuts the write-ahead log after a random complete frame in its second half: SQLite
    /// replays only the frames before the cut, so the last commits are gone. Returns the
    /// number of WAL frames dropped (a commit is one or more frames).
    public func rollBackStore(_ role: DeviceRole, seed: UInt64) throws -> Int {
        let path = stateDir(role) + "/" + NodeStoreFile.fileName + "-wal"
        var st = stat()
        guard stat(path, &st) == 0 else { return 0 }
        let headerBytes = 32, frameBytes = 24 + 4096  // WAL header; frame header + page (default page size)
        let frames = (Int(st.st_size) - headerBytes) / frameBytes
        guard frames > 1 else { return 0 }
        var rng = SplitMix64(seed: seed)
        let keep = rng.next(in: (frames / 2)...(frames - 1))
        guard truncate(path, off_t(headerBytes + keep * frameBytes)) == 0 else { throw POSIXError("truncate(\(path))") }
        return frames - keep
    }

    public func damagePartialFile(_ role: DeviceRole, path: String, committedBytes: Int64, seed: UInt64) throws -> String? {
        let files = try DirectoryFileStorage(root: stateDir(role) + "/files", syncsToDisk: true)
        return try PartialFileDamage.apply(to: files, path: path, committedBytes: committedBytes, seed: seed)
    }

    /// Connects straight to the phone (not through the proxy), sends `bytes`, and reads what
    /// comes back until the phone closes the connection (at most 5 s of real time).
    public func injectStranger(_ bytes: [UInt8]) throws -> [UInt8] {
        lastQuiet = nil
        guard let address = SocketAddress(parsing: phoneAddress) else { throw NodeCallError(message: "the phone is not listening") }
        let fd = try ProxySockets.blockingConnect(address)
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }  // a phone that closed first: EPIPE
        var answer: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        let deadline = ChildProcess.monotonicMs() + 5_000
        while ChildProcess.monotonicMs() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 200) > 0 else { continue }
            let n = read(fd, &buf, buf.count)
            if n <= 0 { break }
            answer += buf[0..<n]
        }
        return answer
    }
}
