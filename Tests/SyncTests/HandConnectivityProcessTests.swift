import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import Testing

/// The built `phone-node` and `watch-node` on the wall clock, paired over TCP, typed at as a
/// person would: a message sent at the phone's prompt gets its reply on a later line, and the
/// watch's prompt shows what arrived.
@Suite("Process mode: connectivity commands at the prompt")
struct HandConnectivityProcessTests {
    /// Reads lines until one satisfies `match` (within `timeoutMs`); the lines read before it
    /// are returned too, for the failure message.
    static func waitForLine(_ p: ChildProcess, timeoutMs: Int = 15_000, _ match: (String) -> Bool) -> (line: String?, seen: [String]) {
        let deadline = ChildProcess.monotonicMs() + Int64(timeoutMs)
        var seen: [String] = []
        while ChildProcess.monotonicMs() < deadline {
            guard let line = p.readLine(timeoutMs: Int(deadline - ChildProcess.monotonicMs())) else { break }
            if match(line) { return (line, seen) }
            seen.append(line)
        }
        return (nil, seen)
    }

    @Test func aMessageTypedAtThePhoneShowsTheWatchsReplyOnALaterLine() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-hand")
        defer { removeTree(dir) }
        let bin = executableDirectory()
        let pair = try ChildProcess(name: "pair", path: bin + "/phone-node", arguments: ["pair", "--state", dir + "/phone"],
                                    stderrPath: dir + "/pair.err")
        let code = try #require(pair.readLine(timeoutMs: 15_000))
        // The watch takes the code on its standard input (never as an argument).
        let take = try ChildProcess(name: "take", path: bin + "/watch-node", arguments: ["pair", "--state", dir + "/watch"],
                                    stderrPath: dir + "/take.err")
        try take.send(code)
        #expect(take.waitForExit(timeoutMs: 15_000) == 0, "watch-node pair failed")
        let phone = try ChildProcess(name: "phone", path: bin + "/phone-node",
                                     arguments: ["--state", dir + "/phone", "--listen", "127.0.0.1:0", "--locale", "en"],
                                     stderrPath: dir + "/phone.err")
        defer { phone.terminate() }
        let listening = try #require(Self.waitForLine(phone) { $0.hasPrefix("! listening ") }.line)
        let port = try #require(listening.split(separator: ":").last.map(String.init))
        let watch = try ChildProcess(name: "watch", path: bin + "/watch-node",
                                     arguments: ["--state", dir + "/watch", "--connect", "127.0.0.1:\(port)", "--locale", "en"],
                                     stderrPath: dir + "/watch.err")
        defer { watch.terminate() }
        // Wait for the watch to be reachable from the phone (the event, with a deadline).
        var reachable = false
        var tag = 0
        let deadline = ChildProcess.monotonicMs() + 15_000
        while !reachable, ChildProcess.monotonicMs() < deadline {
            tag += 1
            try phone.send("@\(tag) query link reachable")
            reachable = Self.waitForLine(phone) { $0.hasPrefix("@\(tag) ") }.line == "@\(tag) ok true"
        }
        #expect(reachable, "the watch never became reachable")

        try phone.send(#"message send {"hello": "watch"}"#)
        let sent = Self.waitForLine(phone) { $0.hasPrefix("Sent message m") }
        #expect(sent.line != nil, "no acknowledgement; saw \(sent.seen)")
        let reply = Self.waitForLine(phone) { $0.hasPrefix("! Reply to message m") }
        #expect(reply.line?.hasSuffix(#": {"error":"unknown message"}"#) == true, "saw \(reply.seen)")
        let arrived = Self.waitForLine(watch) { $0.hasPrefix("! ← Message m") }
        #expect(arrived.line?.hasSuffix(#"from the iPhone: {"hello":"watch"}"#) == true, "saw \(arrived.seen)")

        try watch.send("message send [1]")
        let refused = Self.waitForLine(watch) { $0.hasPrefix("error: ") }
        #expect(refused.line == #"error: give a dictionary ({"key": value})"#, "saw \(refused.seen)")
    }
}
