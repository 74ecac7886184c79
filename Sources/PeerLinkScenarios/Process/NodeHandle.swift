import PeerLinkCore

/// A running node process driven over its control channel (`@ID command` → `@ID ok|err …`).
public final class NodeHandle {
    public let role: DeviceRole
    public let process: ChildProcess
    private var nextTag = 1
    /// Lines the node printed that were not answers (announcements), the latest
    /// `announcementLimit` of them: a long run's `!` lines do not pile up.
    public private(set) var announcements: [String] = []
    static let announcementLimit = 256
    /// How long to wait for one answer.
    public var replyTimeoutMs = 15_000

    init(role: DeviceRole, process: ChildProcess) {
        self.role = role
        self.process = process
    }

    /// Waits for an announcement line starting with `prefix` (e.g. `! listening`).
    func waitFor(prefix: String, timeoutMs: Int) -> String? {
        if let i = announcements.firstIndex(where: { $0.hasPrefix(prefix) }) { return announcements.remove(at: i) }
        let deadline = ChildProcess.monotonicMs() + Int64(timeoutMs)
        while ChildProcess.monotonicMs() < deadline {
            guard let line = process.readLine(timeoutMs: Int(deadline - ChildProcess.monotonicMs())) else { return nil }
            if line.hasPrefix(prefix) { return line }
            keep(line)
        }
        return nil
    }

    private func keep(_ line: String) {
        if announcements.count >= Self.announcementLimit { announcements.removeFirst(announcements.count - Self.announcementLimit + 1) }
        announcements.append(line)
    }

    /// Sends a command and returns its answer: `.ok(value)` or the error text.
    public func call(_ command: String) throws -> Result<PlistValue, NodeCallError> {
        try answer(to: send(command), command)
    }

    /// Sends a command without waiting; `answer(to:)` collects the reply. Lets the conductor
    /// ask both nodes at once.
    public func send(_ command: String) throws -> Int {
        let tag = nextTag
        nextTag += 1
        try process.send("@\(tag) \(command)")
        return tag
    }

    /// The answer to the command sent with `tag`.
    public func answer(to tag: Int, _ command: String) throws -> Result<PlistValue, NodeCallError> {
        let prefix = "@\(tag) "
        let deadline = ChildProcess.monotonicMs() + Int64(replyTimeoutMs)
        while ChildProcess.monotonicMs() < deadline {
            guard let line = process.readLine(timeoutMs: Int(deadline - ChildProcess.monotonicMs())) else { break }
            guard line.hasPrefix(prefix) else { keep(line); continue }
            let rest = line.dropFirst(prefix.count)
            if rest.hasPrefix("ok ") {
                let json = String(rest.dropFirst(3))
                do { return .success(try PlistValue.parseJSON(json)) } catch { throw NodeCallError(message: "unreadable answer from the \(role): \(json)") }
            }
            if rest.hasPrefix("err ") {
                let text = (try? PlistValue.parseJSON(String(rest.dropFirst(4))))?.stringValue ?? String(rest.dropFirst(4))
                return .failure(NodeCallError(message: text))
            }
        }
        throw NodeCallError(message: "the \(role) did not answer '\(command)' within \(replyTimeoutMs) ms" + (process.isRunning ? "" : " (it exited)"))
    }

    /// A call that must succeed.
    public func require(_ command: String) throws -> PlistValue {
        switch try call(command) {
        case .success(let v): return v
        case .failure(let e): throw NodeCallError(message: "\(role) `\(command)`: \(e.message)")
        }
    }
}

/// A node refused a command, or did not answer.
public struct NodeCallError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
