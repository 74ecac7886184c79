
/// `transferFile`, the receiver's side: one file at a time, written to `inbox/` in the
/// node's file root, synced and committed every `fileAckIntervalBytes`, checked against
/// its SHA-256 when complete, then moved to its inbox name and delivered. A mismatch
/// starts the file again (never delivered); after `maxFileVerifyFailures` the transfer fails.
extension LinkSession {
    /// The inbox directory (relative to the node's file root).
    public static let inboxDirectory = "inbox"

    /// Where a verified file is delivered: `inbox/<peer-incarnation>-<number>-<name>`.
    static func inboxPath(peerIncarnation: UInt64, number: UInt64, name: String) -> String {
        "\(Self.inboxDirectory)/\(String(peerIncarnation, radix: 16))-\(number)-\(name)"
    }

    /// The peer store and file number of a delivered file's inbox path (nil for another path).
    public static func inboxOrigin(_ path: String) -> (peerIncarnation: UInt64, number: UInt64)? {
        guard path.hasPrefix(inboxDirectory + "/") else { return nil }
        let parts = path.dropFirst(inboxDirectory.count + 1).split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let inc = UInt64(parts[0], radix: 16), let n = UInt64(parts[1]) else { return nil }
        return (inc, n)
    }

    /// Where the incoming file is written while it arrives.
    func partPath(_ number: UInt64) -> String {
        "\(Self.inboxDirectory)/\(String(persistent.peerIncarnation, radix: 16))-\(number).part"
    }

    mutating func onFileOffer(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let offer = try FrameBodies.FileOffer.decode(frame.body)
        if let m = offer.metadata {
            try PayloadLimits.enforce("file metadata", bytes: CanonicalEncoding.encodedSize(m), limit: PayloadLimits.fileMetadataBytes)
            guard case .dictionary = m else { throw .malformed("file metadata that is not a dictionary") }
        }
        guard let a = active else { return }
        if offer.number <= persistent.lastFileDelivered {
            send(a.id, Frame(.fileAck, FrameBodies.FileAck.delivered(number: offer.number).encode()))
            return
        }
        if let cur = persistent.incomingFile, cur.number == offer.number, cur.sizeBytes == offer.sizeBytes, cur.name == offer.name {
            // A resume: drop whatever was written past the committed offset.
            out.file(.truncate(path: partPath(cur.number), sizeBytes: cur.committedBytes))
        } else {
            dropIncomingFile()
            let f = IncomingFile(number: offer.number, name: offer.name, sizeBytes: offer.sizeBytes, sha256: [],
                                 metadata: offer.metadata, committedBytes: 0, verifyFailures: 0)
            persistent.incomingFile = f
            persist { LinkPersistence.incomingWrite(f, into: &$0) }
            out.file(.truncate(path: partPath(f.number), sizeBytes: 0))
        }
        resetIncomingFileProgress()
        let cur = persistent.incomingFile!
        send(a.id, Frame(.fileResume, FrameBodies.encodeVarints(cur.number, UInt64(cur.committedBytes))))
    }

    /// The sender's SHA-256 of the whole file: check the file once all of it is committed.
    mutating func onFileEnd(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let (n, sha) = try FrameBodies.FileEnd.decode(frame.body)
        guard var cur = persistent.incomingFile, cur.number == n else {
            // Delivered already: the sender resends because our `fileAck delivered` was lost.
            // Say it again, or the transfer stays outstanding until the next connection.
            if n <= persistent.lastFileDelivered, let a = active {
                send(a.id, Frame(.fileAck, FrameBodies.FileAck.delivered(number: n).encode()))
            }
            return
        }
        if cur.sha256 != sha {
            cur.sha256 = sha
            persistent.incomingFile = cur
            persist { LinkPersistence.incomingWrite(cur, into: &$0) }
        }
        if cur.committedBytes == cur.sizeBytes {
            out.file(.verify(number: n, path: partPath(n), sha256: sha))
        } else if incomingWrittenBytes < cur.sizeBytes, let a = active {
            // The sender thinks it sent everything, yet bytes are missing: our `fileResume` (after a
            // gap or a failed check) was lost. Ask again, or neither side would send anything more.
            resumeRequestedAt = incomingWrittenBytes
            send(a.id, Frame(.fileResume, FrameBodies.encodeVarints(n, UInt64(incomingWrittenBytes))))
        }
    }

    mutating func onFileChunk(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let (n, offset, start) = try FrameBodies.FileChunk.decode(frame.body)
        guard let a = active, var cur = persistent.incomingFile, cur.number == n else { return }  // cancelled or stale
        let count = Int64(frame.body.count - start)
        guard offset + count <= cur.sizeBytes else { throw .malformed("chunk past the end of file \(n)") }
        guard offset == incomingWrittenBytes else {
            if offset > incomingWrittenBytes && resumeRequestedAt != incomingWrittenBytes {
                // A chunk went missing: ask for the rest from where we are.
                resumeRequestedAt = incomingWrittenBytes
                send(a.id, Frame(.fileResume, FrameBodies.encodeVarints(n, UInt64(incomingWrittenBytes))))
            }
            return
        }
        guard count > 0 else { return }
        let path = partPath(n)
        out.file(.write(path: path, offset: offset, bytes: frame.body[start...]))
        incomingWrittenBytes += count
        stats.fileBytesReceived += count
        let complete = incomingWrittenBytes == cur.sizeBytes
        guard complete || incomingWrittenBytes - cur.committedBytes >= config.fileSyncIntervalBytes else {
            if incomingWrittenBytes - progressReportedAt >= config.fileAckIntervalBytes {
                progressReportedAt = incomingWrittenBytes
                send(a.id, Frame(.fileAck, FrameBodies.FileAck.progress(number: n, offset: cur.committedBytes).encode()))
            }
            return
        }
        progressReportedAt = incomingWrittenBytes
        out.file(.sync(path: path))
        cur.committedBytes = incomingWrittenBytes
        persistent.incomingFile = cur
        persist { LinkPersistence.incomingWrite(cur, into: &$0) }
        if complete {
            if !cur.sha256.isEmpty { out.file(.verify(number: n, path: path, sha256: cur.sha256)) }
        } else {
            send(a.id, Frame(.fileAck, FrameBodies.FileAck.progress(number: n, offset: cur.committedBytes).encode()))
        }
    }

    /// The shell hashed the complete incoming file `number`: deliver it, or start it again.
    public mutating func onFileVerified(number: UInt64, matches: Bool, now: EpochMs) {
        guard var cur = persistent.incomingFile, cur.number == number, cur.committedBytes == cur.sizeBytes else { return }
        let part = partPath(number)
        let conn = active?.id
        if matches {
            let file = ReceivedFile(path: Self.inboxPath(peerIncarnation: persistent.peerIncarnation, number: number, name: cur.name),
                                    name: cur.name, metadata: cur.metadata, sizeBytes: cur.sizeBytes)
            out.file(.move(from: part, to: file.path))
            persistent.incomingFile = nil
            persistent.lastFileDelivered = number
            metaDirty = true
            var b = WriteBatch()
            LinkPersistence.incomingWrite(nil, into: &b)
            deliverContent(.file(file), into: &b)
            out.persist(b)
            flushMeta()
            if let conn { send(conn, Frame(.fileAck, FrameBodies.FileAck.delivered(number: number).encode())) }
            return
        }
        cur.verifyFailures += 1
        stats.fileVerifyFailures += 1
        emitLog(.warning, "file \(number) failed its SHA-256 check (\(cur.verifyFailures) of \(config.maxFileVerifyFailures)): not delivered")
        if cur.verifyFailures >= config.maxFileVerifyFailures {
            dropIncomingFile()
            let e = WCError(.deliveryFailed, "SHA-256 mismatch \(cur.verifyFailures) times")
            if let conn { send(conn, Frame(.fileAck, FrameBodies.FileAck.failed(number: number, e).encode())) }
            return
        }
        cur.committedBytes = 0
        persistent.incomingFile = cur
        resetIncomingFileProgress()
        out.file(.truncate(path: part, sizeBytes: 0))
        persist { LinkPersistence.incomingWrite(cur, into: &$0) }
        if let conn { send(conn, Frame(.fileResume, FrameBodies.encodeVarints(number, 0))) }
    }

    /// The sender cancelled file `n`: answer whether it came too late (delivered), else drop
    /// what arrived of it (a late `fileEnd` or chunk of it then finds no incoming file).
    mutating func onFileCancel(_ frame: Frame) throws(ByteReaderError) {
        let n = try FrameBodies.decodeVarint(frame.body)
        let delivered = n <= persistent.lastFileDelivered
        if !delivered, persistent.incomingFile?.number == n { dropIncomingFile() }
        guard let a = active else { return }
        flushMeta()
        send(a.id, Frame(.fileAck, (delivered ? FrameBodies.FileAck.delivered(number: n) : .cancelled(number: n)).encode()))
    }

    /// The partial files among `names` (the inbox's) that no transfer can resume: every
    /// `.part` but the incoming file's own, as paths to delete.
    public func abandonedPartialFiles(among names: [String]) -> [String] {
        let keep = persistent.incomingFile.map { partPath($0.number) }
        return names.filter { $0.hasSuffix(".part") }.map { "\(Self.inboxDirectory)/\($0)" }.filter { $0 != keep }
    }

    /// Forgets the incoming file and deletes its partial content.
    mutating func dropIncomingFile() {
        guard let cur = persistent.incomingFile else { return }
        out.file(.remove(path: partPath(cur.number)))
        persistent.incomingFile = nil
        persist { LinkPersistence.incomingWrite(nil, into: &$0) }
        resetIncomingFileProgress()
    }

    /// Writing the incoming file goes on from its committed offset (0 when there is none):
    /// after a drop (bytes written but not committed will be written again), a resume, a
    /// restart from 0 or a dropped file.
    mutating func resetIncomingFileProgress() {
        incomingWrittenBytes = persistent.incomingFile?.committedBytes ?? 0
        progressReportedAt = incomingWrittenBytes
        resumeRequestedAt = -1
    }
}
