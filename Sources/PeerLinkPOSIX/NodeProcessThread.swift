#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import PeerLinkCore

/// A node process run on a thread of this process, driven through pipes as its control
/// channel: how tests and the benchmark run a phone and a watch over real loopback TCP
/// without spawning executables.
///
/// `call` sends one `@ID command` line and waits (with a deadline) for its one answer line.
public final class NodeProcessThread: @unchecked Sendable {
    // Unchecked: the node runs on its own thread and is reached only through the pipes;
    // `call` is used by one caller thread at a time.
    /// The port the phone listens on (nil for the watch).
    public private(set) var listeningPort: UInt16?
    private let commandFD: Int32
    private let answerFD: Int32
    /// What the node wrote, read by a thread of its own as soon as it is written: a node
    /// announces notices (`! …`) between answers, and one nobody calls for a while (the
    /// watch while a benchmark talks to the phone) must never block on a full pipe.
    private let output = LineQueue()
    private let readerDone = DispatchSemaphore(value: 0)
    private var nextTag = 1
    private let finished = DispatchSemaphore(value: 0)
    private var exitCode: Int32 = 0
    private var stopped = false

    /// A failure to start or to talk to the node.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts the node. `options.controlInput/controlOutput` are replaced by the pipes.
    public init<App: NodeApp>(options: NodeProcessOptions, makeApp: () -> App) throws {
        var toNode: [Int32] = [0, 0], fromNode: [Int32] = [0, 0]
        guard pipe(&toNode) == 0, pipe(&fromNode) == 0 else { throw POSIXError("pipe") }
        commandFD = toNode[1]
        answerFD = fromNode[0]
        var o = options
        o.controlInput = toNode[0]
        o.controlOutput = fromNode[1]
        o.standardErrorLevel = nil
        let node = try NodeProcess(options: o, makeApp: makeApp)
        let box = UncheckedBox(node)
        let holder = exitHolder
        let (nodeIn, nodeOut) = (toNode[0], fromNode[1])
        let thread = Thread { [finished] in
            let code = box.value.run()
            close(nodeIn)
            close(nodeOut)
            holder.exit = code
            finished.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
        let (fd, queue, done) = (answerFD, output, readerDone)
        Thread {
            var buf = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = read(fd, &buf, buf.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                queue.append(buf[0..<n])
            }
            queue.close()
            done.signal()
        }.start()
        while true {
            let line = try readLine(deadlineMs: 30_000)
            if line.hasPrefix("! listening ") {
                listeningPort = line.split(separator: ":").last.flatMap { UInt16($0) }
            } else if line == "! ready" {
                break
            }
        }
    }

    private let exitHolder = UncheckedBox(())

    /// Sends a command; returns its answer (`ok` with the JSON value, or the error text).
    @discardableResult
    public func call(_ command: String, deadlineMs: Int32 = 60_000) throws -> (ok: Bool, value: PlistValue) {
        let tag = nextTag
        nextTag += 1
        let line = Array("@\(tag) \(command)\n".utf8)
        var start = 0
        while start < line.count {
            let n = line[start...].withUnsafeBytes { write(commandFD, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "the node's control pipe is closed") }
            start += n
        }
        let prefix = "@\(tag) "
        while true {
            let answer = try readLine(deadlineMs: deadlineMs)
            guard answer.hasPrefix(prefix) else { continue }
            let rest = answer.dropFirst(prefix.count)
            if rest.hasPrefix("ok ") { return (true, (try? PlistValue.parseJSON(String(rest.dropFirst(3)))) ?? .string(String(rest))) }
            return (false, .string(String(rest.dropFirst(4))))
        }
    }

    /// Calls `query PATH` until `done` holds for its value, at most `attempts` times.
    public func waitFor(_ query: String, attempts: Int = 20_000, pauseMicroseconds: UInt32 = 200,
                        _ done: (PlistValue) -> Bool) throws -> PlistValue {
        var last: PlistValue = .string("no answer")
        for _ in 0..<attempts {
            let (ok, v) = try call(query)
            last = v
            if ok && done(v) { return v }
            usleep(pauseMicroseconds)
        }
        throw Failure(description: "'\(query)' never met its condition; last answer \(last.jsonString())")
    }

    /// Quits the node and waits for its thread; returns its exit code.
    @discardableResult
    public func stop() -> Int32 {
        guard !stopped else { return exitCode }
        stopped = true
        _ = try? call("quit", deadlineMs: 10_000)
        close(commandFD)
        finished.wait()
        readerDone.wait()
        close(answerFD)
        exitCode = exitHolder.exit
        return exitCode
    }

    deinit { if !stopped { stop() } }

    private func readLine(deadlineMs: Int32) throws -> String {
        switch output.next(deadlineMs: Int(deadlineMs)) {
        case .line(let line): return line
        case .timedOut: throw Failure(description: "no answer from the node within \(deadlineMs) ms")
        case .closed: throw Failure(description: "the node closed its control channel")
        }
    }
}

/// The lines a node wrote, filled by the reader thread and taken by the caller.
final class LineQueue: @unchecked Sendable {
    // Unchecked: every access holds `condition`.
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    /// Where the next line starts in `pending`.
    private var start = 0
    private var isClosed = false

    enum Next { case line(String), timedOut, closed }

    func append(_ bytes: ArraySlice<UInt8>) {
        condition.lock()
        pending.append(contentsOf: bytes)
        condition.broadcast()
        condition.unlock()
    }

    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next whole line, waiting at most `deadlineMs`.
    func next(deadlineMs: Int) -> Next {
        let deadline = Date(timeIntervalSinceNow: Double(deadlineMs) / 1000)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let nl = pending[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: pending[start..<nl], as: UTF8.self)
                start = nl + 1
                // Taken lines are dropped in bulk, not one by one (a backlog of notices).
                if start == pending.count { pending.removeAll(keepingCapacity: true); start = 0 }
                else if start > 1 << 16 && start > pending.count / 2 { pending.removeFirst(start); start = 0 }
                return .line(line)
            }
            if isClosed { return .closed }
            if !condition.wait(until: deadline) { return .timedOut }
        }
    }
}

/// Moves a non-Sendable node to its thread (it is used only there afterwards).
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    var exit: Int32 = 0
    init(_ value: T) { self.value = value }
}
