#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import PeerLinkScenarios
import PeerLinkPOSIX

/// A driver writing to a node that died (killed by a step, or crashed) between two commands
/// gets an error, not SIGPIPE: a fresh clone's suite was killed by signal 13 in a process-mode
/// scenario whenever no test of the process shell (which ignores SIGPIPE for itself) had run
/// before it. The harness does not touch the signal's disposition: a child's stdin is a socket
/// written with MSG_NOSIGNAL. Its children start with SIGPIPE at its default.
@Suite("Writes to a child that is gone")
struct BrokenPipeTests {
    /// Run alone (SIGPIPE at its default), a write that raised the signal kills the test
    /// process: that is how this test fails.
    @Test func aLineSentToAChildThatExitedIsAnErrorNotASignal() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-pipe")
        defer { removeTree(dir) }
        let child = try ChildProcess(name: "true", path: "/bin/true", arguments: [], stderrPath: dir + "/err")
        #expect(child.waitForExit(timeoutMs: 10_000) == 0)
        do {
            try child.send("status")
            Issue.record("a write to a child that exited succeeded")
        } catch let e as PeerLinkPOSIX.POSIXError {
            #expect(e.errno == EPIPE, "\(e)")
        }
    }

    @Test func aChildStartsWithSIGPIPEAtItsDefaultThoughThisProcessIgnoresIt() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-pipe")
        defer { removeTree(dir) }
        signal(SIGPIPE, SIG_IGN)  // as a node process in this process sets it
        let child = try ChildProcess(name: "sh", path: "/bin/sh", arguments: ["-c", "grep SigIgn /proc/self/status"], stderrPath: dir + "/err")
        let line = try #require(child.readLine(timeoutMs: 10_000), "the child printed nothing")
        let mask = try #require(UInt64(line.split(separator: "\t").last.map(String.init) ?? "", radix: 16), "\(line)")
        #expect(mask & (1 << (UInt64(SIGPIPE) - 1)) == 0, "SIGPIPE ignored in the child: \(line)")
    }
}
