#if canImport(Glibc)
import Glibc
#endif
import PeerLinkCore
import PeerLinkScenarios

/// The commit a sweep report names (SwiftPM cannot stamp one into the build): the first of
/// - `PEERLINK_COMMIT` from the environment (CI and images set it: `${{ github.sha }}`, a
///   build argument of the Dockerfile);
/// - `git rev-parse HEAD` in the checkout that holds this executable (`.build/…/sync-sim`),
///   then in the one that holds the scenario file, with `-dirty` when tracked files differ
///   from it;
/// - `unknown`.
/// The commit read from a checkout is its HEAD now, which is the build's only when nothing
/// was checked out since the build; the version (`PeerLinkVersion`) is compiled in.
/// `sync-sim --version` asks without a scenario file.
func buildCommit(scenarioFile: String?, environment: [String: String]) -> String {
    if let c = environment["PEERLINK_COMMIT"], !c.isEmpty { return c }
    guard let git = findInPath("git", environment["PATH"] ?? "/usr/bin:/bin") else { return "unknown" }
    var dirs = [executableDirectory()]
    if let file = scenarioFile {
        let dir = file.contains("/") ? String(file[..<file.lastIndex(of: "/")!]) : "."
        dirs.append(dir.isEmpty ? "/" : dir)
    }
    for dir in dirs {
        guard let head = run(git, ["-C", dir, "rev-parse", "HEAD"])?.first, head.count == 40 else { continue }
        let changed = run(git, ["-C", dir, "status", "--porcelain", "--untracked-files=no"]) ?? []
        return changed.isEmpty ? head : head + "-dirty"
    }
    return "unknown"
}

/// The first executable `name` on `path`.
func findInPath(_ name: String, _ path: String) -> String? {
    path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
}

/// The output lines of `tool arguments`, nil when it fails or takes more than 10 s.
private func run(_ tool: String, _ arguments: [String]) -> [String]? {
    guard let child = try? ChildProcess(name: "git", path: tool, arguments: arguments, stderrPath: "/dev/null") else { return nil }
    child.closeInput()
    guard let end = child.finish(timeoutMs: 10_000), end.status == 0 else { return nil }
    return end.lines
}
