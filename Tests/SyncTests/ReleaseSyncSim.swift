#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLinkPOSIX
import PeerLinkScenarios

/// `sync-sim` built in release, for the long sweeps: the libraries are built unoptimized in
/// debug (no `unsafeFlags`, so other packages can depend on PeerLink by version), where a
/// simulated seed costs several times what it costs optimized. The first test that needs it
/// runs `swift build -c release --product sync-sim` in its own scratch path
/// (`.build/release-tests`: `swift test` holds `.build`'s lock) and every test of the run
/// waits for that one build; an up-to-date build is reused (SwiftPM is incremental), so only
/// a clean clone pays the whole build, about 3 minutes on 2 cores.
enum ReleaseSyncSim {
    /// The executable's path, or why it could not be built.
    static let path: Result<String, BuildFailure> = build()

    struct BuildFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The release executable, or a recorded issue saying why there is none.
    static func require() throws -> String {
        switch path {
        case .success(let p): return p
        case .failure(let f): throw f
        }
    }

    private static func build() -> Result<String, BuildFailure> {
        let root = Library.repositoryRoot
        let scratch = root + "/.build/release-tests"
        guard let swift = ToolRun.findExecutable("swift") else {
            return .failure(BuildFailure(description: "no `swift` on PATH to build the release sync-sim with"))
        }
        let log = scratch + "-build.log"
        do {
            try makeDirectories(scratch)
            let child = try ChildProcess(name: "swift build", path: swift,
                                         arguments: ["build", "-c", "release", "--product", "sync-sim", "--scratch-path", scratch],
                                         stderrPath: log, workingDirectory: root)
            child.closeInput()
            guard let end = child.finish(timeoutMs: 30 * 60_000) else {
                return .failure(BuildFailure(description: "the release build of sync-sim did not finish in 30 minutes (\(log))"))
            }
            guard end.status == 0 else {
                return .failure(BuildFailure(description: "the release build of sync-sim failed (status \(end.status)): \(end.lines.suffix(5).joined(separator: " / ")) \(readTextFile(log) ?? "")"))
            }
        } catch {
            return .failure(BuildFailure(description: "cannot run swift build: \(error)"))
        }
        let exe = scratch + "/release/sync-sim"
        guard access(exe, X_OK) == 0 else { return .failure(BuildFailure(description: "the release build made no \(exe)")) }
        return .success(exe)
    }
}
