#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkScenarios
import PhoneWatch

/// The executables as a careless newcomer meets them: the quick start from anywhere, bad usage
/// (exit 2 and a one-line reason that names the user's thing), one node per state directory.
@Suite("Command lines of the executables")
struct CommandLineTests {
    @Test func syncSimWithNoArgumentsRunsTheMorningRunFromAnotherDirectory() throws {
        // The quick start's `swift run sync-sim`: this sync-sim and nothing else built for it
        // (it runs its nodes as `sync-sim node phone|watch`), started outside the checkout.
        let r = try ToolRun.run("sync-sim", [], in: "/tmp", timeoutMs: 120_000)
        #expect(r.status == 0, "\(r.stdout.joined(separator: "\n"))\n\(r.stderr)")
        #expect(r.stdout.last == "1 passed, 0 failed")
        #expect(r.stdout.contains { $0.hasPrefix("PASS morning run") && $0.contains("process mode") })
    }

    @Test func syncSimBadUsageExitsTwoWithOneLine() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-cli")
        defer { removeTree(dir) }
        for (args, reason) in [
            (["\(dir)/missing.scenario"], "sync-sim: error: no scenario file \(dir)/missing.scenario"),
            ([dir], "sync-sim: error: \(dir) is a directory: name scenario files, e.g. \(dir)/*.scenario"),
            (["sweep", "\(Library.repositoryRoot)/scenarios/morning-run.scenario", "--seeds", "0"], "sync-sim: error: --seeds takes a count of at least 1"),
            (["--bogus"], "sync-sim: error: unknown option '--bogus'"),
            (["node", "tablet"], "sync-sim: error: `sync-sim node` takes phone or watch"),
        ] {
            let r = try ToolRun.run("sync-sim", args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix(reason), "\(args): \(r.stderr)")
        }
    }

    @Test func aScenarioWithSeveralErrorsReportsEachOnce() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-cli")
        defer { removeTree(dir) }
        let path = dir + "/bad.scenario"
        try writeTextFile(path, "start 2026-06-01T07:00:00+09:00\n07:00 every 5x for 10m: watch hr 100\n07:02 wach hr 1\n")
        let r = try ToolRun.run("sync-sim", ["--mode", "sim", path])
        #expect(r.status == 1)
        #expect(r.stderrLines == [
            "\(path):2:13: error: bad period '5x' (a duration like 250ms, 5s, 10m, 1h30m)",
            "\(path):3:7: error: unknown action 'wach' (expected phone, watch, expect, link, kill, restart, crash, clock, corrupt, rollback, damage-partial-file, stranger or every)",
        ])
        #expect(r.stdout.last == "0 passed, 1 failed")
        #expect(!r.stdout.joined().contains("bad period"), "the errors are listed once, on stderr")
    }

    @Test func aStateDirectoryThatIsAFileIsBadUsage() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-cli")
        defer { removeTree(dir) }
        try writeTextFile(dir + "/afile", "x")
        for tool in ["phone-node", "watch-node"] {
            let r = try ToolRun.run(tool, ["--state", dir + "/afile"])
            #expect(r.status == 2)
            #expect(r.stderr == "\(tool): error: --state \(dir)/afile is a file, not a directory: name a directory (it is created when missing)\n")
        }
    }

    @Test func aSecondNodeOnTheSameStateDirectoryIsRefusedAtOnce() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-cli")
        defer { removeTree(dir) }
        let first = try ChildProcess(name: "phone", path: executableDirectory() + "/phone-node",
                                     arguments: ["--state", dir + "/phone", "--listen", "127.0.0.1:0"], stderrPath: dir + "/first.err")
        #expect(first.readLine(timeoutMs: 15_000)?.hasPrefix("! listening ") == true)
        #expect(first.readLine(timeoutMs: 15_000) == "! ready")
        let second = try ToolRun.run("phone-node", ["--state", dir + "/phone", "--listen", "127.0.0.1:0"])
        #expect(second.status == 1)
        #expect(second.stderr == "phone-node: error: --state \(dir)/phone is in use by another running node: stop it first, or give this phone node its own directory\n")
        let pair = try ToolRun.run("phone-node", ["pair", "--state", dir + "/phone"])
        #expect(pair.status == 1, "pairing under a running node is refused too")
        try first.send("quit")
        #expect(first.finish(timeoutMs: 15_000)?.status == 0)
        // Once the first has stopped, the directory is free again.
        let third = try ToolRun.run("phone-node", ["--state", dir + "/phone", "--listen", "127.0.0.1:0"], input: ["quit"])
        #expect(third.status == 0, "\(third.stderr)")
    }

    @Test func aPhoneThatCannotListenCreatesNothing() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-cli")
        defer { removeTree(dir) }
        let holder = try ChildProcess(name: "phone", path: executableDirectory() + "/phone-node",
                                      arguments: ["--state", dir + "/holder", "--listen", "127.0.0.1:0"], stderrPath: dir + "/holder.err")
        let listening = try #require(holder.readLine(timeoutMs: 15_000))
        let address = String(listening.dropFirst("! listening ".count))
        let r = try ToolRun.run("phone-node", ["--state", dir + "/new", "--listen", address])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("phone-node: error: cannot listen on \(address): Address already in use"))
        #expect(access(dir + "/new", F_OK) != 0, "nothing was created")
        holder.terminate()
    }

    @Test func aStoreThatCannotBeOpenedIsNamedAndLeftAlone() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-cli")
        defer { removeTree(dir) }
        try makeDirectories(dir + "/phone/state.sqlite")
        let r = try ToolRun.run("phone-node", ["--state", dir + "/phone", "--listen", "127.0.0.1:0"])
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("phone-node: error: cannot open the store \(dir)/phone/state.sqlite: it is not a regular file (move it away and the node starts a new store)\n"))
        var st = stat()
        #expect(stat(dir + "/phone/state.sqlite", &st) == 0 && st.st_mode & S_IFMT == S_IFDIR, "not quarantined")
    }

    @Test func aWatchWithNoPhoneSaysOnceThatItWaits() throws {
        let dir = try makeTemporaryDirectory(prefix: "peerlink-cli")
        defer { removeTree(dir) }
        // A port nobody listens on: bind one, close it, use its number.
        let port = try Self.unusedLoopbackPort()
        // Paired (through standard input): an unpaired watch does not dial at all.
        let paired = try ToolRun.run("watch-node", ["pair", "--state", dir + "/watch"],
                                     input: [PairingFile.code(for: secureRandomBytes(PairingFile.secretBytes))])
        #expect(paired.status == 0, "\(paired.stderr)")
        let watch = try ChildProcess(name: "watch", path: executableDirectory() + "/watch-node",
                                     arguments: ["--state", dir + "/watch", "--connect", "127.0.0.1:\(port)", "--locale", "en"],
                                     stderrPath: dir + "/watch.err")
        #expect(watch.readLine(timeoutMs: 15_000) == "! ready")
        // Wait (with a deadline) until the log shows several failed attempts.
        let deadline = ChildProcess.monotonicMs() + 30_000
        var attempts = 0
        while ChildProcess.monotonicMs() < deadline {
            attempts = (readTextFile(dir + "/watch/node.log") ?? "").components(separatedBy: "failed: connect").count - 1
            if attempts >= 4 { break }
            _ = watch.readLine(timeoutMs: 100)
        }
        #expect(attempts >= 4)
        try watch.send("status")
        let status = try #require(watch.readLine(timeoutMs: 15_000))
        #expect(status.hasPrefix("{"), "the reply is on stdout: \(status)")
        try watch.send("quit")
        _ = watch.finish(timeoutMs: 15_000)
        let err = (readTextFile(dir + "/watch.err") ?? "").split(separator: "\n").map(String.init)
        #expect(err.filter { $0.hasPrefix("waiting for the phone at 127.0.0.1:\(port)") }.count == 1, "\(err)")
        #expect(!err.contains { $0.contains("connect to") }, "no line per attempt: \(err)")
    }

    static func unusedLoopbackPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &sin) { p in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(fd, $0, len) == 0, getsockname(fd, $0, &len) == 0 else { throw POSIXError("bind") }
            }
        }
        return UInt16(bigEndian: sin.sin_port)
    }
}
