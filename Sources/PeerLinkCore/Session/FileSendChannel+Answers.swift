
/// The sender's file channel: the receiver's answers, cancelling, and finishing transfers.
extension FileSendChannel {
    // MARK: - Answers

    /// `fileResume`: the receiver holds file `n` up to an offset; sending goes on from there.
    /// False when it is not about the head file as sent on this link (late or stale).
    mutating func onResume(_ frame: Frame, queue: FileSendQueue) throws(ByteReaderError) -> Bool {
        let (n, offset) = try FrameBodies.decodeVarints(frame.body)
        guard var f = head, f.number == n, let file = queue.files.first, file.number == n, !file.isCancelled else { return false }
        guard offset <= UInt64(file.sizeBytes) else { throw .malformed("resume offset \(offset) beyond the file's \(file.sizeBytes) bytes") }
        f.ackedOffset = f.awaitingResume ? Int64(offset) : min(f.ackedOffset, Int64(offset))
        f.sendOffset = Int64(offset)
        f.awaitingResume = false
        f.endSent = false
        head = f
        return true
    }

    /// `fileAck` progress of file `n`: the receiver committed up to `offset`. False when it
    /// is not about the head file as sent on this link.
    mutating func onProgress(number n: UInt64, offset: Int64) -> Bool {
        guard var f = head, f.number == n else { return false }
        f.ackedOffset = max(f.ackedOffset, min(offset, f.sendOffset))
        head = f
        return true
    }

    // MARK: - Cancelling

    /// How `cancel` went.
    enum Cancel: Equatable {
        /// No such transfer is outstanding.
        case notFound
        /// It may have been delivered: marked cancelled (durably); the peer is asked.
        case marked
        /// It cannot have been completed by the peer: dropped. `wasHead`: it was being sent
        /// on this link (the peer is told; the next file goes).
        case dropped(wasHead: Bool)
    }

    /// `cancel()` of file transfer `id`; `link` is the link now up. See `LinkSession.cancelFile`.
    mutating func cancel(id: String, link: ConnectionID?, queue: inout FileSendQueue, out: inout FileSendOutput) -> Cancel {
        guard id.hasPrefix("f"), let n = UInt64(id.dropFirst()),
              let i = queue.files.firstIndex(where: { $0.number == n }), !queue.files[i].isCancelled else { return .notFound }
        let mayBeDelivered = link != nil ? highestEndSent >= n : (i == 0 && queue.files[i].sizeBytes >= 0)
        if mayBeDelivered {
            queue.files[i].isCancelled = true
            let f = queue.files[i]
            out.persist { $0.put(LinkPersistence.filesOut, storeKey(n), LinkPersistence.encodeOutgoing(f)) }
            if let id = link {
                head = FileSendState(number: n)  // awaiting the answer (resent on retransmission)
                sendCancel(n, on: id, out: &out)
            }
            return .marked
        }
        queue.files.remove(at: i)
        out.persist { $0.delete(LinkPersistence.filesOut, storeKey(n)) }
        guard let id = link, head?.number == n else { return .dropped(wasHead: false) }
        head = nil
        sendCancel(n, on: id, out: &out)
        return .dropped(wasHead: true)
    }

    /// The peer answered `fileCancel`: it had not delivered file `n` and never will. False
    /// when `n` is not a cancelled file here.
    mutating func onCancelled(number n: UInt64, queue: inout FileSendQueue, out: inout FileSendOutput) -> Bool {
        guard let i = queue.files.firstIndex(where: { $0.number == n }), queue.files[i].isCancelled else { return false }
        queue.files.remove(at: i)
        out.persist { $0.delete(LinkPersistence.filesOut, storeKey(n)) }
        if head?.number == n { head = nil }
        return true
    }

    /// A new link is up and the peer said which files it delivered: a cancelled file it has
    /// not delivered was sent on a link that is gone and is never sent again.
    func dropCancelled(queue: inout FileSendQueue, out: inout FileSendOutput) {
        let cancelled = queue.files.filter(\.isCancelled).map(\.number)
        guard !cancelled.isEmpty else { return }
        queue.files.removeAll(where: \.isCancelled)
        out.persist { b in for n in cancelled { b.delete(LinkPersistence.filesOut, storeKey(n)) } }
    }

    // MARK: - Finishing

    /// File `n` is finished (delivered when `error` is nil): it leaves the queue and the app
    /// is told. False when it is not queued.
    mutating func finish(number n: UInt64, error: WCError?, queue: inout FileSendQueue, out: inout FileSendOutput) -> Bool {
        guard let i = queue.files.firstIndex(where: { $0.number == n }) else { return false }
        let f = queue.files.remove(at: i)
        out.persist { $0.delete(LinkPersistence.filesOut, storeKey(n)) }
        var t = transfer(f)
        t.isTransferring = false
        if error == nil { t.acknowledgedBytes = f.sizeBytes; t.isDelivered = true }
        if head?.number == n { head = nil }
        out.didFinish(t, error: error)
        return true
    }
}
