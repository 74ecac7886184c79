#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Shared

/// The node's SQLite file in its state directory, with the quarantine of a corrupt file.
public enum NodeStoreFile {
    public static let fileName = "state.sqlite"

    /// Opens `dir/state.sqlite`. A file that is not a database, or fails `PRAGMA
    /// integrity_check`, is moved aside and a new one is created. A file that cannot be opened
    /// at all (permissions, a full disk, an I/O error, a directory in its place) is not corrupt:
    /// it is left as it is and `StoreOpenError` names it.
    public static func open(directory: String, wallMs: EpochMs, synchronousFull: Bool = false) throws -> (SQLiteStore, StoreOpening) {
        let path = directory + "/" + fileName
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
            throw StoreOpenError(path: path, reason: "it is not a regular file (move it away and the node starts a new store)")
        }
        do {
            let store = try SQLiteStore(path: path, synchronousFull: synchronousFull)
            if let problem = store.db.integrityProblem() {
                return try quarantineAndCreate(path: path, reason: "integrity check failed: \(problem)", wallMs: wallMs, synchronousFull: synchronousFull)
            }
            return (store, .existing)
        } catch let e as SQLiteError where e.isAccessProblem {
            throw StoreOpenError(path: path, reason: e.message)
        } catch let e as SQLiteError {
            return try quarantineAndCreate(path: path, reason: e.description, wallMs: wallMs, synchronousFull: synchronousFull)
        } catch let e as StoreCorruption {
            return try quarantineAndCreate(path: path, reason: e.reason, wallMs: wallMs, synchronousFull: synchronousFull)
        }
    }

    /// Opens the store (`open`) and builds the node over it with `make`; when the node finds
    /// the store corrupt (a row that fails its checksum or does not decode: `StoreCorruption`),
    /// the file is quarantined and the node built again over a new one. What `NodeProcess` runs.
    public static func openNode<Node>(directory: String, wallMs: EpochMs, synchronousFull: Bool = false,
                                      make: (SQLiteStore, StoreOpening) throws -> Node) throws -> Node {
        let (store, opening) = try open(directory: directory, wallMs: wallMs, synchronousFull: synchronousFull)
        do {
            return try make(store, opening)
        } catch let e as StoreCorruption {
            let (fresh, reset) = try quarantineAndCreate(path: store.db.path, reason: e.reason, wallMs: wallMs, synchronousFull: synchronousFull)
            return try make(fresh, reset)
        }
    }

    /// Moves the file (and its WAL and shared-memory files) to `…corrupt-<time>` and creates an empty one.
    public static func quarantineAndCreate(path: String, reason: String, wallMs: EpochMs, synchronousFull: Bool = false) throws -> (SQLiteStore, StoreOpening) {
        let stamp = isoStamp(wallMs)
        var moved = "\(path).corrupt-\(stamp)"
        var n = 1
        while access(moved, F_OK) == 0 { n += 1; moved = "\(path).corrupt-\(stamp)-\(n)" }
        guard rename(path, moved) == 0 || errno == ENOENT else { throw POSIXError("rename(\(path))") }
        for suffix in ["-wal", "-shm"] {
            if access(path + suffix, F_OK) == 0 { _ = rename(path + suffix, moved + suffix) }
        }
        let store = try SQLiteStore(path: path, synchronousFull: synchronousFull)
        return (store, .resetAfterCorruption(reason: reason, quarantinedAs: moved))
    }

    /// `YYYYMMDDTHHMMSSZ` for file names.
    static func isoStamp(_ ms: EpochMs) -> String {
        var t = time_t(ms / 1000)
        var tmv = tm()
        gmtime_r(&t, &tmv)
        var buf = [CChar](repeating: 0, count: 32)
        strftime(&buf, 32, "%Y%m%dT%H%M%SZ", &tmv)
        return buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for log lines.
    public static func isoTime(_ ms: EpochMs) -> String {
        var t = time_t(ms / 1000)
        var tmv = tm()
        gmtime_r(&t, &tmv)
        var buf = [CChar](repeating: 0, count: 32)
        strftime(&buf, 32, "%Y-%m-%dT%H:%M:%S", &tmv)
        let base = buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let millis = Int((ms % 1000 + 1000) % 1000)
        return base + "." + String(repeating: "0", count: 3 - String(millis).count) + String(millis) + "Z"
    }
}

/// The node's store file could not be opened (and was left as it is).
public struct StoreOpenError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "cannot open the store \(path): \(reason)" }
}

/// The pairing secret file `pairing.secret` in the state directory (hex, mode 0600).
public enum PairingFile {
    public static let fileName = "pairing.secret"
    public static let secretBytes = 16

    /// The human code for a secret: 32 hex digits in groups of four (`3f9a-1b2c-…`).
    public static func code(for secret: [UInt8]) -> String {
        let hex = Array(hexString(secret))
        return stride(from: 0, to: hex.count, by: 4).map { String(hex[$0..<min($0 + 4, hex.count)]) }.joined(separator: "-")
    }

    /// The secret a code stands for; nil when it is not 32 hex digits (dashes and spaces ignored).
    public static func secret(fromCode code: String) -> [UInt8]? {
        let digits = code.filter { $0 != "-" && $0 != " " }
        guard digits.count == secretBytes * 2, let b = bytesFromHex(digits) else { return nil }
        return b
    }

    public static func read(directory: String) -> [UInt8]? {
        guard let text = readTextFile(directory + "/" + fileName) else { return nil }
        return secret(fromCode: text.trimmingCharacters())
    }

    public static func write(_ secret: [UInt8], directory: String) throws {
        let path = directory + "/" + fileName
        let tmp = path + ".tmp"
        let fd = Glibc.open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw POSIXError("open(\(tmp))") }
        let bytes = Array((code(for: secret) + "\n").utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard n == bytes.count else { throw POSIXError("write(\(tmp))") }
        guard rename(tmp, path) == 0 else { throw POSIXError("rename(\(tmp))") }
    }
}

/// Reads a whole small text file; nil when it cannot be read.
public func readTextFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fd, &buf, buf.count)
        if n <= 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return String(decoding: out, as: UTF8.self)
}

/// A file or directory that could not be used, for people: `cannot write /x/report.xml: No
/// such file or directory` (the path they named, the system's reason; no call names).
public struct PathError: Error, CustomStringConvertible, Sendable {
    public var action: String
    public var path: String
    public var reason: String

    public init(_ action: String, _ path: String, _ code: Int32 = errno) {
        self.action = action
        self.path = path
        reason = String(cString: strerror(code))
    }

    public var description: String { "cannot \(action) \(path): \(reason)" }
}

/// Creates a directory and its parents (like `mkdir -p`).
public func makeDirectories(_ path: String, mode: mode_t = 0o755) throws {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, mode) != 0 && errno != EEXIST { throw PathError("create directory", current) }
    }
}

extension String {
    /// The string without leading and trailing spaces and newlines.
    public func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\n" || f == "\r" || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\n" || l == "\r" || l == "\t" { s.removeLast() }
        return String(s)
    }
}

/// Writes a whole text file atomically (temporary file, then rename).
public func writeTextFile(_ path: String, _ text: String) throws {
    let tmp = path + ".tmp"
    let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw PathError("write", path) }
    let bytes = Array(text.utf8)
    var start = 0
    while start < bytes.count {
        let n = bytes[start...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n <= 0 { let e = PathError("write", path); close(fd); unlink(tmp); throw e }
        start += n
    }
    fsync(fd)
    close(fd)
    guard rename(tmp, path) == 0 else { let e = PathError("write", path); unlink(tmp); throw e }
}
