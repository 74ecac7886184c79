
/// A file operation failed: which, on what path, and why.
public struct FileStorageError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ d: String) { description = d }
}

/// The files of one node (its file root): what `transferFile` reads and where received
/// files land. Paths are relative to the root, `/`-separated, never `..`.
///
/// Two implementations: `DirectoryFileStorage` (a directory on disk, for node processes)
/// and `MemoryFileStorage` (for the simulator and tests; like `MemoryStore`, it outlives a
/// simulated crash of its node).
public protocol FileStorage: AnyObject, Sendable {
    /// The file's size in bytes; nil when there is no such file.
    func size(_ path: String) -> Int64?
    /// Up to `count` bytes at `offset`.
    func read(_ path: String, offset: Int64, count: Int) throws -> [UInt8]
    /// Writes `bytes` at `offset`, creating the file (and its directory) when needed.
    func write(_ path: String, offset: Int64, bytes: ArraySlice<UInt8>) throws
    /// Reads up to `buffer.count` bytes at `offset` into `buffer`; returns how many (fewer at
    /// the end of the file).
    func read(_ path: String, offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Cuts (or creates) the file to `sizeBytes`.
    func truncate(_ path: String, sizeBytes: Int64) throws
    /// Makes the file's content durable, and its name in its directory.
    func sync(_ path: String) throws
    /// Makes the file's content durable, not necessarily its name: for a file about to be
    /// moved, whose move makes the name that matters durable (`replaceAll(_:with:through:)`).
    func syncContent(_ path: String) throws
    /// Renames, replacing any file at `to`.
    func move(from: String, to: String) throws
    /// Deletes the file; no error when it does not exist.
    func remove(_ path: String)
    /// SHA-256 of the whole file.
    func sha256(_ path: String) throws -> [UInt8]
    /// The names of the files directly in `directory`, sorted (none when it does not exist).
    func names(in directory: String) -> [String]
}

extension FileStorage {
    /// Writes a whole array at `offset`.
    public func write(_ path: String, offset: Int64, bytes: [UInt8]) throws { try write(path, offset: offset, bytes: bytes[...]) }

    /// True when a file exists at `path`.
    public func exists(_ path: String) -> Bool { size(path) != nil }

    /// Replaces the file's content with `bytes` (creating it), synced.
    public func replaceAll(_ path: String, with bytes: [UInt8]) throws {
        try overwrite(path, with: bytes)
        try sync(path)
    }

    /// The file's content replaced with `bytes` (creating it), not synced.
    private func overwrite(_ path: String, with bytes: [UInt8]) throws {
        try truncate(path, sizeBytes: 0)
        try write(path, offset: 0, bytes: bytes)
    }

    /// `sync`, unless the storage can make the content durable alone.
    public func syncContent(_ path: String) throws { try sync(path) }

    /// Replaces the file at `path` with `bytes` through a file at `temporary`: written there,
    /// its content synced, then moved over `path`. A crash leaves the old file or the new one,
    /// whole; on disk with syncing, the move makes the new name durable (the temporary name
    /// never needs to be).
    public func replaceAll(_ path: String, with bytes: [UInt8], through temporary: String) throws {
        try overwrite(temporary, with: bytes)
        try syncContent(temporary)
        try move(from: temporary, to: path)
    }

    /// Reads the whole file.
    public func readAll(_ path: String) throws -> [UInt8] {
        guard let n = size(path) else { throw FileStorageError("no file at \(path)") }
        return try read(path, offset: 0, count: Int(n))
    }
}

/// Files in memory, for the deterministic simulator and tests.
public final class MemoryFileStorage: FileStorage, @unchecked Sendable {
    // Unchecked: used by one serial owner (the simulator's loop or a test).
    public private(set) var files: [String: [UInt8]] = [:]
    /// How many `sync` calls were made (tests check that progress is synced before acks).
    public private(set) var syncCount = 0

    public init() {}

    public func size(_ path: String) -> Int64? { files[path].map { Int64($0.count) } }

    public func read(_ path: String, offset: Int64, count: Int) throws -> [UInt8] {
        guard let f = files[path] else { throw FileStorageError("read \(path): no such file") }
        let start = Int(min(offset, Int64(f.count)))
        return Array(f[start..<min(f.count, start + count)])
    }

    public func read(_ path: String, offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let bytes = try read(path, offset: offset, count: buffer.count)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        return bytes.count
    }

    public func write(_ path: String, offset: Int64, bytes: ArraySlice<UInt8>) throws {
        var f = files[path] ?? []
        let end = Int(offset) + bytes.count
        if f.count < end { f.append(contentsOf: [UInt8](repeating: 0, count: end - f.count)) }
        f.replaceSubrange(Int(offset)..<end, with: bytes)
        files[path] = f
    }

    public func truncate(_ path: String, sizeBytes: Int64) throws {
        var f = files[path] ?? []
        if f.count > Int(sizeBytes) { f.removeLast(f.count - Int(sizeBytes)) } else { f.append(contentsOf: [UInt8](repeating: 0, count: Int(sizeBytes) - f.count)) }
        files[path] = f
    }

    public func sync(_ path: String) throws { syncCount += 1 }

    public func move(from: String, to: String) throws {
        guard let f = files.removeValue(forKey: from) else { throw FileStorageError("move \(from): no such file") }
        files[to] = f
    }

    public func remove(_ path: String) { files[path] = nil }

    public func sha256(_ path: String) throws -> [UInt8] {
        guard let f = files[path] else { throw FileStorageError("hash \(path): no such file") }
        return SHA256.hash(f)
    }

    /// Paths under `directory/`, sorted.
    public func list(_ directory: String) -> [String] { files.keys.filter { $0.hasPrefix(directory + "/") }.sorted() }

    public func names(in directory: String) -> [String] {
        let prefix = directory + "/"
        return files.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }.map { String($0.dropFirst(prefix.count)) }.sorted()
    }
}
