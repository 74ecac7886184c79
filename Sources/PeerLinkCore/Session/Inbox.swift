
/// Content that arrived while the app was not running (`hasContentPending`): a durable
/// inbox (a slice of `LinkPersistent`), delivered in arrival order when the app runs.
public struct Inbox: Sendable, Equatable {
    /// The row number the next held content gets.
    public var nextSeq: UInt64 = 1
    /// What waits, in arrival order.
    public var entries: [InboxEntry] = []

    public init() {}

    var isEmpty: Bool { entries.isEmpty }

    /// Keeps `content` until the app runs (its rows added to `batch`; the meta row changed).
    /// Only the newest application context is kept.
    mutating func hold(_ content: PendingContent, into batch: inout WriteBatch) {
        if case .applicationContext = content {
            for entry in entries {
                if case .applicationContext = entry.content { batch.delete(LinkPersistence.inbox, storeKey(entry.seq)) }
            }
            entries.removeAll { if case .applicationContext = $0.content { true } else { false } }
        }
        let seq = nextSeq
        nextSeq += 1
        entries.append(InboxEntry(seq: seq, content: content))
        batch.put(LinkPersistence.inbox, storeKey(seq), LinkPersistence.encodePending(content))
    }

    /// Delivers everything held (the app now runs), each row deleted in the same commit as
    /// the app's handling of it. Returns how many files were delivered.
    mutating func flush(out: inout InboxOutput) -> Int {
        let pending = entries
        entries = []
        var files = 0
        for entry in pending {
            if Self.deliver(entry.content, out: &out) { files += 1 }
            out.persist { $0.delete(LinkPersistence.inbox, storeKey(entry.seq)) }
        }
        return files
    }

    /// The app's callback for `content`; true for a file (then what the app did not move
    /// out of the inbox is deleted).
    @discardableResult
    static func deliver(_ content: PendingContent, out: inout InboxOutput) -> Bool {
        switch content {
        case .userInfo(let v, let c): out.deliver(.didReceiveUserInfo(v, isComplication: c))
        case .applicationContext(let v): out.deliver(.didReceiveApplicationContext(v))
        case .file(let f):
            out.deliver(.didReceiveFile(f))
            // The app had its callback to move the file; what is left is deleted.
            out.removeFile(f.path)
            return true
        }
        return false
    }
}
