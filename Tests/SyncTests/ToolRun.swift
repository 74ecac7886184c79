#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLink
import Simulator

/// One run of a built executable (next to the test bundle) to its end: what a person at a
/// terminal would see of it.
struct ToolRun {
    var status: Int32
    var stdout: [String]
    var stderr: String

    /// Runs `tool` (`phone-node`, `watch-node`, `sync-sim`) with `arguments` in `directory`,
    /// standard input closed after `input`, for at most `timeoutMs`.
    static func run(_ tool: String, _ arguments: [String], input: [String] = [], in directory: String? = nil,
                    timeoutMs: Int = 60_000) throws -> ToolRun {
        let work = try makeTemporaryDirectory(prefix: "peerlink-tool")
        defer { removeTree(work) }
        let errPath = work + "/stderr"
        let child = try ChildProcess(name: tool, path: executableDirectory() + "/" + tool, arguments: arguments, stderrPath: errPath,
                                     workingDirectory: directory)
        for line in input { try child.send(line) }
        child.closeInput()
        let end = try #require(child.finish(timeoutMs: timeoutMs), "\(tool) \(arguments.joined(separator: " ")) did not finish in \(timeoutMs) ms")
        return ToolRun(status: end.status, stdout: end.lines, stderr: readTextFile(errPath) ?? "")
    }

    /// The lines of stderr.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}
