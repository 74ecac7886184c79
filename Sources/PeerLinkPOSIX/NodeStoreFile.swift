#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

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

/// The pairing secret file `pairing.secret` in the state directory (its code, mode 0600).
///
/// A secret is 32 random bytes — the Noise pre-shared key itself, never derived from
/// something a person could guess. Its code is 64 hex digits and 4 check digits (the first
/// two bytes of the secret's SHA-256, so a mistyped code is refused rather than stored) in
/// groups of four: `3f9a-1b2c-…-c0de`. The code reaches a node through a file or standard
/// input only, never through a command line or the environment (any local user can read
/// those of every process).
public enum PairingFile {
    public static let fileName = "pairing.secret"
    public static let secretBytes = LinkConfig.pairingSecretBytes
    /// Hex digits in a code: the secret's, then the check digits.
    static let codeDigits = secretBytes * 2 + 4

    /// The human code for a secret: hex in groups of four, check digits last.
    public static func code(for secret: [UInt8]) -> String {
        let hex = Array(hexString(secret) + hexString(SHA256.hash(secret).prefix(2)))
        return stride(from: 0, to: hex.count, by: 4).map { String(hex[$0..<min($0 + 4, hex.count)]) }.joined(separator: "-")
    }

    /// The secret a code stands for, or why the code is not one (dashes and spaces ignored).
    public static func parse(code: String) -> Result<[UInt8], PairingCodeError> {
        let digits = code.filter { $0 != "-" && $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" }
        guard digits.count == codeDigits else {
            return .failure(PairingCodeError("a pairing code has \(codeDigits) hex digits (as `phone-node pair` prints it), this one has \(digits.count)"))
        }
        guard let all = bytesFromHex(digits) else { return .failure(PairingCodeError("a pairing code has hex digits only (0-9, a-f)")) }
        let secret = Array(all.prefix(secretBytes))
        guard Array(all.suffix(2)) == Array(SHA256.hash(secret).prefix(2)) else {
            return .failure(PairingCodeError("the code's check digits do not match: it was mistyped"))
        }
        return .success(secret)
    }

    /// The secret a code stands for; nil when it is not a valid code.
    public static func secret(fromCode code: String) -> [UInt8]? {
        if case .success(let s) = parse(code: code) { return s }
        return nil
    }

    /// The stored secret; nil when there is none or it is not a code of this version.
    public static func read(directory: String) -> [UInt8]? {
        guard let text = readTextFile(directory + "/" + fileName) else { return nil }
        return secret(fromCode: text.trimmingCharacters())
    }

    /// Why the stored secret cannot be used (nil: there is none, or it is fine).
    public static func problem(directory: String) -> String? {
        guard let text = readTextFile(directory + "/" + fileName) else { return nil }
        if case .failure(let e) = parse(code: text.trimmingCharacters()) {
            return "\(directory)/\(fileName) holds no usable pairing code (\(e)); pair again"
        }
        return nil
    }

    /// Stores the secret's code (mode 0600, written to a temporary file then renamed).
    public static func write(_ secret: [UInt8], directory: String) throws {
        precondition(secret.count == secretBytes, "a pairing secret is \(secretBytes) bytes")
        let path = directory + "/" + fileName
        let tmp = path + ".tmp"
        unlink(tmp)
        let fd = Glibc.open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError("open(\(tmp))") }
        fchmod(fd, 0o600)
        let bytes = Array((code(for: secret) + "\n").utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard n == bytes.count else { throw POSIXError("write(\(tmp))") }
        guard rename(tmp, path) == 0 else { throw POSIXError("rename(\(tmp))") }
    }
}

/// A pairing code that is not one: what is wrong with it.
public struct PairingCodeError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ d: String) { description = d }
}

/// Makes `path` (created when missing, with its parents) a directory only its owner can
/// enter (0700), as a node's state directory MUST be: it holds the pairing secret and the
/// store. Returns true when it had to tighten the mode of an existing directory.
@discardableResult
public func makePrivateDirectory(_ path: String) throws -> Bool {
    if access(path, F_OK) != 0 {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try makeDirectories(String(path[..<slash])) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw POSIXError("mkdir(\(path))") }
    }
    var st = stat()
    guard stat(path, &st) == 0 else { throw POSIXError("stat(\(path))") }
    guard st.st_mode & 0o077 != 0 else { return false }
    guard chmod(path, 0o700) == 0 else { throw POSIXError("chmod(\(path))") }
    return true
}

/// Tightens a secret file to 0600 when others could read it; true when it did.
@discardableResult
public func makeFilePrivate(_ path: String) -> Bool {
    var st = stat()
    guard stat(path, &st) == 0, st.st_mode & 0o077 != 0 else { return false }
    return chmod(path, 0o600) == 0
}

/// Reads a whole small text file; nil when it cannot be read.
public func readTextFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
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

/// Writes a whole text file atomically (temporary file, then rename). The descriptor is
/// close-on-exec: a child another thread forks meanwhile must not hold the file open for
/// writing, or executing the file (a script just written) fails with "Text file busy".
public func writeTextFile(_ path: String, _ text: String) throws {
    try writeFileAtomically(path, Array(text.utf8))
}

/// Writes a whole file atomically (as `writeTextFile`).
public func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws {
    let tmp = path + ".tmp"
    let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw PathError("write", path) }
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
