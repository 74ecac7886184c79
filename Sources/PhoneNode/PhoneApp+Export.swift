import Foundation
import PeerLinkCore
import FitnessDomain

/// Where the phone puts an exported file: the share sheet's stand-in.
///
/// The app core stays free of I/O: the shell injects a sink. `phone-node` writes
/// `<state>/exports/<name>` atomically (temporary file, then rename); tests use `MemoryFileSink`.
public protocol PhoneFileSink: Sendable {
    /// Writes `bytes` as the file `name` (replacing one of that name) and returns its path, or
    /// why it could not.
    func write(name: String, bytes: [UInt8]) -> Result<String, PhoneFileSinkError>
}

/// Why an export file could not be written.
public struct PhoneFileSinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason, for people.
    public var description: String
    /// An error with its reason.
    public init(_ description: String) { self.description = description }
}

/// A sink that keeps files in memory (tests, the in-process simulator).
///
/// Unchecked Sendable: every access to `files` holds `lock`.
public final class MemoryFileSink: PhoneFileSink, @unchecked Sendable {
    private var files: [String: [UInt8]] = [:]
    private let lock = NSLock()
    /// The folder prefixed to paths.
    public let folder: String

    /// An empty folder named `folder`.
    public init(folder: String = "exports") { self.folder = folder }

    /// Keeps `bytes` as `name`; the path is `<folder>/<name>`.
    public func write(name: String, bytes: [UInt8]) -> Result<String, PhoneFileSinkError> {
        guard !name.isEmpty, !name.contains("/") else { return .failure(PhoneFileSinkError("bad file name '\(name)'")) }
        lock.locked { files[name] = bytes }
        return .success("\(folder)/\(name)")
    }

    /// The bytes of file `name`, if written.
    public func file(_ name: String) -> [UInt8]? { lock.locked { files[name] } }

    /// The names written so far, sorted.
    public var names: [String] { lock.locked { files.keys.sorted() } }
}

extension PhoneApp {
    /// `export csv` (データをエクスポート): the past 30 days as CSV, written through the file
    /// sink; the reply value carries `path`, `name`, `rows` and `bytes`, and the export is
    /// recorded (query `export last …`).
    mutating func exportCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        guard w.count == 2, w[1] == "csv" else { return .error(L10n.usage("export csv")(ctx.language)) }
        guard let sink = fileSink else { return .error(L10n.phoneNoExportFolder(ctx.language)) }
        let name = FitnessCSVExport.fileName(nowMs: ctx.now, calendar: ctx.calendar)
        let bytes = FitnessCSVExport.makeBytes(
            samples: samples(ctx), nowMs: ctx.now, calendar: ctx.calendar, authorization: state.auth.authorization, statistics: statistics)
        switch sink.write(name: name, bytes: bytes) {
        case .failure(let e):
            ctx.log(.error, "export failed: \(e)")
            return .error(L10n.phoneExportFailed(e.description)(ctx.language))
        case .success(let path):
            let record = ExportRecord(name: name, path: path, rows: FitnessCSVExport.dayCount, bytes: bytes.count, atMs: ctx.now)
            state.exports.append(record)
            if state.exports.count > ExportRecord.maxKept { state.exports.removeFirst(state.exports.count - ExportRecord.maxKept) }
            return .ok(Self.exportValue(record), text: "\(FitnessCSVExport.buttonLabel(ctx.language)): \(path)")
        }
    }

    /// An export as data.
    static func exportValue(_ r: ExportRecord) -> PlistValue {
        ["path": .string(r.path), "name": .string(r.name), "rows": .int(Int64(r.rows)), "bytes": .int(Int64(r.bytes)), "at": .int(r.atMs)]
    }
}

extension NSLock {
    /// Runs `body` holding the lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
