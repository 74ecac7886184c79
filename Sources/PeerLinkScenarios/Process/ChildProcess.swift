#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore
import PeerLinkPOSIX

/// A child process with a pipe to its stdin and from its stdout; stderr goes to a file.
/// The child is killed by PID when `terminate()` or `deinit` runs, whatever happened.
public final class ChildProcess {
    public let pid: pid_t
    public let name: String
    private let stdinFD: Int32
    private let stdoutFD: Int32
    private var buffer: [UInt8] = []
    public private(set) var exited = false
    public private(set) var exitStatus: Int32 = 0
    private var inputClosed = false

    /// Starts `path` with `arguments` (in `workingDirectory`, default this process's); stderr
    /// is appended to `stderrPath`.
    public init(name: String, path: String, arguments: [String], stderrPath: String, workingDirectory: String? = nil) throws {
        self.name = name
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        // The child's stdin is one end of a socket pair, not a pipe: `send` with MSG_NOSIGNAL
        // to a child that is gone fails with EPIPE, where a write to a pipe would raise SIGPIPE
        // and kill this process (the harness leaves the signal's disposition alone).
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &inPipe) == 0 else { throw POSIXError("socketpair") }
        guard pipe(&outPipe) == 0 else {
            let e = POSIXError("pipe")
            close(inPipe[0]); close(inPipe[1])
            throw e
        }
        // Close-on-exec: no other child (spawned meanwhile by another thread) inherits these
        // ends; the dup2 into this child's 0 and 1 clears the flag there.
        for fd in [inPipe[0], inPipe[1], outPipe[0], outPipe[1]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        for fd in [inPipe[0], inPipe[1], outPipe[0], outPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        if let dir = workingDirectory {
            guard let addChdir = Self.addChdir, addChdir(&actions, dir) == 0 else { throw POSIXError("posix_spawn_file_actions_addchdir_np(\(dir))") }
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        // The child starts with SIGPIPE at its default even when this process ignores it (as a
        // node process in it does): an ignored signal stays ignored across exec.
        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { throw POSIXError("posix_spawnattr_init") }
        defer { posix_spawnattr_destroy(&attributes) }
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        guard posix_spawnattr_setsigdefault(&attributes, &pipeSignal) == 0,
              posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF)) == 0 else { throw POSIXError("posix_spawnattr") }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        close(inPipe[0])
        close(outPipe[1])
        guard rc == 0 else {
            close(inPipe[1]); close(outPipe[0])
            throw POSIXError("posix_spawn(\(path))", rc)
        }
        pid = child
        stdinFD = inPipe[1]
        stdoutFD = outPipe[0]
        _ = fcntl(stdoutFD, F_SETFL, fcntl(stdoutFD, F_GETFL, 0) | O_NONBLOCK)
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which the Glibc module
    /// does not export: looked up at run time.
    private static let addChdir = systemFunction(
        "posix_spawn_file_actions_addchdir_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)

    deinit {
        terminate()
        if !inputClosed { close(stdinFD) }
        close(stdoutFD)
    }

    /// Writes one line to the child's stdin.
    public func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var start = 0
        while start < bytes.count {
            let n = bytes[start...].withUnsafeBytes { Glibc.send(stdinFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if errno == EINTR { continue }; throw POSIXError("write to \(name)") }
            start += n
        }
    }

    /// The next line of stdout, waiting at most `timeoutMs`; nil on timeout or end of output.
    public func readLine(timeoutMs: Int) -> String? {
        let deadline = Self.monotonicMs() + Int64(timeoutMs)
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[0..<nl], as: UTF8.self)
                buffer.removeFirst(nl + 1)
                return line
            }
            let left = deadline - Self.monotonicMs()
            if left <= 0 { return nil }
            var pfd = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            let r = poll(&pfd, 1, Int32(min(left, 1000)))
            if r < 0 && errno != EINTR { return nil }
            if r <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = read(stdoutFD, &chunk, chunk.count)
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                return nil
            } else if errno != EAGAIN && errno != EINTR {
                return nil
            }
        }
    }

    /// True while the child has not exited (reaps it when it has).
    public var isRunning: Bool {
        if exited { return false }
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == pid { exited = true; exitStatus = status; return false }
        return true
    }

    /// Waits for the child to exit on its own; its exit code, or nil when it had not exited
    /// within `timeoutMs` (or was killed by a signal).
    public func waitForExit(timeoutMs: Int) -> Int32? {
        let deadline = Self.monotonicMs() + Int64(timeoutMs)
        while isRunning {
            if Self.monotonicMs() > deadline { return nil }
            usleep(5_000)
        }
        let signal = exitStatus & 0x7F
        return signal == 0 ? (exitStatus >> 8) & 0xFF : nil
    }

    /// Reads the child's output to its end and reaps it, at most `timeoutMs` in all: its exit
    /// code (128 + the signal when a signal ended it) and every line it printed that `readLine`
    /// had not taken; nil (the child killed) when it had not closed its output by the deadline.
    public func finish(timeoutMs: Int) -> (status: Int32, lines: [String])? {
        var lines: [String] = []
        let deadline = Self.monotonicMs() + Int64(timeoutMs)
        while true {
            let left = deadline - Self.monotonicMs()
            guard left > 0, let line = readLine(timeoutMs: Int(left)) else { break }
            lines.append(line)
        }
        if Self.monotonicMs() >= deadline { kill9(); return nil }
        if !buffer.isEmpty { lines.append(String(decoding: buffer, as: UTF8.self)); buffer = [] }
        // The output is closed: the child is exiting; wait for it.
        if !exited {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exited = true
            exitStatus = status
        }
        let signal = exitStatus & 0x7f
        return (signal == 0 ? (exitStatus >> 8) & 0xff : 128 + signal, lines)
    }

    /// Closes the child's standard input (it sees end of file).
    public func closeInput() { close(stdinFD); inputClosed = true }

    /// `kill -9` and reap.
    public func kill9() {
        guard !exited else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        exited = true
        exitStatus = status
    }

    /// Asks politely (SIGTERM), then kills; always reaps.
    public func terminate() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        for _ in 0..<50 {
            if !isRunning { return }
            usleep(10_000)
        }
        kill9()
    }

    /// Monotonic milliseconds (the conductor's and sweeps' own timing, never given to a node).
    public static func monotonicMs() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec / 1_000_000)
    }
}

/// A temporary directory, removed (recursively) on `remove()`.
public func makeTemporaryDirectory(prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let p = mkdtemp(&template) else { throw POSIXError("mkdtemp") }
    return String(cString: p)
}

/// Removes a directory tree (like `rm -rf`); errors are ignored.
public func removeTree(_ path: String) {
    guard let dir = opendir(path) else { unlink(path); return }
    while let entry = readdir(dir) {
        let name = withUnsafePointer(to: entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
        if name == "." || name == ".." { continue }
        let child = path + "/" + name
        var st = stat()
        if lstat(child, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { removeTree(child) } else { unlink(child) }
    }
    closedir(dir)
    rmdir(path)
}

/// The directory of the running executable (where `phone-node` and `watch-node` are built).
public func executableDirectory() -> String {
    let path = executablePath()
    return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}

/// The absolute path of the running executable (`/proc/self/exe`).
public func executablePath() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { return CommandLine.arguments[0] }
    return buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// Reads a scenario (or any small text) file; nil when it cannot be read.
public func readScenarioFile(_ path: String) -> String? { readTextFile(path) }
