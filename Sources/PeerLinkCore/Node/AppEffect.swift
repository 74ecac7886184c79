import Synchronization

/// What an app asks its node to do outside the replicated state and the link: the engine
/// performs it once the app's callback returns (before the event's commit and before the
/// session's file operations of that event, so a file written here is there when
/// `transferFile` measures it), then tells the app how it went (`NodeApp.onEffectOutcome`).
///
/// The app core itself holds no file handle and does no I/O (`ctx.perform(_:)`).
public enum AppEffect: Sendable, Equatable {
    /// Writes `bytes` as the node's file `path` (relative to its file root, replacing a file
    /// there), synced: what `transferFile` then sends.
    case writeFile(path: String, bytes: [UInt8])
    /// Removes the node's file `path` (nothing when there is none).
    case removeFile(path: String)
    /// Writes `bytes` as `name` in the node's export folder (the share sheet's stand-in):
    /// `<state>/exports/<name>` of a process, memory in the simulator.
    case export(name: String, bytes: [UInt8])
}

/// Why an effect could not be performed.
public struct AppEffectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason, for people.
    public var description: String
    /// True when the node has no export folder at all (`export` only).
    public var noExportFolder: Bool

    public init(_ description: String, noExportFolder: Bool = false) {
        self.description = description
        self.noExportFolder = noExportFolder
    }
}

/// Where a node's exports go: a shell's folder, given to the engine (never to the app).
public protocol ExportFolder: Sendable {
    /// Writes `bytes` as the file `name` (replacing one of that name) and returns its path as
    /// shown to people, or why it could not.
    func write(name: String, bytes: [UInt8]) -> Result<String, AppEffectError>
}

/// An export folder in memory (the simulator, tests).
///
public final class MemoryExportFolder: ExportFolder {
    private let files = Mutex<[String: [UInt8]]>([:])
    /// The folder prefixed to paths.
    public let folder: String

    /// An empty folder named `folder`.
    public init(folder: String = "exports") { self.folder = folder }

    /// Keeps `bytes` as `name`; the path is `<folder>/<name>`.
    public func write(name: String, bytes: [UInt8]) -> Result<String, AppEffectError> {
        guard ExportNames.isValid(name) else { return .failure(AppEffectError("bad file name '\(name)'")) }
        files.withLock { $0[name] = bytes }
        return .success("\(folder)/\(name)")
    }

    /// The bytes of file `name`, if written.
    public func file(_ name: String) -> [UInt8]? { files.withLock { $0[name] } }

    /// The names written so far, sorted.
    public var names: [String] { files.withLock { $0.keys.sorted() } }
}

/// The rule every export folder applies to names: one path component.
public enum ExportNames {
    /// True for a non-empty name without `/` that is not `.` or `..`.
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && name != "." && name != ".."
    }
}

extension NodeContext {
    /// Asks the node to perform `effect` once this callback returns; its outcome comes to
    /// `NodeApp.onEffectOutcome` in the same event.
    public mutating func perform(_ effect: AppEffect) {
        effects.append(effect)
    }
}
