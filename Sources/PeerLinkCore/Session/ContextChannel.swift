
/// The application context's durable state (a slice of `LinkPersistent`): the last context
/// this side set and the last it received, each with its version.
public struct ApplicationContextState: Sendable, Equatable {
    /// `applicationContext`: the last one this side set, with its version.
    public var sent: PlistValue?
    public var version: UInt64 = 0
    /// The highest version the peer has stored.
    public var ackedVersion: UInt64 = 0
    /// `receivedApplicationContext` and its version (counted per peer incarnation).
    public var received: PlistValue?
    public var receivedVersion: UInt64 = 0

    public init() {}

    /// The peer does not hold the context this side set.
    var peerLacksCurrent: Bool { ackedVersion < version }
}

/// `updateApplicationContext`: latest wins, durable on both sides.
///
/// The sender stores the context with a growing version, then sends it whenever the peer
/// does not hold that version (on every reconnect, and again after `retransmitAfterMs`
/// without an acknowledgement). The receiver keeps only a version newer than the one it
/// has, commits it, then acknowledges. A context set while disconnected, or replaced
/// several times, is delivered once after reconnecting: the newest.
///
/// The channel keeps, of the link it is on, the version sent on it; its durable state is the
/// session's `persistent.context`, passed in. The session stores and delivers a received
/// context (through the inbox) and keeps the retransmission clock.
struct ContextChannel: Sendable {
    /// The version sent on the current link (0: none).
    private(set) var sentVersion: UInt64 = 0

    init() {}

    /// How `update` went.
    enum Update: Equatable {
        /// The same context as the current one: not numbered anew, not delivered again.
        case unchanged
        /// Stored under the next version (the meta row changed; the row is in `out`).
        case stored
    }

    /// `updateApplicationContext(_:)` of an activated session: validates and stores `context`.
    func validate(_ context: PlistValue) -> WCError? {
        guard case .dictionary = context else { return WCError(.payloadUnsupportedTypes, "an application context must be a dictionary") }
        let size = CanonicalEncoding.encodedSize(context)
        guard size <= PayloadLimits.applicationContextBytes else {
            return WCError(.payloadTooLarge, "application context is \(size) bytes; the limit is \(PayloadLimits.applicationContextBytes)")
        }
        return nil
    }

    /// Stores a valid `context` under the next version.
    func update(_ context: PlistValue, state: inout ApplicationContextState, out: inout ContextOutput) -> Update {
        if state.sent == context { return .unchanged }
        state.sent = context
        state.version += 1
        out.persist { LinkPersistence.contextWrite(sent: context, into: &$0) }
        return .stored
    }

    /// True when `send` would put the context on the wire: the peer does not hold it and it
    /// is not already on this link.
    func wouldSend(_ state: ApplicationContextState) -> Bool {
        state.sent != nil && state.version > state.ackedVersion && sentVersion < state.version
    }

    /// Sends the context on the link `id` (call when `wouldSend`).
    mutating func send(_ state: ApplicationContextState, on id: ConnectionID, out: inout ContextOutput) {
        guard let ctx = state.sent else { return }
        out.send(id, Frame(.context, FrameBodies.Context(version: state.version, payload: CanonicalEncoding.encode(ctx)).encode()))
        sentVersion = state.version
    }

    /// What was sent on this link awaits the peer's acknowledgement.
    func awaitsAck(_ state: ApplicationContextState) -> Bool { sentVersion > state.ackedVersion }

    // MARK: - Receiving

    /// The version and context of a `context` frame (a dictionary within the limit).
    static func decode(_ frame: Frame) throws(ByteReaderError) -> (version: UInt64, context: PlistValue) {
        let c = try FrameBodies.Context.decode(frame.body)
        try PayloadLimits.enforce("an application context", bytes: c.payload.count, limit: PayloadLimits.applicationContextBytes)
        let value = try CanonicalEncoding.decode(c.payload)
        guard case .dictionary = value else { throw .malformed("application context is not a dictionary") }
        return (c.version, value)
    }

    /// What `receive` did with the peer's context.
    enum Received: Equatable {
        /// Not newer than the version held: ignored (it is acknowledged all the same).
        case ignored
        /// Newer, with the content already held (the peer numbered it again): the version is
        /// kept, the context is not delivered a second time.
        case renumbered
        /// Newer and different: the session commits it and delivers it before the
        /// acknowledgement leaves.
        case stored
    }

    /// The peer's context `version`: kept when newer than the one held.
    func receive(_ version: UInt64, _ context: PlistValue, state: inout ApplicationContextState) -> Received {
        guard version > state.receivedVersion else { return .ignored }
        state.receivedVersion = version
        if state.received == context { return .renumbered }
        state.received = context
        return .stored
    }

    /// Acknowledges the peer's context `version` on the link `id`.
    func acknowledge(_ version: UInt64, on id: ConnectionID, out: inout ContextOutput) {
        out.send(id, Frame(.contextAck, FrameBodies.encodeVarint(version)))
    }

    /// The peer acknowledged a version: true when it is news (the peer made progress).
    func onAck(_ frame: Frame, state: inout ApplicationContextState) throws(ByteReaderError) -> Bool {
        let v = try FrameBodies.decodeVarint(frame.body)
        guard v > state.ackedVersion, v <= state.version else { return false }
        state.ackedVersion = v
        return true
    }

    // MARK: - Links

    /// A new link is up: nothing is on it yet.
    mutating func linkUp() { sentVersion = 0 }

    /// At the handshake the peer said it holds our version `held` (0 when it does not know
    /// this store). True when the durable state changed.
    ///
    /// When the peer holds exactly our current version but never acknowledged it to this
    /// store, the version it holds may have been made in a history this store lost (a rolled
    /// back write-ahead log, then a new context numbered like the lost one): the two would
    /// keep different contexts under one version and never resend. The context is numbered
    /// again so that it goes out; a peer that held it already keeps the new number without
    /// delivering it a second time (`receive`'s `.renumbered`).
    func peerHolds(_ held: UInt64, state: inout ApplicationContextState) -> Bool {
        if held > 0, held == state.version, state.ackedVersion < held, state.sent != nil {
            state.ackedVersion = held
            state.version += 1
            return true
        }
        guard held != state.ackedVersion else { return false }
        state.ackedVersion = held
        return true
    }

    /// What was sent is sent again (a retransmission).
    mutating func rewind() { sentVersion = 0 }
}
