
/// What an app shaped like Apple's WatchConnectivity (`PeerLinkWatchConnectivity`) needs of
/// the link beyond the `NodeContext` calls every app has.
extension NodeContext {
    /// Tells the peer its message `id` was not delivered (its error handler gets `error`'s
    /// code): the receiving app has no handler for a message that expects a reply
    /// (`deliveryFailed`), or its reply is not a property list (`messageReplyFailed`). False
    /// when no such message awaits a reply, or the link it came on is gone.
    @discardableResult
    public mutating func refuseMessage(_ id: MessageID, _ error: WCError) -> Bool {
        session.refuseMessage(id, error)
    }

    /// iOS: the user switches to another paired watch (`LinkSession.switchPairedWatch`): the
    /// app sees `sessionDidBecomeInactive`, then `sessionDidDeactivate`, and must activate
    /// again. False on the watch.
    @discardableResult
    public mutating func switchPairedWatch() -> Bool {
        session.switchPairedWatch(now: session.clockMs)
    }
}

extension LinkSession {
    /// See `NodeContext.refuseMessage`.
    mutating func refuseMessage(_ id: MessageID, _ error: WCError) -> Bool {
        let mark = out.count
        defer { noteSends(since: mark) }
        return messages.refuseAwaited(id, error, activeID: connections.activeID, out: &out.messages)
    }
}
