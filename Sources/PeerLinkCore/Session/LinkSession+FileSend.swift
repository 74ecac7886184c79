
/// `transferFile(_:metadata:)`, the sender's side: a durable queue of files sent one at a
/// time, in chunks, within a window of unacknowledged bytes.
///
/// For the head file the sender offers (number, size, SHA-256, name, metadata); the
/// receiver answers with `fileResume` (the offset it holds, committed), and the sender
/// streams `fileChunk`s from there. The receiver acknowledges committed progress
/// (`fileAck` progress) and finally `delivered` after checking the SHA-256, or `failed`.
/// A drop or a crash of either side resumes from the receiver's committed offset.
extension LinkSession {
    // MARK: - API

    /// `transferFile(_:metadata:)`: queues the file at `path` (relative to the node's file
    /// root). The shell measures and hashes it (`FileOperation.measure`) before it is
    /// offered; a file that cannot be read finishes with `fileAccessDenied`. `metadata`, when
    /// given, is a dictionary within the user-info limit.
    public mutating func transferFile(path: String, metadata: PlistValue?, now: EpochMs) -> Result<FileTransfer, WCError> {
        if let e = readinessError() { return .failure(e) }
        if let m = metadata {
            guard case .dictionary = m else { return .failure(WCError(.payloadUnsupportedTypes, "file metadata must be a dictionary")) }
            let size = CanonicalEncoding.encodedSize(m)
            guard size <= PayloadLimits.userInfoBytes else {
                return .failure(WCError(.payloadTooLarge, "file metadata is \(size) bytes; the limit is \(PayloadLimits.userInfoBytes)"))
            }
        }
        let name = String(path.split(separator: "/").last ?? "")
        guard NodeFilePath.isInsideRoot(path), !name.isEmpty, name != "." else {
            return .failure(WCError(.invalidParameter, "'\(path)' is not a file path inside the node's file root"))
        }
        let f = OutgoingFile(number: persistent.nextFileNumber, path: path, name: name, sizeBytes: -1,
                             metadata: metadata, createdMs: now)
        persistent.nextFileNumber += 1
        metaDirty = true
        persistent.outgoingFiles.append(f)
        out.file(.measure(number: f.number, path: path))
        return .success(fileTransfer(f))
    }

    /// The shell measured file `number`: it is committed to the queue and offered when its
    /// turn comes. (Its SHA-256 is computed while it is sent, and sent at the end.)
    public mutating func onFileMeasured(number: UInt64, sizeBytes: Int64, now: EpochMs) {
        guard let i = persistent.outgoingFiles.firstIndex(where: { $0.number == number }), persistent.outgoingFiles[i].sizeBytes < 0 else { return }
        guard sizeBytes >= 0 else { return onFileReadFailed(number: number, reason: "bad measurement", now: now) }
        persistent.outgoingFiles[i].sizeBytes = sizeBytes
        let f = persistent.outgoingFiles[i]
        persist { $0.put(LinkPersistence.filesOut, storeKey(f.number), LinkPersistence.encodeOutgoing(f)) }
        flushMeta()
        pumpFiles(now: now)
    }

    func fileTransfer(_ f: OutgoingFile) -> FileTransfer {
        let state = active?.file.flatMap { $0.number == f.number ? $0 : nil }
        return FileTransfer(id: "f\(f.number)", number: f.number, path: f.path, metadata: f.metadata, sizeBytes: f.sizeBytes,
                            acknowledgedBytes: state?.ackedOffset ?? 0, isTransferring: state != nil, queuedAtMs: f.createdMs)
    }

    /// `outstandingFileTransfers`: queued or being sent, in order.
    public var outstandingFileTransfers: [FileTransfer] { persistent.outgoingFiles.filter { !$0.isCancelled }.map(fileTransfer) }

    /// The app keeps a received file: moves it out of the inbox before its callback returns
    /// (what is left in the inbox is deleted after the callback).
    public mutating func moveReceivedFile(_ file: ReceivedFile, to path: String) -> Result<Void, WCError> {
        guard NodeFilePath.isInsideRoot(path) else {
            return .failure(WCError(.fileAccessDenied, "'\(path)' is outside the node's file root"))
        }
        out.file(.move(from: file.path, to: path))
        return .success(())
    }

    /// `cancel()` of a file transfer: "if the data has already been transferred, calling this
    /// method has no effect" — otherwise it is never delivered.
    ///
    /// A file the peer cannot have completed (its `fileEnd` has not gone out on this
    /// connection) is dropped here and, when being sent, at the receiver (which deletes the
    /// partial file). One whose `fileEnd` went out may be verified and delivered before the
    /// cancel arrives: it is marked cancelled (durably) and the peer is asked (`fileCancel`);
    /// its answer is `delivered` — then the sender gets `didFinishFileTransfer` without
    /// error — or `cancelled`. Until then no other file is sent. When the link is down and
    /// the file is the one being sent, the next handshake's delivered count decides. Returns
    /// false when no such transfer is outstanding.
    @discardableResult
    public mutating func cancelFile(id: String) -> Bool {
        guard id.hasPrefix("f"), let n = UInt64(id.dropFirst()),
              let i = persistent.outgoingFiles.firstIndex(where: { $0.number == n }), !persistent.outgoingFiles[i].isCancelled else { return false }
        let mayBeDelivered = active.map { $0.highestFileEndSent >= n } ?? (i == 0 && persistent.outgoingFiles[i].sizeBytes >= 0)
        if mayBeDelivered {
            persistent.outgoingFiles[i].isCancelled = true
            let f = persistent.outgoingFiles[i]
            persist { $0.put(LinkPersistence.filesOut, storeKey(n), LinkPersistence.encodeOutgoing(f)) }
            if var a = active {
                a.file = FileSendState(number: n)  // awaiting the answer (resent on retransmission)
                active = a
                send(a.id, Frame(.fileCancel, FrameBodies.encodeVarint(n)))
            }
            return true
        }
        persistent.outgoingFiles.remove(at: i)
        persist { $0.delete(LinkPersistence.filesOut, storeKey(n)) }
        if var a = active, a.file?.number == n {
            a.file = nil
            active = a
            send(a.id, Frame(.fileCancel, FrameBodies.encodeVarint(n)))
            pumpFiles(now: a.nowMs)
        }
        return true
    }

    /// The peer answered `fileCancel`: it had not delivered the file and never will.
    mutating func onFileCancelled(number n: UInt64) {
        guard let i = persistent.outgoingFiles.firstIndex(where: { $0.number == n }), persistent.outgoingFiles[i].isCancelled else { return }
        persistent.outgoingFiles.remove(at: i)
        persist { $0.delete(LinkPersistence.filesOut, storeKey(n)) }
        if var a = active, a.file?.number == n { a.file = nil; active = a }
        if let a = active { pumpFiles(now: a.nowMs) }
    }

    /// A new connection is up and the peer said which files it delivered: a cancelled file it
    /// has not delivered was sent on a connection that is gone and is never sent again.
    mutating func dropCancelledFiles() {
        let cancelled = persistent.outgoingFiles.filter(\.isCancelled).map(\.number)
        guard !cancelled.isEmpty else { return }
        persistent.outgoingFiles.removeAll(where: \.isCancelled)
        persist { b in for n in cancelled { b.delete(LinkPersistence.filesOut, storeKey(n)) } }
    }

    // MARK: - Sending

    /// Offers the head file, or sends its next chunks within the window.
    mutating func pumpFiles(now: EpochMs) {
        guard activationState == .activated, var a = active, let head = persistent.outgoingFiles.first, head.sizeBytes >= 0 else { return }
        a.nowMs = max(a.nowMs, now)
        let wasIdle = !a.awaitsAck(self)
        if a.file?.number != head.number {
            a.file = FileSendState(number: head.number)
            if wasIdle { a.lastProgressMs = a.nowMs }
            active = a
            // A cancelled head is asked about (nothing else is sent until the answer); another is offered.
            let offer = FrameBodies.FileOffer(number: head.number, sizeBytes: head.sizeBytes, name: head.name, metadata: head.metadata)
            if head.number > persistent.highestFileSent {
                persistent.highestFileSent = head.number  // committed with this event, before the offer leaves
                metaDirty = true
            }
            send(a.id, head.isCancelled ? Frame(.fileCancel, FrameBodies.encodeVarint(head.number)) : Frame(.fileOffer, offer.encode()))
            return
        }
        guard !head.isCancelled, var f = a.file, !f.awaitingResume else { return }
        while f.sendOffset < head.sizeBytes && f.sendOffset - f.ackedOffset < config.fileWindowBytes {
            let count = Int(min(Int64(min(config.fileChunkBytes, FrameBodies.maxFileChunkBytes)), head.sizeBytes - f.sendOffset))
            out.append(.sendFileChunk(a.id, number: head.number, path: head.path, offset: f.sendOffset, count: count))
            f.sendOffset += Int64(count)
            stats.framesSent += 1
            a.framesSent += 1
            a.lastSentMs = a.nowMs
            a.noteDataSent()
        }
        if f.sendOffset == head.sizeBytes && !f.endSent {
            out.append(.sendFileEnd(a.id, number: head.number, path: head.path, sizeBytes: head.sizeBytes))
            f.endSent = true
            a.highestFileEndSent = max(a.highestFileEndSent, head.number)
            stats.framesSent += 1
            a.framesSent += 1
            a.lastSentMs = a.nowMs
            a.noteDataSent()
        }
        a.file = f
        if wasIdle, a.awaitsAck(self) { a.lastProgressMs = a.nowMs }
        active = a
    }

    mutating func onFileResume(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let (n, offset) = try FrameBodies.decodeVarints(frame.body)
        guard var a = active, var f = a.file, f.number == n, let head = persistent.outgoingFiles.first, head.number == n, !head.isCancelled else { return }
        guard offset <= UInt64(head.sizeBytes) else { throw .malformed("resume offset \(offset) beyond the file's \(head.sizeBytes) bytes") }
        f.ackedOffset = f.awaitingResume ? Int64(offset) : min(f.ackedOffset, Int64(offset))
        f.sendOffset = Int64(offset)
        f.awaitingResume = false
        f.endSent = false
        a.file = f
        a.lastProgressMs = now
        active = a
        pumpFiles(now: now)
    }

    mutating func onFileAck(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let ack = try FrameBodies.FileAck.decode(frame.body)
        if var a = active { a.lastProgressMs = now; active = a }
        switch ack {
        case .progress(let n, let offset):
            guard var a = active, var f = a.file, f.number == n else { return }
            f.ackedOffset = max(f.ackedOffset, min(offset, f.sendOffset))
            a.file = f
            active = a
            pumpFiles(now: now)
        case .delivered(let n):
            finishFile(number: n, error: nil)
        case .failed(let n, let e):
            finishFile(number: n, error: e)
        case .cancelled(let n):
            onFileCancelled(number: n)
        }
    }

    /// The shell could not read the file being sent.
    public mutating func onFileReadFailed(number: UInt64, reason: String, now: EpochMs) {
        if let a = active, a.file?.number == number { send(a.id, Frame(.fileCancel, FrameBodies.encodeVarint(number))) }
        finishFile(number: number, error: WCError(.fileAccessDenied, reason))
    }

    /// The peer delivered our files through `through` (learnt at the handshake).
    mutating func finishFilesDelivered(through: UInt64) {
        for f in persistent.outgoingFiles where f.number <= through { finishFile(number: f.number, error: nil) }
    }

    mutating func finishFile(number n: UInt64, error: WCError?) {
        guard let i = persistent.outgoingFiles.firstIndex(where: { $0.number == n }) else { return }
        let f = persistent.outgoingFiles.remove(at: i)
        persist { $0.delete(LinkPersistence.filesOut, storeKey(n)) }
        var t = fileTransfer(f)
        t.isTransferring = false
        if error == nil { t.acknowledgedBytes = f.sizeBytes; t.isDelivered = true }
        if var a = active, a.file?.number == n { a.file = nil; active = a }
        out.deliver(.didFinishFileTransfer(t, error: error))
        if let a = active { pumpFiles(now: a.nowMs) }
    }
}
