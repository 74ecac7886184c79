import Dispatch
import Foundation

/// Debian's `chromium`, run headless from its command line (`--dump-dom`, `--screenshot`,
/// `--virtual-time-budget`): the report is checked as a browser renders it. A run is waited
/// for with a deadline and killed by its PID when it overruns.
struct HeadlessChromium {
    let path: String

    /// The browser, or nil when it is not installed (`.ci/run` installs it).
    static let installed: HeadlessChromium? = {
        let candidates = [ProcessInfo.processInfo.environment["PEERLINK_CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }.map(HeadlessChromium.init(path:))
    }()

    /// Under CI (`CI=true`) a missing browser fails the run instead of skipping its tests.
    static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The page's DOM after its scripts ran (virtual time, so no waiting on the wall clock).
    func dumpDOM(_ url: String) throws -> String {
        try run(["--virtual-time-budget=5000", "--dump-dom", url]).stdout
    }

    /// A PNG of the page's first `width` × `height` pixels.
    func screenshot(_ url: String, width: Int, height: Int, to png: String) throws {
        _ = try run(["--virtual-time-budget=5000", "--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(png)", url])
    }

    /// Runs the browser headless with a throwaway profile; its output, or an error on a
    /// non-zero exit or after `timeoutSeconds`.
    func run(_ arguments: [String], timeoutSeconds: Int = 60) throws -> (stdout: String, stderr: String) {
        let dir = NSTemporaryDirectory() + "peerlink-chromium-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/stdout", err = dir + "/stderr"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                       "--disable-extensions", "--user-data-dir=\(dir)/profile"] + arguments
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        if done.wait(timeout: .now() + .seconds(timeoutSeconds)) == .timedOut {
            kill(p.processIdentifier, SIGKILL)
            _ = done.wait(timeout: .now() + .seconds(10))
            throw Failure(description: "chromium did not finish within \(timeoutSeconds) s: \(arguments)")
        }
        let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        guard p.terminationStatus == 0 else { throw Failure(description: "chromium exited with \(p.terminationStatus): \(stderr.suffix(2000))") }
        return (stdout, stderr)
    }
}
