#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

/// A node's files in a directory on disk (POSIX `pread`/`pwrite`/`fsync`/`rename`).
///
/// Open descriptors are cached (a few) because a file transfer reads or writes one file
/// chunk by chunk.
public final class DirectoryFileStorage: FileStorage, @unchecked Sendable {
    // Unchecked: confined to the node's one event loop, like its SQLite store.
    public let root: String
    private var open: [String: (fd: Int32, writable: Bool)] = [:]
    private var order: [String] = []
    static let maxOpen = 8
    /// True: `sync` calls `fdatasync` (content durable across a power loss). False: `sync`
    /// does nothing more, because what `pwrite` wrote is already in the kernel and survives the
    /// process being killed — the same promise as the store's `synchronous=NORMAL`, the
    /// default (see `NodeProcessOptions.synchronousFull`).
    public let syncsToDisk: Bool
    /// With `syncsToDisk`, the files whose names this storage made durable: by their first
    /// `sync` in its lifetime, which syncs the directories from the file's up to the root (the
    /// file may have been created, with its directories, by this process or by one killed
    /// before its first sync), or by a move into them. A move or removal drops the name.
    private(set) var namesSynced: Set<String> = []
    /// Directory syncs asked of the system so far (for tests: a sync cannot be seen from a file).
    private(set) var directorySyncs = 0

    public init(root: String, syncsToDisk: Bool = true) throws {
        self.root = root
        self.syncsToDisk = syncsToDisk
        try makeDirectories(root)
    }

    deinit { for (_, e) in open { close(e.fd) } }

    func full(_ path: String) throws -> String {
        guard NodeFilePath.isInsideRoot(path) else { throw FileStorageError("unsafe path '\(path)'") }
        return root + "/" + path
    }

    private func descriptor(_ path: String, writable: Bool) throws -> Int32 {
        if let e = open[path], e.writable || !writable { return e.fd }
        forget(path)
        let p = try full(path)
        if writable, let slash = p.lastIndex(of: "/") { try makeDirectories(String(p[..<slash])) }
        let fd = Glibc.open(p, writable ? (O_RDWR | O_CREAT) : O_RDONLY, 0o644)
        guard fd >= 0 else { throw FileStorageError("open \(path): \(POSIXError("open").description)") }
        open[path] = (fd, writable)
        order.append(path)
        if order.count > Self.maxOpen { forget(order[0]) }
        return fd
    }

    private func forget(_ path: String) {
        if let e = open.removeValue(forKey: path) { close(e.fd) }
        order.removeAll { $0 == path }
    }

    public func names(in directory: String) -> [String] {
        guard let p = try? full(directory), let dir = opendir(p) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != "..", size(directory + "/" + name) != nil { out.append(name) }
        }
        return out.sorted()
    }

    public func size(_ path: String) -> Int64? {
        guard let p = try? full(path) else { return nil }
        var st = stat()
        guard stat(p, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    public func read(_ path: String, offset: Int64, count: Int) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = try read(path, offset: offset, into: UnsafeMutableRawBufferPointer(buffer))
        }
    }

    public func read(_ path: String, offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let fd = try descriptor(path, writable: false)
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw FileStorageError("read \(path): \(POSIXError("pread").description)") }
            if n == 0 { break }
            done += n
        }
        return done
    }

    public func write(_ path: String, offset: Int64, bytes: ArraySlice<UInt8>) throws {
        let fd = try descriptor(path, writable: true)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw FileStorageError("write \(path): \(POSIXError("pwrite").description)") }
            done += n
        }
    }

    public func truncate(_ path: String, sizeBytes: Int64) throws {
        let fd = try descriptor(path, writable: true)
        guard ftruncate(fd, off_t(sizeBytes)) == 0 else { throw FileStorageError("truncate \(path): \(POSIXError("ftruncate").description)") }
    }

    public func syncContent(_ path: String) throws {
        guard syncsToDisk else { return }
        let fd = try descriptor(path, writable: true)
        guard fdatasync(fd) == 0 else { throw FileStorageError("sync \(path): \(POSIXError("fdatasync").description)") }
    }

    public func sync(_ path: String) throws {
        guard syncsToDisk else { return }
        try syncContent(path)
        // `fdatasync` makes the content durable, not the new file's name in its directory
        // (nor a directory made for it): without this, a power loss could lose a received
        // part whose committed length the store already holds.
        if namesSynced.insert(path).inserted { syncDirectories(from: Self.directory(of: try full(path)), for: "sync \(path)") }
    }

    public func move(from: String, to: String) throws {
        forget(from)
        forget(to)
        let f = try full(from), t = try full(to)
        if let slash = t.lastIndex(of: "/") { try makeDirectories(String(t[..<slash])) }
        guard rename(f, t) == 0 else { throw FileStorageError("move \(from) to \(to): \(POSIXError("rename").description)") }
        namesSynced.remove(from)
        namesSynced.remove(to)
        // A rename is durable only once its directory is, and a directory made for it (or
        // before it, as `clock/` by the floor's first write) only once its parent is. Without
        // this, a power loss could bring back the old name: the clock's floor before its
        // renewal, or a received file under its part name after it was acknowledged. So the
        // directories from the destination's up to the root are synced, and the source's.
        // The move is done once `rename` returned: a directory that cannot be synced (a file
        // system without directory fsync) does not make it fail, as SQLite ignores the same.
        if syncsToDisk {
            let toDir = Self.directory(of: t), fromDir = Self.directory(of: f)
            syncDirectories(from: toDir, for: "move \(from) to \(to)")
            if fromDir != toDir { syncDirectory(fromDir, for: "move \(from) to \(to)") }
            namesSynced.insert(to)
        }
    }

    /// Syncs `dir` and every directory above it up to the root, best effort (see `move`).
    private func syncDirectories(from dir: String, for what: String) {
        var dir = dir
        while true {
            syncDirectory(dir, for: what)
            if dir.count <= root.count || !dir.hasPrefix(root) { break }
            dir = Self.directory(of: dir)
        }
    }

    /// One directory's sync, best effort, counted.
    private func syncDirectory(_ dir: String, for what: String) {
        directorySyncs += 1
        try? Self.syncDirectory(dir, for: what)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `fsync` of the directory itself: its entries (created, renamed) are durable after it.
    static func syncDirectory(_ directory: String, for what: String) throws {
        let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else {
            let e = errno
            throw FileStorageError("\(what): \(POSIXError("open \(directory)", e).description)")
        }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            let e = errno
            throw FileStorageError("\(what): \(POSIXError("fsync \(directory)", e).description)")
        }
    }

    public func remove(_ path: String) {
        forget(path)
        namesSynced.remove(path)
        if let p = try? full(path) { unlink(p) }
    }

    public func sha256(_ path: String) throws -> [UInt8] {
        let fd = try descriptor(path, writable: false)
        var h = SHA256()
        var buf = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, offset) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw FileStorageError("hash \(path): \(POSIXError("pread").description)") }
            if n == 0 { break }
            h.update(buf[0..<n])
            offset += off_t(n)
        }
        return h.finish()
    }
}
