
/// The engine's side of file transfers: it carries out the session's file operations on
/// the node's `FileStorage` at once (before the event's commit, as the ordering contract
/// asks) and turns chunk requests into `fileChunk` frames.
extension NodeEngine {
    /// Reads a chunk of a file being sent and queues its frame.
    func sendFileChunk(_ id: ConnectionID, number: UInt64, path: String, offset: Int64, count: Int) {
        do {
            guard let box = wires[id] else { return }  // closed meanwhile
            let header = FrameBodies.FileChunk.header(number: number, offset: offset)
            // The sender's running hash: chunks go out in order (a resend is already hashed).
            let key = Self.sendHashKey(number)
            let h = fileHashes[key] ?? IncrementalHash()
            if h.byteCount < offset { try hashFile(path, into: h, upTo: offset) }
            let hashes = h.byteCount == offset
            // Built in place: the content is read from the file straight into its sealed records
            // and encrypted there (nothing zeroed or copied).
            let sealed = try box.wire.sealInPlace(.fileChunk, bodyBytes: header.count + count) { body, buffer in
                var into = buffer
                if body.lowerBound < header.count {
                    let n = header.count - body.lowerBound
                    header.withUnsafeBytes { into.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[body.lowerBound...])) }
                    into = UnsafeMutableRawBufferPointer(rebasing: into[n...])
                }
                let contentOffset = max(0, body.lowerBound - header.count)
                let got = try files.read(path, offset: offset + Int64(contentOffset), into: into)
                guard got == into.count else { throw FileStorageError("\(path) is shorter than when it was queued") }
                if hashes { h.update(UnsafeRawBufferPointer(into)) }
            }
            fileHashes[key] = h
            heldSends.append(.send(id, sealed, summarizesFrames ? FrameSummary(kind: .fileChunk, first: number, second: UInt64(offset)) : nil))
        } catch {
            ctx.session.onFileReadFailed(number: number, reason: "\(error)", now: monoNow)
        }
    }

    static func sendHashKey(_ number: UInt64) -> String { "\u{0}send/\(number)" }

    /// Deletes the inbox's partial files that no transfer can resume (left by a transfer of
    /// an earlier peer store, or by a store that lost the record of its incoming file).
    func removeAbandonedPartialFiles() {
        let abandoned = ctx.session.abandonedPartialFiles(among: files.names(in: LinkSession.inboxDirectory))
        guard !abandoned.isEmpty else { return }
        for p in abandoned {
            fileHashes[p] = nil
            files.remove(p)
        }
        ctx.log(.info, "removed \(abandoned.count) partial file\(abandoned.count == 1 ? "" : "s") no transfer can resume: \(abandoned.joined(separator: ", "))")
    }

    /// Appends the file's bytes from what `h` covered up to `end` to the hash.
    func hashFile(_ path: String, into h: IncrementalHash, upTo end: Int64) throws {
        try FileChecksum.hash(path, in: files, into: h, upTo: end)
    }

    /// Sends `fileEnd`: the SHA-256 of the whole file, from the running hash.
    func sendFileEnd(_ id: ConnectionID, number: UInt64, path: String, sizeBytes: Int64) {
        do {
            let sha = try FileChecksum.senderHash(path, in: files, sizeBytes: sizeBytes,
                                                  running: fileHashes.removeValue(forKey: Self.sendHashKey(number)))
            deliveryHashes.sent[number] = sha
            guard let box = wires[id] else { return }
            let frame = Frame(.fileEnd, FrameBodies.FileEnd.encode(number: number, sha256: sha))
            heldSends.append(.send(id, box.wire.encode(frame), summarizesFrames ? FrameSummary(frame) : nil))
        } catch {
            ctx.session.onFileReadFailed(number: number, reason: "\(error)", now: monoNow)
        }
    }

    /// Carries out one file operation of the session.
    func performFileOperation(_ op: FileOperation) {
        do {
            switch op {
            case .write(let path, let offset, let bytes):
                try files.write(path, offset: offset, bytes: bytes)
                if let h = fileHashes[path], h.byteCount == offset {
                    h.update(bytes)
                } else if offset == 0 {
                    let h = IncrementalHash()
                    h.update(bytes)
                    fileHashes[path] = h
                } else {
                    fileHashes[path] = nil
                }
            case .truncate(let path, let size):
                try files.truncate(path, sizeBytes: size)
                if size == 0 { fileHashes[path] = IncrementalHash() } else if fileHashes[path]?.byteCount != size { fileHashes[path] = nil }
            case .sync(let path): try files.sync(path)
            case .move(let from, let to):
                fileHashes[from] = nil
                fileHashes[to] = nil
                try files.move(from: from, to: to)
                deliveryHashes.verified[to] = deliveryHashes.verified.removeValue(forKey: from)
            case .remove(let path):
                fileHashes[path] = nil
                deliveryHashes.verified[path] = nil
                files.remove(path)
            case .measure(let number, let path):
                guard let size = files.size(path) else {
                    ctx.session.onFileReadFailed(number: number, reason: "no file at \(path)", now: monoNow)
                    return
                }
                ctx.session.onFileMeasured(number: number, sizeBytes: size, now: monoNow)
            case .verify(let number, let path, let sha):
                let check = try FileChecksum.verify(path, in: files, expected: sha, running: fileHashes.removeValue(forKey: path))
                deliveryHashes.verified[path] = check.actual
                ctx.session.onFileVerified(number: number, matches: check.matches, now: monoNow)
            }
        } catch {
            ctx.log(.error, "file operation failed: \(error)")
            if case .measure(let number, _) = op { ctx.session.onFileReadFailed(number: number, reason: "\(error)", now: monoNow) }
            if case .verify(let number, _, _) = op { ctx.session.onFileVerified(number: number, matches: false, now: monoNow) }
        }
    }
}

/// The file checksum both ends run: the sender's SHA-256 of what it sent (`fileEnd`) and the
/// receiver's check of the complete file against it. Shells call these (the engine, and the
/// session tests' stand-in for it), so the check tested is the one the nodes run.
enum FileChecksum {
    /// Appends the bytes of `path` from what `h` covered up to `end` to the hash.
    static func hash(_ path: String, in files: any FileStorage, into h: IncrementalHash, upTo end: Int64) throws {
        while h.byteCount < end {
            let n = Int(min(1 << 20, end - h.byteCount))
            let bytes = try files.read(path, offset: h.byteCount, count: n)
            guard bytes.count == n else { throw FileStorageError("\(path) is shorter than when it was queued") }
            h.update(bytes[...])
        }
    }

    /// The sender's SHA-256 of the `sizeBytes` of `path`: `running` (the hash of the chunks
    /// sent so far, in order) completed from the file; the file must still have that size.
    static func senderHash(_ path: String, in files: any FileStorage, sizeBytes: Int64, running: IncrementalHash?) throws -> [UInt8] {
        let h = running ?? IncrementalHash()
        try hash(path, in: files, into: h, upTo: sizeBytes)
        guard h.byteCount == sizeBytes, files.size(path) == sizeBytes else { throw FileStorageError("\(path) changed while it was sent") }
        return h.finish()
    }

    /// The receiver's check of the complete file at `path` against the sender's SHA-256:
    /// the hash of its content (`running`, taken as it was written, when it covers the whole
    /// file; else the file is read again) and whether it is the sender's.
    static func verify(_ path: String, in files: any FileStorage, expected: [UInt8], running: IncrementalHash?) throws
        -> (matches: Bool, actual: [UInt8])
    {
        let actual = try running.flatMap { $0.byteCount == files.size(path) ? $0.finish() : nil } ?? files.sha256(path)
        return (expected.count == 32 && actual == expected, actual)
    }
}

/// SHA-256 of a file as it is written in order (so a received file is checked without
/// reading it again).
final class IncrementalHash {
    private var hasher: SHA256? = SHA256()
    private(set) var byteCount: Int64 = 0

    func update(_ bytes: UnsafeRawBufferPointer) {
        hasher!.update(bytes)
        byteCount += Int64(bytes.count)
    }

    func update(_ bytes: ArraySlice<UInt8>) {
        hasher!.update(bytes)
        byteCount += Int64(bytes.count)
    }

    func finish() -> [UInt8] { hasher.take()!.finish() }
}
