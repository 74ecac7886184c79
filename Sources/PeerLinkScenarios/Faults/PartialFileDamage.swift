import PeerLinkCore

/// The byte fault of `damage-partial-file`: bytes of a receiver's partial incoming file change
/// while the node is down (a bad sector, a stray write), within the part it had committed —
/// the part a resume keeps. The file's SHA-256 must catch it when the file is complete, and
/// the transfer start again from zero.
public enum PartialFileDamage {
    /// Changes 1 to 16 consecutive bytes (each to another value) at an offset drawn from
    /// `seed` in `[0, committedBytes)`; nil when `path` holds no such content.
    public static func apply(to files: any FileStorage, path: String, committedBytes: Int64, seed: UInt64) throws -> String? {
        guard let size = files.size(path) else { return nil }
        let limit = min(size, committedBytes)
        guard limit > 0 else { return nil }
        var rng = SplitMix64(seed: seed)
        let offset = Int64(rng.next(in: 0...Int(limit - 1)))
        let count = Int(min(Int64(rng.next(in: 1...16)), limit - offset))
        var bytes = try files.read(path, offset: offset, count: count)
        for i in bytes.indices { bytes[i] ^= UInt8(truncatingIfNeeded: rng.next() | 1) }
        try files.write(path, offset: offset, bytes: bytes)
        try files.sync(path)
        return "\(count) bytes of \(path) changed at offset \(offset)"
    }
}
