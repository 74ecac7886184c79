
/// Content that arrives while the app is not running waits in a durable inbox
/// (`hasContentPending`) and is delivered, in arrival order, when the app runs.
extension LinkSession {
    /// `hasContentPending`: data arrived that the delegate has not seen yet.
    public var hasContentPending: Bool { !persistent.inbox.isEmpty }

    /// The app can take delegate callbacks: activated and running.
    var appCanReceive: Bool { activationState == .activated && localAppState.isRunning }

    /// Delivers `content` now, or keeps it in the inbox (rows added to `batch`).
    mutating func deliverContent(_ content: PendingContent, into batch: inout WriteBatch) {
        if appCanReceive {
            deliverNow(content)
            return
        }
        if case .applicationContext = content {
            // Only the newest context is kept.
            for entry in persistent.inbox {
                if case .applicationContext = entry.content { batch.delete(LinkPersistence.inbox, storeKey(entry.seq)) }
            }
            persistent.inbox.removeAll { if case .applicationContext = $0.content { true } else { false } }
        }
        let seq = persistent.nextInboxSeq
        persistent.nextInboxSeq += 1
        metaDirty = true
        persistent.inbox.append(InboxEntry(seq: seq, content: content))
        batch.put(LinkPersistence.inbox, storeKey(seq), LinkPersistence.encodePending(content))
    }

    mutating func deliverNow(_ content: PendingContent) {
        switch content {
        case .userInfo(let v, let c): out.deliver(.didReceiveUserInfo(v, isComplication: c))
        case .applicationContext(let v): out.deliver(.didReceiveApplicationContext(v))
        case .file(let f):
            stats.filesDelivered += 1
            out.deliver(.didReceiveFile(f))
            // The app had its callback to move the file; what is left is deleted.
            out.file(.remove(path: f.path))
        }
    }

    /// Delivers what waited in the inbox (the app now runs); each row is deleted in the
    /// same commit as the app's handling of it.
    mutating func flushInbox() {
        guard appCanReceive, !persistent.inbox.isEmpty else { return }
        let pending = persistent.inbox
        persistent.inbox = []
        for entry in pending {
            deliverNow(entry.content)
            persist { $0.delete(LinkPersistence.inbox, storeKey(entry.seq)) }
        }
    }

    /// The peer's message or complication user info launches the app in the background.
    mutating func wakeApp() {
        guard !localAppState.isRunning else { return }
        var s = localAppState
        s.isRunning = true
        s.isForeground = false
        emitLog(.info, "the \(config.role) app was launched in the background by the \(config.role.peer)")
        out.deliver(.appDidWakeInBackground)
        setLocalAppState(s)
    }
}
