import PeerLinkCore

/// A node process's export folder: `<state>/exports/`, made when first written to; each file
/// is written to a temporary name and renamed, so a reader never sees half of it.
public struct DirectoryExportFolder: ExportFolder {
    /// The folder's path.
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public func write(name: String, bytes: [UInt8]) -> Result<String, AppEffectError> {
        guard ExportNames.isValid(name) else { return .failure(AppEffectError("bad file name '\(name)'")) }
        do {
            try makeDirectories(directory)
            let path = directory + "/" + name
            try writeFileAtomically(path, bytes)
            return .success(path)
        } catch {
            return .failure(AppEffectError("\(error)"))
        }
    }
}
