#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import PeerLinkCore
@testable import PeerLinkPOSIX
@testable import PeerLinkSim
@testable import PeerLinkScenarios
import PhoneWatch

/// The built `phone-node` and `watch-node` as separate processes, as a person (or an
/// attacker on the same machine) meets them: pairing through standard input, secrets kept
/// off command lines and out of the environment, private state, and a flood of strangers.
@Suite("Node processes under attack", .serialized)
struct SecurityProcessTests {
    static let bin = executableDirectory()

    static func tempDir(_ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "peerlink-sec-\(name)-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try makeDirectories(dir)
        return dir
    }

    /// A node's answer to `@tag command` (its control channel), within the deadline.
    static func ask(_ p: ChildProcess, _ command: String, tag: inout Int) throws -> String {
        tag += 1
        try p.send("@\(tag) \(command)")
        let deadline = ChildProcess.monotonicMs() + 15_000
        while ChildProcess.monotonicMs() < deadline {
            guard let line = p.readLine(timeoutMs: 1_000) else { continue }
            if line.hasPrefix("@\(tag) ") { return String(line.dropFirst("@\(tag) ".count)) }
        }
        throw NodeCallError(message: "\(p.name) did not answer \(command)")
    }

    /// Asks until the answer is `expected`, within a deadline of real time.
    static func waitFor(_ p: ChildProcess, _ command: String, _ expected: String, tag: inout Int) throws {
        let deadline = ChildProcess.monotonicMs() + 30_000
        var last = ""
        while ChildProcess.monotonicMs() < deadline {
            last = try ask(p, command, tag: &tag)
            if last == expected { return }
            usleep(20_000)
        }
        throw NodeCallError(message: "\(p.name): \(command) answered \(last), never \(expected)")
    }

    /// Pairs two state directories as the README says: `phone-node pair` prints the code,
    /// `watch-node pair` reads it from standard input. Returns the code.
    static func pair(phone pd: String, watch wd: String) throws -> String {
        let pair = try ChildProcess(name: "pair", path: bin + "/phone-node", arguments: ["pair", "--state", pd], stderrPath: pd + ".err")
        let code = try #require(pair.readLine(timeoutMs: 10_000))
        let take = try ChildProcess(name: "take", path: bin + "/watch-node", arguments: ["pair", "--state", wd], stderrPath: wd + ".err")
        try take.send(code)
        #expect(take.readLine(timeoutMs: 10_000)?.hasPrefix("paired") == true)
        return code
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o777 : 0
    }

    static func procFile(_ pid: pid_t, _ name: String) -> [UInt8] {
        guard let text = readTextFile("/proc/\(pid)/\(name)") else { return [] }
        return Array(text.utf8)
    }

    /// Peak and current resident memory of a process, in KiB (`VmHWM`, `VmRSS`).
    static func memoryKiB(_ pid: pid_t) -> (peak: Int, now: Int) {
        let status = readTextFile("/proc/\(pid)/status") ?? ""
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        return (field("VmHWM"), field("VmRSS"))
    }

    @Test func pairingGoesThroughStandardInputAndNoCodeIsInAnyProcesssArgumentsOrEnvironment() throws {
        let pd = try Self.tempDir("phone"), wd = try Self.tempDir("watch")
        defer { removeTree(pd); removeTree(wd) }
        let code = try Self.pair(phone: pd, watch: wd)
        #expect(PairingFile.secret(fromCode: code)?.count == 32)
        #expect(PairingFile.read(directory: wd) == PairingFile.secret(fromCode: code))
        for dir in [pd, wd] {
            #expect(Self.mode(dir) == 0o700, "\(dir) is \(String(Self.mode(dir), radix: 8))")
            #expect(Self.mode(dir + "/" + PairingFile.fileName) == 0o600)
        }
        // A scenario run in process mode: the driver pairs its nodes the same way.
        let driver = ProcessDriver(options: ConductorOptions(binDirectory: Self.bin))
        let scenario = try ScenarioParser.parse("start 2026-06-01T07:00:00+09:00\n07:00:00 watch steps 100\n07:01:00 expect converged\n", file: "t.scenario")
        try driver.start(scenario)
        defer { _ = driver.stop(keepState: false) }
        for role in DeviceRole.allCases {
            let pid = try #require(driver.nodes[role]?.process.pid)
            let runCode = try #require(readTextFile(driver.stateDir(role) + "/" + PairingFile.fileName)).trimmingCharacters()
            let digits = Array(runCode.filter { $0 != "-" }.utf8)
            for file in ["cmdline", "environ"] {
                let bytes = Self.procFile(pid, file)
                #expect(!bytes.isEmpty)
                #expect(!bytes.indices.contains { bytes[$0...].starts(with: Array(runCode.utf8)) } && !bytes.indices.contains { bytes[$0...].starts(with: digits.prefix(16)) },
                        "the \(role)'s \(file) holds its pairing code")
            }
            #expect(Self.mode(driver.stateDir(role)) == 0o700)
        }
    }

    @Test func aBadCodeOrACodeAsAnArgumentIsRefusedAndNothingIsStored() throws {
        let wd = try Self.tempDir("watch-bad")
        defer { removeTree(wd) }
        let typo = try ChildProcess(name: "typo", path: Self.bin + "/watch-node", arguments: ["pair", "--state", wd], stderrPath: wd + ".err")
        try typo.send(String(repeating: "0", count: 68))
        #expect(typo.waitForExit(timeoutMs: 10_000) == 2)
        #expect(readTextFile(wd + ".err")?.contains("mistyped") == true)
        #expect(access(wd + "/" + PairingFile.fileName, F_OK) != 0)
        let argv = try ChildProcess(name: "argv", path: Self.bin + "/watch-node",
                                    arguments: ["--state", wd, "--pair", PairingFile.code(for: [UInt8](repeating: 1, count: 32))], stderrPath: wd + ".err")
        #expect(argv.waitForExit(timeoutMs: 10_000) == 2)
        #expect(readTextFile(wd + ".err")?.contains("--pair CODE is gone") == true)
        #expect(access(wd + "/" + PairingFile.fileName, F_OK) != 0)
        // A pair file others can read is refused; the same code in a 0600 file is taken.
        let codeFile = wd + ".code"
        defer { unlink(codeFile) }
        let secret = secureRandomBytes(PairingFile.secretBytes)
        try writeTextFile(codeFile, PairingFile.code(for: secret) + "\n")
        chmod(codeFile, 0o644)
        let loose = try ChildProcess(name: "loose", path: Self.bin + "/watch-node", arguments: ["pair", "--state", wd, "--pair-file", codeFile], stderrPath: wd + ".err")
        #expect(loose.waitForExit(timeoutMs: 10_000) == 2)
        #expect(readTextFile(wd + ".err")?.contains("can be read by other users (mode 644)") == true)
        #expect(access(wd + "/" + PairingFile.fileName, F_OK) != 0)
        chmod(codeFile, 0o600)
        let tight = try ChildProcess(name: "tight", path: Self.bin + "/watch-node", arguments: ["pair", "--state", wd, "--pair-file", codeFile], stderrPath: wd + ".err")
        #expect(tight.waitForExit(timeoutMs: 10_000) == 0)
        #expect(PairingFile.read(directory: wd) == secret)
    }

    /// Each `phone-node pair` draws a new 32-byte secret from the secure generator.
    @Test func eachPairingMakesANewSecret() throws {
        let a = try Self.tempDir("pair-a"), b = try Self.tempDir("pair-b")
        defer { removeTree(a); removeTree(b) }
        let secrets = try [a, b].map { dir in
            let p = try ChildProcess(name: "pair", path: Self.bin + "/phone-node", arguments: ["pair", "--state", dir], stderrPath: dir + ".err")
            let code = try #require(p.readLine(timeoutMs: 10_000))
            return try #require(PairingFile.secret(fromCode: code))
        }
        #expect(secrets.allSatisfy { $0.count == 32 } && secrets[0] != secrets[1])
        #expect(PairingFile.read(directory: a) == secrets[0] && PairingFile.read(directory: b) == secrets[1])
    }

    /// 2,000 strangers, in waves of 100 held open at once, announcing records of a megabyte
    /// (as protocol 1 allowed), of 65,535 bytes, or starting a handshake they cannot finish:
    /// the phone's peak memory grows by less than 8 MiB over what it had before (about 30 MiB
    /// here; protocol 1 went from 29 to 484 MB with 300 such strangers), its log stays under
    /// 64 KiB, and the paired watch keeps syncing all along.
    @Test func aFloodOfStrangersLeavesThePhoneSmallWhileThePairedWatchSyncs() throws {
        let pd = try Self.tempDir("flood-phone"), wd = try Self.tempDir("flood-watch")
        defer { removeTree(pd); removeTree(wd) }
        _ = try Self.pair(phone: pd, watch: wd)
        let phone = try ChildProcess(name: "phone", path: Self.bin + "/phone-node", arguments: ["--state", pd, "--listen", "127.0.0.1:0"], stderrPath: pd + ".err")
        defer { phone.terminate() }
        var port: UInt16 = 0
        while let line = phone.readLine(timeoutMs: 15_000) {
            if line.hasPrefix("! listening "), let p = line.split(separator: ":").last.flatMap({ UInt16($0) }) { port = p }
            if line == "! ready" { break }
        }
        let watch = try ChildProcess(name: "watch", path: Self.bin + "/watch-node", arguments: ["--state", wd, "--connect", "127.0.0.1:\(port)"], stderrPath: wd + ".err")
        defer { watch.terminate() }
        var wt = 0, pt = 0
        try Self.waitFor(watch, "query link reachable", "ok true", tag: &wt)
        let baseline = Self.memoryKiB(phone.pid)

        let stranger = StrangerFrames.attempt(ephemeralKey: [UInt8](repeating: 5, count: 32), wrongSecret: [UInt8](repeating: 6, count: 32))
        let announcements: [[UInt8]] = [
            [0x50, 0x4C, 1, 0x10, 0x00, 0x10, 0x00, 0x00] + [UInt8](repeating: 0xAB, count: 4_000),  // protocol 1: a 1 MiB user info
            [0x50, 0x4C, 2, RecordType.hello.rawValue, 0xFF, 0xFF] + [UInt8](repeating: 0xAB, count: 4_000),
            [0x50, 0x4C, 2, RecordType.sealed.rawValue, 0xFF, 0xFF] + [UInt8](repeating: 0xAB, count: 4_000),
            Array(stranger.prefix(30)),  // a handshake begun and never finished
        ]
        var strangers = 0
        for wave in 0..<20 {
            var fds: [Int32] = []
            for i in 0..<100 {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                guard (try? SocketAddress(host: "127.0.0.1", port: port).withSockAddr({ connect(fd, $0, $1) })) == 0 else { close(fd); continue }
                let a = announcements[(wave + i) % announcements.count]
                _ = a.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                fds.append(fd)
                strangers += 1
            }
            // The watch writes, and the phone must have it while the strangers hold on.
            let goal = 5_000 + wave * 10
            #expect(try Self.ask(watch, "settings step-goal \(goal)", tag: &wt).hasPrefix("ok"))
            try Self.waitFor(phone, "query settings step-goal", "ok \(goal)", tag: &pt)
            for fd in fds { close(fd) }
        }
        #expect(strangers >= 1_900)
        let after = Self.memoryKiB(phone.pid)
        let log = readTextFile(pd + "/node.log") ?? ""
        #expect(after.peak < max(baseline.peak, baseline.now) + 8 * 1024, "phone peak RSS \(after.peak) KiB (before: \(baseline.now) KiB, peak \(baseline.peak) KiB)")
        #expect(log.utf8.count < 64 * 1024, "node.log grew to \(log.utf8.count) bytes")
        #expect(try Self.ask(watch, "query link reachable", tag: &wt) == "ok true")
        print("flood: \(strangers) strangers; phone RSS \(baseline.now) KiB before, peak \(after.peak) KiB, now \(after.now) KiB; node.log \(log.utf8.count) bytes")
    }
}
