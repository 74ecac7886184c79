
/// The session's side of the application context (`ContextChannel` holds its logic, the
/// durable state is `persistent.context`): readiness, the meta row, delivery of a received
/// context through the inbox, and the retransmission clock.
extension LinkSession {
    /// `applicationContext`: the last context this side set (empty when none).
    public var applicationContext: [String: PlistValue] { persistent.context.sent?.dictionaryValue ?? [:] }

    /// `receivedApplicationContext`: the last context received from the peer (empty when none).
    public var receivedApplicationContext: [String: PlistValue] { persistent.context.received?.dictionaryValue ?? [:] }

    /// `updateApplicationContext(_:)`: replaces the context; may be called while
    /// unreachable (but only when activated). A context equal to the current one is not
    /// delivered again (nor numbered anew), as in WatchConnectivity.
    public mutating func updateApplicationContext(_ context: PlistValue, now: EpochMs) -> Result<Void, WCError> {
        if let e = readinessError() { return .failure(e) }
        if let e = appContext.validate(context) { return .failure(e) }
        guard appContext.update(context, state: &persistent.context, out: &out.context) == .stored else { return .success(()) }
        metaDirty = true
        flushMeta()
        sendContextIfNeeded()
        return .success(())
    }

    /// Sends the context when the peer does not hold it and it is not already on the wire.
    mutating func sendContextIfNeeded() {
        guard activationState == .activated, let id = connections.activeID, appContext.wouldSend(persistent.context) else { return }
        let wasIdle = !awaitsAck
        let mark = out.count
        appContext.send(persistent.context, on: id, out: &out.context)
        noteSends(since: mark)
        if wasIdle { active!.liveness.lastProgressMs = active!.liveness.nowMs }
    }

    mutating func onContextFrame(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let (version, value) = try ContextChannel.decode(frame)
        guard let id = connections.activeID else { return }
        switch appContext.receive(version, value, state: &persistent.context) {
        case .ignored: break
        case .renumbered:
            metaDirty = true
            flushMeta()
        case .stored:
            metaDirty = true
            var b = WriteBatch()
            LinkPersistence.contextWrite(received: value, into: &b)
            deliverContent(.applicationContext(value), into: &b)
            out.persist(b)
            flushMeta()
        }
        let mark = out.count
        appContext.acknowledge(version, on: id, out: &out.context)
        noteSends(since: mark)
    }

    mutating func onContextAck(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        guard try appContext.onAck(frame, state: &persistent.context) else { return }
        metaDirty = true
        if connections.activeID != nil { active!.liveness.lastProgressMs = now }
    }
}
