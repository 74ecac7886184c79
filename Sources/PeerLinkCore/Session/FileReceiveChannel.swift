
/// The receiver's durable file state (a slice of `LinkPersistent`).
public struct FileReceiveState: Sendable, Equatable {
    /// The file being received, with how much of it is committed.
    public var incoming: IncomingFile?
    /// The highest peer file number delivered here.
    public var lastDelivered: UInt64 = 0

    public init() {}
}

/// `transferFile`, the receiver's side: one file at a time, written to `inbox/` in the
/// node's file root, synced and committed every `fileAckIntervalBytes`, checked against
/// its SHA-256 when complete, then moved to its inbox name and delivered. A mismatch
/// starts the file again (never delivered); after `maxFileVerifyFailures` the transfer fails.
///
/// The durable state is the session's `persistent.fileReceive`, passed in with the peer
/// store's incarnation (part of the file names); the channel keeps how far the incoming file
/// is written beyond its committed bytes. The session delivers a verified file (through the
/// inbox) and commits the meta row before an answer that depends on it leaves.
struct FileReceiveChannel: Sendable {
    private let sharedConfig: SharedLinkConfig
    var config: LinkConfig { sharedConfig.value }
    /// Bytes of the incoming file written so far (≥ its committed bytes).
    private(set) var writtenBytes: Int64 = 0
    /// The gap offset a `fileResume` was last sent for (one request per gap).
    private(set) var resumeRequestedAt: Int64 = -1
    /// The written offset progress was last reported at.
    private(set) var progressReportedAt: Int64 = 0

    init(shared: SharedLinkConfig, state: FileReceiveState) {
        sharedConfig = shared
        writtenBytes = state.incoming?.committedBytes ?? 0
    }

    /// The inbox directory (relative to the node's file root).
    static let inboxDirectory = "inbox"

    /// Where a verified file is delivered: `inbox/<peer-incarnation>-<number>-<name>`.
    static func inboxPath(peerIncarnation: UInt64, number: UInt64, name: String) -> String {
        "\(inboxDirectory)/\(String(peerIncarnation, radix: 16))-\(number)-\(name)"
    }

    /// Where the incoming file is written while it arrives.
    static func partPath(peerIncarnation: UInt64, _ number: UInt64) -> String {
        "\(inboxDirectory)/\(String(peerIncarnation, radix: 16))-\(number).part"
    }

    // MARK: - Frames

    /// The sender offers file `offer.number` on link `id`: start it, resume it, or say it was delivered.
    mutating func onOffer(_ offer: FrameBodies.FileOffer, on id: ConnectionID, peerIncarnation: UInt64,
                          state: inout FileReceiveState, out: inout FileReceiveOutput) {
        if offer.number <= state.lastDelivered {
            out.send(id, Frame(.fileAck, FrameBodies.FileAck.delivered(number: offer.number).encode()))
            return
        }
        if let cur = state.incoming, cur.number == offer.number, cur.sizeBytes == offer.sizeBytes, cur.name == offer.name {
            // A resume: drop whatever was written past the committed offset.
            out.file(.truncate(path: Self.partPath(peerIncarnation: peerIncarnation, cur.number), sizeBytes: cur.committedBytes))
        } else {
            drop(peerIncarnation: peerIncarnation, state: &state, out: &out)
            let f = IncomingFile(number: offer.number, name: offer.name, sizeBytes: offer.sizeBytes, sha256: [],
                                 metadata: offer.metadata, committedBytes: 0, verifyFailures: 0)
            state.incoming = f
            out.persist { LinkPersistence.incomingWrite(f, into: &$0) }
            out.file(.truncate(path: Self.partPath(peerIncarnation: peerIncarnation, f.number), sizeBytes: 0))
        }
        resetProgress(state)
        let cur = state.incoming!
        out.send(id, Frame(.fileResume, FrameBodies.encodeVarints(cur.number, UInt64(cur.committedBytes))))
    }

    /// The sender's SHA-256 of the whole file: check the file once all of it is committed.
    mutating func onEnd(number n: UInt64, sha256 sha: [UInt8], link: ConnectionID?, peerIncarnation: UInt64,
                        state: inout FileReceiveState, out: inout FileReceiveOutput) {
        guard var cur = state.incoming, cur.number == n else {
            // Delivered already: the sender resends because our `fileAck delivered` was lost.
            // Say it again, or the transfer stays outstanding until the next connection.
            if n <= state.lastDelivered, let id = link {
                out.send(id, Frame(.fileAck, FrameBodies.FileAck.delivered(number: n).encode()))
            }
            return
        }
        if cur.sha256 != sha {
            cur.sha256 = sha
            state.incoming = cur
            out.persist { LinkPersistence.incomingWrite(cur, into: &$0) }
        }
        if cur.committedBytes == cur.sizeBytes {
            out.file(.verify(number: n, path: Self.partPath(peerIncarnation: peerIncarnation, n), sha256: sha))
        } else if writtenBytes < cur.sizeBytes, let id = link {
            // The sender thinks it sent everything, yet bytes are missing: our `fileResume` (after a
            // gap or a failed check) was lost. Ask again, or neither side would send anything more.
            resumeRequestedAt = writtenBytes
            out.send(id, Frame(.fileResume, FrameBodies.encodeVarints(n, UInt64(writtenBytes))))
        }
    }

    /// A chunk of the incoming file: written when it is the next one, committed every
    /// `fileSyncIntervalBytes`, a gap asked for again once.
    mutating func onChunk(_ frame: Frame, on id: ConnectionID, peerIncarnation: UInt64, state: inout FileReceiveState,
                          stats: inout LinkStats, out: inout FileReceiveOutput) throws(ByteReaderError) {
        let (n, offset, start) = try FrameBodies.FileChunk.decode(frame.body)
        guard var cur = state.incoming, cur.number == n else { return }  // cancelled or stale
        let count = Int64(frame.body.count - start)
        guard offset + count <= cur.sizeBytes else { throw .malformed("chunk past the end of file \(n)") }
        guard offset == writtenBytes else {
            if offset > writtenBytes && resumeRequestedAt != writtenBytes {
                // A chunk went missing: ask for the rest from where we are.
                resumeRequestedAt = writtenBytes
                out.send(id, Frame(.fileResume, FrameBodies.encodeVarints(n, UInt64(writtenBytes))))
            }
            return
        }
        guard count > 0 else { return }
        let path = Self.partPath(peerIncarnation: peerIncarnation, n)
        out.file(.write(path: path, offset: offset, bytes: frame.body[start...]))
        writtenBytes += count
        stats.files.bytesReceived += count
        let complete = writtenBytes == cur.sizeBytes
        guard complete || writtenBytes - cur.committedBytes >= config.fileSyncIntervalBytes else {
            if writtenBytes - progressReportedAt >= config.fileAckIntervalBytes {
                progressReportedAt = writtenBytes
                out.send(id, Frame(.fileAck, FrameBodies.FileAck.progress(number: n, offset: cur.committedBytes).encode()))
            }
            return
        }
        progressReportedAt = writtenBytes
        out.file(.sync(path: path))
        cur.committedBytes = writtenBytes
        state.incoming = cur
        out.persist { LinkPersistence.incomingWrite(cur, into: &$0) }
        if complete {
            if !cur.sha256.isEmpty { out.file(.verify(number: n, path: path, sha256: cur.sha256)) }
        } else {
            out.send(id, Frame(.fileAck, FrameBodies.FileAck.progress(number: n, offset: cur.committedBytes).encode()))
        }
    }

    // MARK: - Verification

    /// The shell hashed the complete incoming file `number`. On a match it is moved to its
    /// inbox name and returned (the session commits and delivers it, then calls
    /// `acknowledgeDelivered`); on a mismatch it starts again, or fails after too many.
    mutating func onVerified(number: UInt64, matches: Bool, link: ConnectionID?, peerIncarnation: UInt64,
                             state: inout FileReceiveState, stats: inout LinkStats, out: inout FileReceiveOutput) -> ReceivedFile? {
        guard var cur = state.incoming, cur.number == number, cur.committedBytes == cur.sizeBytes else { return nil }
        let part = Self.partPath(peerIncarnation: peerIncarnation, number)
        if matches {
            let file = ReceivedFile(path: Self.inboxPath(peerIncarnation: peerIncarnation, number: number, name: cur.name),
                                    name: cur.name, metadata: cur.metadata, sizeBytes: cur.sizeBytes)
            out.file(.move(from: part, to: file.path))
            state.incoming = nil
            state.lastDelivered = number
            return file
        }
        cur.verifyFailures += 1
        stats.files.verifyFailures += 1
        out.log(.warning, "file \(number) failed its SHA-256 check (\(cur.verifyFailures) of \(config.maxFileVerifyFailures)): not delivered")
        if cur.verifyFailures >= config.maxFileVerifyFailures {
            drop(peerIncarnation: peerIncarnation, state: &state, out: &out)
            let e = WCError(.deliveryFailed, "SHA-256 mismatch \(cur.verifyFailures) times")
            if let id = link { out.send(id, Frame(.fileAck, FrameBodies.FileAck.failed(number: number, e).encode())) }
            return nil
        }
        cur.committedBytes = 0
        state.incoming = cur
        resetProgress(state)
        out.file(.truncate(path: part, sizeBytes: 0))
        out.persist { LinkPersistence.incomingWrite(cur, into: &$0) }
        if let id = link { out.send(id, Frame(.fileResume, FrameBodies.encodeVarints(number, 0))) }
        return nil
    }

    /// Tells the sender file `number` was delivered.
    func acknowledgeDelivered(_ number: UInt64, on id: ConnectionID, out: inout FileReceiveOutput) {
        out.send(id, Frame(.fileAck, FrameBodies.FileAck.delivered(number: number).encode()))
    }

    // MARK: - Cancel

    /// The sender cancelled file `n`: true when it came too late (delivered); else what
    /// arrived of it is dropped (a late `fileEnd` or chunk of it then finds no incoming file).
    mutating func onCancel(_ n: UInt64, peerIncarnation: UInt64, state: inout FileReceiveState, out: inout FileReceiveOutput) -> Bool {
        let delivered = n <= state.lastDelivered
        if !delivered, state.incoming?.number == n { drop(peerIncarnation: peerIncarnation, state: &state, out: &out) }
        return delivered
    }

    /// The answer to the sender's cancel of `n` (after the receive log's commit).
    func answerCancel(_ n: UInt64, delivered: Bool, on id: ConnectionID, out: inout FileReceiveOutput) {
        out.send(id, Frame(.fileAck, (delivered ? FrameBodies.FileAck.delivered(number: n) : .cancelled(number: n)).encode()))
    }

    // MARK: - State

    /// The partial files among `names` (the inbox's) that no transfer can resume: every
    /// `.part` but the incoming file's own, as paths to delete.
    static func abandonedPartialFiles(among names: [String], peerIncarnation: UInt64, state: FileReceiveState) -> [String] {
        let keep = state.incoming.map { partPath(peerIncarnation: peerIncarnation, $0.number) }
        return names.filter { $0.hasSuffix(".part") }.map { "\(inboxDirectory)/\($0)" }.filter { $0 != keep }
    }

    /// Forgets the incoming file and deletes its partial content.
    mutating func drop(peerIncarnation: UInt64, state: inout FileReceiveState, out: inout FileReceiveOutput) {
        guard let cur = state.incoming else { return }
        out.file(.remove(path: Self.partPath(peerIncarnation: peerIncarnation, cur.number)))
        state.incoming = nil
        out.persist { LinkPersistence.incomingWrite(nil, into: &$0) }
        resetProgress(state)
    }

    /// Writing the incoming file goes on from its committed offset (0 when there is none):
    /// after a drop (bytes written but not committed will be written again), a resume, a
    /// restart from 0 or a dropped file.
    mutating func resetProgress(_ state: FileReceiveState) {
        writtenBytes = state.incoming?.committedBytes ?? 0
        progressReportedAt = writtenBytes
        resumeRequestedAt = -1
    }
}
