
/// Sending the head file on the current link.
struct FileSendState: Sendable, Equatable {
    var number: UInt64
    /// The offer is out; the receiver has not said where to start.
    var awaitingResume = true
    /// The next byte to send.
    var sendOffset: Int64 = 0
    /// Bytes the receiver has committed.
    var ackedOffset: Int64 = 0
    /// `fileEnd` went out (the delivered acknowledgement is awaited).
    var endSent = false

    /// Something sent of this file awaits the receiver's answer.
    var awaitsAck: Bool { awaitingResume || sendOffset > ackedOffset || endSent }
}

/// `transferFile(_:metadata:)`, the sender's side: a durable queue of files sent one at a
/// time, in chunks, within a window of unacknowledged bytes.
///
/// For the head file the sender offers (number, size, SHA-256, name, metadata); the
/// receiver answers with `fileResume` (the offset it holds, committed), and the sender
/// streams `fileChunk`s from there. The receiver acknowledges committed progress
/// (`fileAck` progress) and finally `delivered` after checking the SHA-256, or `failed`.
/// A drop or a crash of either side resumes from the receiver's committed offset.
///
/// The durable queue is the session's `persistent.fileSend`, passed in; the channel keeps
/// what it sent of the head file on the current link. The session keeps the liveness
/// bookkeeping and the retransmission clock, and pumps again after each change.
struct FileSendChannel: Sendable {
    private let sharedConfig: SharedLinkConfig
    var config: LinkConfig { sharedConfig.value }
    /// The head file as sent on this link (nil: nothing of it sent on this link).
    var head: FileSendState?
    /// The highest file number whose `fileEnd` went out on this link (from then on the peer
    /// may deliver it).
    var highestEndSent: UInt64 = 0

    init(shared: SharedLinkConfig) { sharedConfig = shared }

    var awaitsAck: Bool { head?.awaitsAck ?? false }

    // MARK: - Queueing

    /// Validates `transferFile`'s arguments; returns the file's name.
    static func validate(path: String, metadata: PlistValue?) -> Result<String, WCError> {
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
        return .success(name)
    }

    /// Queues a valid file under the next number (`nextFileNumber` changed); the shell is
    /// asked to measure it.
    func enqueue(path: String, name: String, metadata: PlistValue?, now: EpochMs, queue: inout FileSendQueue, out: inout FileSendOutput) -> OutgoingFile {
        let f = OutgoingFile(number: queue.nextFileNumber, path: path, name: name, sizeBytes: -1, metadata: metadata, createdMs: now)
        queue.nextFileNumber += 1
        queue.files.append(f)
        out.file(.measure(number: f.number, path: path))
        return f
    }

    /// How the shell's measurement of a file was taken.
    enum Measured { case ignored, failed, ready }

    /// The shell measured file `number`: its row is committed (it is offered when its turn comes).
    func measured(number: UInt64, sizeBytes: Int64, queue: inout FileSendQueue, out: inout FileSendOutput) -> Measured {
        guard let i = queue.files.firstIndex(where: { $0.number == number }), queue.files[i].sizeBytes < 0 else { return .ignored }
        guard sizeBytes >= 0 else { return .failed }
        queue.files[i].sizeBytes = sizeBytes
        let f = queue.files[i]
        out.persist { $0.put(LinkPersistence.filesOut, storeKey(f.number), LinkPersistence.encodeOutgoing(f)) }
        return .ready
    }

    /// The app's view of a queued file.
    func transfer(_ f: OutgoingFile) -> FileTransfer {
        let state = head.flatMap { $0.number == f.number ? $0 : nil }
        return FileTransfer(id: "f\(f.number)", number: f.number, path: f.path, metadata: f.metadata, sizeBytes: f.sizeBytes,
                            acknowledgedBytes: state?.ackedOffset ?? 0, isTransferring: state != nil, queuedAtMs: f.createdMs)
    }

    // MARK: - Sending

    /// The head file is not yet offered (or asked about, when cancelled) on this link.
    func needsOffer(_ file: OutgoingFile) -> Bool { head?.number != file.number }

    /// Offers the head `file` on link `id` (a cancelled one is asked about instead: nothing
    /// else is sent until the answer). True when `highestFileSent` moved (committed with this
    /// event, before the offer leaves).
    mutating func offer(_ file: OutgoingFile, on id: ConnectionID, queue: inout FileSendQueue, out: inout FileSendOutput) -> Bool {
        head = FileSendState(number: file.number)
        var metaChanged = false
        if file.number > queue.highestFileSent {
            queue.highestFileSent = file.number
            metaChanged = true
        }
        let offer = FrameBodies.FileOffer(number: file.number, sizeBytes: file.sizeBytes, name: file.name, metadata: file.metadata)
        out.send(id, file.isCancelled ? Frame(.fileCancel, FrameBodies.encodeVarint(file.number)) : Frame(.fileOffer, offer.encode()))
        return metaChanged
    }

    /// The receiver said where to start, and the head `file` is not cancelled: its chunks may go.
    func canStream(_ file: OutgoingFile) -> Bool {
        guard !file.isCancelled, let f = head else { return false }
        return !f.awaitingResume
    }

    /// Sends the head `file`'s next chunks within the window, then its end once all is sent.
    mutating func stream(_ file: OutgoingFile, on id: ConnectionID, out: inout FileSendOutput) {
        guard var f = head else { return }
        while f.sendOffset < file.sizeBytes && f.sendOffset - f.ackedOffset < config.fileWindowBytes {
            let count = Int(min(Int64(min(config.fileChunkBytes, FrameBodies.maxFileChunkBytes)), file.sizeBytes - f.sendOffset))
            out.sendChunk(id, number: file.number, path: file.path, offset: f.sendOffset, count: count)
            f.sendOffset += Int64(count)
        }
        if f.sendOffset == file.sizeBytes && !f.endSent {
            out.sendEnd(id, number: file.number, path: file.path, sizeBytes: file.sizeBytes)
            f.endSent = true
            highestEndSent = max(highestEndSent, file.number)
        }
        head = f
    }

    /// Asks the receiver about cancelled file `n` on link `id`.
    func sendCancel(_ n: UInt64, on id: ConnectionID, out: inout FileSendOutput) {
        out.send(id, Frame(.fileCancel, FrameBodies.encodeVarint(n)))
    }

    // MARK: - Links

    /// A new link is up, or the link went down: nothing of the head file is on a link.
    mutating func linkChanged() {
        head = nil
        highestEndSent = 0
    }

    /// What is unacknowledged is sent again (a retransmission): the head file from its
    /// acknowledged offset, or offered again while the offer is unanswered.
    mutating func rewind() {
        guard var f = head else { return }
        if !f.awaitingResume { f.sendOffset = f.ackedOffset; f.endSent = false }
        head = f.awaitingResume ? nil : f
    }
}

/// The two file channels: the sender's queue and the receiver's file under way.
struct FileChannels: Sendable {
    var send: FileSendChannel
    var receive: FileReceiveChannel
}
