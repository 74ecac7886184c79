
/// The session's side of sending files (`FileSendChannel` holds the head file's state, the
/// durable queue is `persistent.fileSend`): readiness, the meta row committed before an
/// offer leaves, the liveness bookkeeping of what is sent, and the retransmission clock.
extension LinkSession {
    // MARK: - API

    /// `transferFile(_:metadata:)`: queues the file at `path` (relative to the node's file
    /// root). The shell measures and hashes it (`FileOperation.measure`) before it is
    /// offered; a file that cannot be read finishes with `fileAccessDenied`. `metadata`, when
    /// given, is a dictionary within the user-info limit.
    public mutating func transferFile(path: String, metadata: PlistValue?, now: EpochMs) -> Result<FileTransfer, WCError> {
        if let e = readinessError() { return .failure(e) }
        let name: String
        switch FileSendChannel.validate(path: path, metadata: metadata) {
        case .failure(let e): return .failure(e)
        case .success(let n): name = n
        }
        let f = files.send.enqueue(path: path, name: name, metadata: metadata, now: now, queue: &persistent.fileSend, out: &out.fileSend)
        metaDirty = true
        return .success(files.send.transfer(f))
    }

    /// The shell measured file `number`: it is committed to the queue and offered when its
    /// turn comes. (Its SHA-256 is computed while it is sent, and sent at the end.)
    public mutating func onFileMeasured(number: UInt64, sizeBytes: Int64, now: EpochMs) {
        switch files.send.measured(number: number, sizeBytes: sizeBytes, queue: &persistent.fileSend, out: &out.fileSend) {
        case .ignored: return
        case .failed: return onFileReadFailed(number: number, reason: "bad measurement", now: now)
        case .ready:
            flushMeta()
            pumpFiles(now: now)
        }
    }

    func fileTransfer(_ f: OutgoingFile) -> FileTransfer { files.send.transfer(f) }

    /// `outstandingFileTransfers`: queued or being sent, in order.
    public var outstandingFileTransfers: [FileTransfer] { persistent.fileSend.files.filter { !$0.isCancelled }.map(fileTransfer) }

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
        let mark = out.count
        let r = files.send.cancel(id: id, link: connections.activeID, queue: &persistent.fileSend, out: &out.fileSend)
        noteSends(since: mark)
        if r == .dropped(wasHead: true) { pumpFiles(now: active!.liveness.nowMs) }
        return r != .notFound
    }

    /// The peer answered `fileCancel`: it had not delivered the file and never will.
    mutating func onFileCancelled(number n: UInt64) {
        guard files.send.onCancelled(number: n, queue: &persistent.fileSend, out: &out.fileSend) else { return }
        if connections.activeID != nil { pumpFiles(now: active!.liveness.nowMs) }
    }

    /// A new link is up and the peer said which files it delivered: a cancelled file it has
    /// not delivered was sent on a connection that is gone and is never sent again.
    mutating func dropCancelledFiles() {
        files.send.dropCancelled(queue: &persistent.fileSend, out: &out.fileSend)
    }

    // MARK: - Sending

    /// Offers the head file, or sends its next chunks within the window.
    ///
    /// The link's `nowMs` moves to `now` only when something is offered or streamed (as it
    /// did when the connection was copied out and written back on those paths only).
    mutating func pumpFiles(now: EpochMs) {
        guard activationState == .activated, let id = connections.activeID, let head = persistent.fileSend.files.first, head.sizeBytes >= 0 else { return }
        let nowMs = max(active!.liveness.nowMs, now)
        let wasIdle = !awaitsAck
        if files.send.needsOffer(head) {
            let mark = out.count
            if files.send.offer(head, on: id, queue: &persistent.fileSend, out: &out.fileSend) { metaDirty = true }
            active!.liveness.nowMs = nowMs
            if wasIdle { active!.liveness.lastProgressMs = nowMs }
            noteSends(since: mark)
            return
        }
        guard files.send.canStream(head) else { return }
        active!.liveness.nowMs = nowMs
        let mark = out.count
        files.send.stream(head, on: id, out: &out.fileSend)
        noteSends(since: mark)
        if wasIdle, awaitsAck { active!.liveness.lastProgressMs = active!.liveness.nowMs }
    }

    mutating func onFileResume(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        guard connections.activeID != nil, try files.send.onResume(frame, queue: persistent.fileSend) else { return }
        active!.liveness.lastProgressMs = now
        pumpFiles(now: now)
    }

    mutating func onFileAck(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let ack = try FrameBodies.FileAck.decode(frame.body)
        if connections.activeID != nil { active!.liveness.lastProgressMs = now }
        switch ack {
        case .progress(let n, let offset):
            guard connections.activeID != nil, files.send.onProgress(number: n, offset: offset) else { return }
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
        if let id = connections.activeID, files.send.head?.number == number {
            let mark = out.count
            files.send.sendCancel(number, on: id, out: &out.fileSend)
            noteSends(since: mark)
        }
        finishFile(number: number, error: WCError(.fileAccessDenied, reason))
    }

    /// The peer delivered our files through `through` (learnt at the handshake).
    mutating func finishFilesDelivered(through: UInt64) {
        for f in persistent.fileSend.files where f.number <= through { finishFile(number: f.number, error: nil) }
    }

    mutating func finishFile(number n: UInt64, error: WCError?) {
        guard files.send.finish(number: n, error: error, queue: &persistent.fileSend, out: &out.fileSend) else { return }
        if connections.activeID != nil { pumpFiles(now: active!.liveness.nowMs) }
    }
}
