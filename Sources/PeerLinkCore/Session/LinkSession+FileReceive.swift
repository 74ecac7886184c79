
/// The session's side of receiving files (`FileReceiveChannel` holds the logic, the durable
/// state is `persistent.fileReceive`): the link, delivery through the inbox, and the meta
/// row committed before an answer that depends on it leaves.
extension LinkSession {
    /// The inbox directory (relative to the node's file root).
    public static let inboxDirectory = FileReceiveChannel.inboxDirectory

    /// Where a verified file is delivered: `inbox/<peer-incarnation>-<number>-<name>`.
    static func inboxPath(peerIncarnation: UInt64, number: UInt64, name: String) -> String {
        FileReceiveChannel.inboxPath(peerIncarnation: peerIncarnation, number: number, name: name)
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
        FileReceiveChannel.partPath(peerIncarnation: persistent.peerIncarnation, number)
    }

    mutating func onFileOffer(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let offer = try FrameBodies.FileOffer.decode(frame.body)
        if let m = offer.metadata {
            try PayloadLimits.enforce("file metadata", bytes: CanonicalEncoding.encodedSize(m), limit: PayloadLimits.fileMetadataBytes)
            guard case .dictionary = m else { throw .malformed("file metadata that is not a dictionary") }
        }
        guard let id = connections.activeID else { return }
        let mark = out.count
        files.receive.onOffer(offer, on: id, peerIncarnation: persistent.peerIncarnation, state: &persistent.fileReceive, out: &out.fileReceive)
        noteSends(since: mark)
    }

    /// The sender's SHA-256 of the whole file: check the file once all of it is committed.
    mutating func onFileEnd(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let (n, sha) = try FrameBodies.FileEnd.decode(frame.body)
        let mark = out.count
        files.receive.onEnd(number: n, sha256: sha, link: connections.activeID, peerIncarnation: persistent.peerIncarnation,
                          state: &persistent.fileReceive, out: &out.fileReceive)
        noteSends(since: mark)
    }

    mutating func onFileChunk(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        guard let id = connections.activeID else { return }
        let mark = out.count
        defer { noteSends(since: mark) }
        try files.receive.onChunk(frame, on: id, peerIncarnation: persistent.peerIncarnation, state: &persistent.fileReceive,
                                stats: &stats, out: &out.fileReceive)
    }

    /// The shell hashed the complete incoming file `number`: deliver it, or start it again.
    public mutating func onFileVerified(number: UInt64, matches: Bool, now: EpochMs) {
        let conn = connections.activeID
        let mark = out.count
        guard let file = files.receive.onVerified(number: number, matches: matches, link: conn, peerIncarnation: persistent.peerIncarnation,
                                                state: &persistent.fileReceive, stats: &stats, out: &out.fileReceive) else {
            return noteSends(since: mark)
        }
        metaDirty = true
        var b = WriteBatch()
        LinkPersistence.incomingWrite(nil, into: &b)
        deliverContent(.file(file), into: &b)
        out.persist(b)
        flushMeta()
        if let conn {
            let mark = out.count
            files.receive.acknowledgeDelivered(number, on: conn, out: &out.fileReceive)
            noteSends(since: mark)
        }
    }

    /// The sender cancelled file `n`: answer whether it came too late (delivered), else drop
    /// what arrived of it (a late `fileEnd` or chunk of it then finds no incoming file).
    mutating func onFileCancel(_ frame: Frame) throws(ByteReaderError) {
        let n = try FrameBodies.decodeVarint(frame.body)
        let delivered = files.receive.onCancel(n, peerIncarnation: persistent.peerIncarnation, state: &persistent.fileReceive, out: &out.fileReceive)
        guard let id = connections.activeID else { return }
        flushMeta()
        let mark = out.count
        files.receive.answerCancel(n, delivered: delivered, on: id, out: &out.fileReceive)
        noteSends(since: mark)
    }

    /// The partial files among `names` (the inbox's) that no transfer can resume: every
    /// `.part` but the incoming file's own, as paths to delete.
    public func abandonedPartialFiles(among names: [String]) -> [String] {
        FileReceiveChannel.abandonedPartialFiles(among: names, peerIncarnation: persistent.peerIncarnation, state: persistent.fileReceive)
    }

    /// Forgets the incoming file and deletes its partial content.
    mutating func dropIncomingFile() {
        files.receive.drop(peerIncarnation: persistent.peerIncarnation, state: &persistent.fileReceive, out: &out.fileReceive)
    }
}
