#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

/// A node's `--state` directory, held by one process at a time.
///
/// The node takes an advisory lock (`flock(LOCK_EX)`) on the directory itself for as long as
/// it runs, so a second node (or `pair`) on the same directory is refused at once instead of
/// sharing its SQLite file and its socket state. The lock needs no file of its own and goes
/// away with the process, however it ends.
public final class StateDirectory {
    public let path: String
    private let fd: Int32

    /// A problem with the directory a person named: the message says which and why.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Whether `path` exists; throws `UsageError` when it exists but is not a directory.
    public static func exists(_ path: String) throws -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT { return false }
            throw Problem(description: "cannot use --state \(path): \(POSIXError("stat").reason)")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else {
            throw UsageError("--state \(path) is a file, not a directory: name a directory (it is created when missing)")
        }
        return true
    }

    /// Creates the directory when missing (mode 0700) and locks it. Throws `Problem` when it
    /// is a file, cannot be created, or another node holds it.
    public init(path: String, role: DeviceRole) throws {
        self.path = path
        if try !Self.exists(path) {
            do { try makeDirectories(path, mode: 0o700) } catch {
                throw Problem(description: "--state \(path) cannot be created: \(error)")
            }
        }
        fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Problem(description: "cannot open --state \(path): \(POSIXError("open").reason)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(fd)
            throw Problem(description: busy
                ? "--state \(path) is in use by another running node: stop it first, or give this \(role.rawValue) node its own directory"
                : "cannot lock --state \(path): \(POSIXError("flock").reason)")
        }
    }

    deinit { close(fd) }
}
