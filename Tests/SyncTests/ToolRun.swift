#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch
import PeerLinkPOSIX

/// One run of a built executable (next to the test bundle) to its end: what a person at a
/// terminal would see of it.
struct ToolRun {
    var status: Int32
    var stdout: [String]
    var stderr: String

    /// Runs `tool` (`phone-node`, `watch-node`, `sync-sim`) with `arguments` in `directory`,
    /// standard input closed after `input`, for at most `timeoutMs`. `environment` sets
    /// variables (nil: removes one) over this process's, through env(1).
    static func run(_ tool: String, _ arguments: [String], input: [String] = [], in directory: String? = nil,
                    environment: [String: String?] = [:], timeoutMs: Int = 60_000) throws -> ToolRun {
        try exec(executableDirectory() + "/" + tool, arguments, input: input, in: directory, environment: environment, timeoutMs: timeoutMs)
    }

    /// Runs `command` with /bin/sh in `directory`, the built executables first on PATH: a
    /// command line of a manifest, a workflow or a script, as written there.
    static func shell(_ command: String, in directory: String, environment: [String: String?] = [:], timeoutMs: Int = 60_000) throws -> ToolRun {
        var env = environment
        env["PATH"] = executableDirectory() + ":" + (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
        return try exec("/bin/sh", ["-c", command], in: directory, environment: env, timeoutMs: timeoutMs)
    }

    static func exec(_ path: String, _ arguments: [String], input: [String] = [], in directory: String?, environment: [String: String?],
                     timeoutMs: Int) throws -> ToolRun {
        let work = try makeTemporaryDirectory(prefix: "peerlink-tool")
        defer { removeTree(work) }
        let errPath = work + "/stderr"
        let name = String(path.split(separator: "/").last ?? "tool")
        // env(1) takes its -u options before the assignments.
        let sorted = environment.sorted { $0.key < $1.key }
        let settings = sorted.filter { $0.value == nil }.flatMap { ["-u", $0.key] } + sorted.compactMap { k, v in v.map { "\(k)=\($0)" } }
        let child = environment.isEmpty
            ? try ChildProcess(name: name, path: path, arguments: arguments, stderrPath: errPath, workingDirectory: directory)
            : try ChildProcess(name: name, path: "/usr/bin/env", arguments: settings + [path] + arguments, stderrPath: errPath, workingDirectory: directory)
        for line in input { try child.send(line) }
        child.closeInput()
        let end = try #require(child.finish(timeoutMs: timeoutMs), "\(name) \(arguments.joined(separator: " ")) did not finish in \(timeoutMs) ms")
        return ToolRun(status: end.status, stdout: end.lines, stderr: readTextFile(errPath) ?? "")
    }

    /// The variables `--shard auto` reads, all unset: a test that sets some is not misled by
    /// an engine the suite itself runs under.
    static let noEngine: [String: String?] = ["PEERLINK_SHARD_INDEX": nil, "PEERLINK_SHARD_COUNT": nil, "JOB_COMPLETION_INDEX": nil,
                                              "PARALLEL_SEQ": nil, "GITHUB_ACTIONS": nil]

    /// The first executable `name` on PATH, if any.
    static func findExecutable(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// The lines of stderr.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}
