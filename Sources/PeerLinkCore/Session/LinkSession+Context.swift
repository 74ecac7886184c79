
/// `updateApplicationContext`: latest wins, durable on both sides.
///
/// The sender stores the context with a growing version, then sends it whenever the peer
/// does not hold that version (on every reconnect, and again after `retransmitAfterMs`
/// without an acknowledgement). The receiver keeps only a version newer than the one it
/// has, commits it, then acknowledges. A context set while disconnected, or replaced
/// several times, is delivered once after reconnecting: the newest.
extension LinkSession {
    /// `applicationContext`: the last context this side set (empty when none).
    public var applicationContext: [String: PlistValue] { persistent.applicationContext?.dictionaryValue ?? [:] }

    /// `receivedApplicationContext`: the last context received from the peer (empty when none).
    public var receivedApplicationContext: [String: PlistValue] { persistent.receivedApplicationContext?.dictionaryValue ?? [:] }

    /// `updateApplicationContext(_:)`: replaces the context; may be called while
    /// unreachable (but only when activated). A context equal to the current one is not
    /// delivered again (nor numbered anew), as in WatchConnectivity.
    public mutating func updateApplicationContext(_ context: PlistValue, now: EpochMs) -> Result<Void, WCError> {
        if let e = readinessError() { return .failure(e) }
        guard case .dictionary = context else { return .failure(WCError(.payloadUnsupportedTypes, "an application context must be a dictionary")) }
        let size = CanonicalEncoding.encodedSize(context)
        guard size <= PayloadLimits.applicationContextBytes else {
            return .failure(WCError(.payloadTooLarge, "application context is \(size) bytes; the limit is \(PayloadLimits.applicationContextBytes)"))
        }
        if persistent.applicationContext == context { return .success(()) }
        persistent.applicationContext = context
        persistent.contextVersion += 1
        metaDirty = true
        persist { LinkPersistence.contextWrite(sent: context, into: &$0) }
        flushMeta()
        sendContextIfNeeded()
        return .success(())
    }

    /// Sends the context when the peer does not hold it and it is not already on the wire.
    mutating func sendContextIfNeeded() {
        guard activationState == .activated, let a = active, let ctx = persistent.applicationContext,
              persistent.contextVersion > persistent.contextAckedVersion, a.contextSentVersion < persistent.contextVersion else { return }
        let wasIdle = !a.awaitsAck(self)
        let body = FrameBodies.Context(version: persistent.contextVersion, payload: CanonicalEncoding.encode(ctx))
        send(a.id, Frame(.context, body.encode()))
        if var a2 = active {
            a2.contextSentVersion = persistent.contextVersion
            if wasIdle { a2.lastProgressMs = a2.nowMs }
            active = a2
        }
    }

    mutating func onContextFrame(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let c = try FrameBodies.Context.decode(frame.body)
        try PayloadLimits.enforce("an application context", bytes: c.payload.count, limit: PayloadLimits.applicationContextBytes)
        let value = try CanonicalEncoding.decode(c.payload)
        guard case .dictionary = value else { throw .malformed("application context is not a dictionary") }
        guard let a = active else { return }
        if c.version > persistent.receivedContextVersion {
            persistent.receivedContextVersion = c.version
            persistent.receivedApplicationContext = value
            metaDirty = true
            var b = WriteBatch()
            LinkPersistence.contextWrite(received: value, into: &b)
            deliverContent(.applicationContext(value), into: &b)
            out.persist(b)
            flushMeta()
        }
        send(a.id, Frame(.contextAck, FrameBodies.encodeVarint(c.version)))
    }

    mutating func onContextAck(_ frame: Frame, now: EpochMs) throws(ByteReaderError) {
        let v = try FrameBodies.decodeVarint(frame.body)
        guard v > persistent.contextAckedVersion, v <= persistent.contextVersion else { return }
        persistent.contextAckedVersion = v
        metaDirty = true
        if var a = active { a.lastProgressMs = now; active = a }
    }
}
