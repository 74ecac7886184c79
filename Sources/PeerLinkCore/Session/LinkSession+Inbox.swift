
/// Content that arrives while the app is not running waits in the durable inbox
/// (`persistent.inbox`, an `Inbox`) and is delivered, in arrival order, when the app runs.
extension LinkSession {
    /// `hasContentPending`: data arrived that the delegate has not seen yet.
    public var hasContentPending: Bool { !persistent.pendingInbox.isEmpty }

    /// The app can take delegate callbacks: activated and running.
    var appCanReceive: Bool { activationState == .activated && localAppState.isRunning }

    /// Delivers `content` now, or keeps it in the inbox (rows added to `batch`).
    mutating func deliverContent(_ content: PendingContent, into batch: inout WriteBatch) {
        if appCanReceive {
            deliverNow(content)
            return
        }
        persistent.pendingInbox.hold(content, into: &batch)
        metaDirty = true
    }

    mutating func deliverNow(_ content: PendingContent) {
        if Inbox.deliver(content, out: &out.inbox) { stats.files.delivered += 1 }
    }

    /// Delivers what waited in the inbox (the app now runs); each row is deleted in the
    /// same commit as the app's handling of it.
    mutating func flushInbox() {
        guard appCanReceive, !persistent.pendingInbox.isEmpty else { return }
        stats.files.delivered += persistent.pendingInbox.flush(out: &out.inbox)
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
