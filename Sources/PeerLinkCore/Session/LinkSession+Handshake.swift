
extension LinkSession {
    /// The Noise prologue: both sides hash it first, so a peer of another protocol fails.
    public static let noisePrologue = Array("PeerLink protocol 2".utf8)
    /// Both handshake messages carry an empty payload: 32-byte key and 16-byte tag.
    public static let helloBytes = NoiseHandshake.messageBytes(payloadBytes: 0)
    /// A refusal's reason is cut to this many bytes of UTF-8.
    static let maxRejectReasonBytes = 200
    /// The largest `reject` body (a varint length and the reason).
    static let maxRejectBytes = 2 + maxRejectReasonBytes

    /// The sealed record body of a frame body of `n` bytes in one record.
    static func sealedRecordBytes(_ n: Int) -> Int { n + 1 + AEADCipher.tagBytes }
    /// The size of the sealed record that carries the largest session info (the `auth`).
    public static var sealedSessionInfoBytes: Int { sealedRecordBytes(SessionInfo.maxBytes) }

    // MARK: - What a connection accepts

    /// The record types connection `id` accepts now, each at the largest size it can have
    /// in this phase: before authentication only the handshake's own records, of their own
    /// size; afterwards sealed records only.
    public func recordLimits(for id: ConnectionID) -> RecordLimits {
        if let h = connections[handshake: id] {
            switch h.phase {
            case .awaitingHello: return RecordLimits(hello: Self.helloBytes)
            case .awaitingHelloReply: return RecordLimits(helloReply: Self.helloBytes, reject: Self.maxRejectBytes)
            case .awaitingAuth: return RecordLimits(sealed: Self.sealedRecordBytes(SessionInfo.maxBytes))
            case .awaitingReady: return RecordLimits(sealed: Self.sealedRecordBytes(max(SessionInfo.maxBytes, Self.maxRejectBytes)))
            }
        }
        if connections.activeID == id { return RecordLimits(sealed: RecordHeader.maxBodyBytes) }
        return RecordLimits()
    }

    /// True while connection `id` is in the handshake or is the authenticated one (bytes of
    /// any other — refused, replaced — are ignored).
    public func isConnectionOpen(_ id: ConnectionID) -> Bool { connections.isOpen(id) }

    // MARK: - Connection events

    /// A transport connection opened. `ephemeralKey` MUST be 32 fresh random bytes from the
    /// shell: this side's Noise ephemeral private key for the connection.
    public mutating func onConnectionOpened(_ id: ConnectionID, isInitiator: Bool, ephemeralKey: [UInt8], now: EpochMs) {
        precondition(ephemeralKey.count == X25519.keyBytes, "an ephemeral key is \(X25519.keyBytes) bytes")
        if isInitiator { reconnect.attemptStarted() }
        let mark = out.count
        let (h, refusal) = HandshakeMachine(shared: sharedConfig).open(id, isInitiator: isInitiator, ephemeralKey: ephemeralKey, now: now, out: &out.handshake)
        connections[handshake: id] = h
        noteSends(since: mark)
        if let reason = refusal { return refuse(id, reason, tellPeer: false) }
        if !isInitiator { enforceHandshakeCaps(now: now) }
    }

    // MARK: - Handshake frames

    mutating func onHandshakeFrame(_ id: ConnectionID, _ frame: Frame, now: EpochMs) {
        guard let h = connections[handshake: id] else { return }
        // A frame of a connection opened before the newest one whose link came up (delayed
        // while the peer gave up on it and connected again): the peer has moved on, and what
        // it would report here is older than what the link learned. Refused before the
        // machine runs, so nothing (no `ready`) goes back on it.
        if id < connections.newestLinkID {
            return refuse(id, "older than the link's connection \(connections.newestLinkID)", tellPeer: false)
        }
        let mark = out.count
        let step = HandshakeMachine(shared: sharedConfig).onFrame(h, frame, on: id, me: mySessionInfo(), out: &out.handshake)
        noteSends(since: mark)
        switch step {
        case .next(let h): connections[handshake: id] = h
        case .refuse(let reason, let tellPeer): refuse(id, reason, tellPeer: tellPeer)
        case .up(let info): becomeUp(id, peer: info, now: now)
        case .refusedByPeer(let reason):
            connections[handshake: id] = nil
            stats.refusedByPeer += 1
            noteRefusal(.warning, "peer refused connection \(id): \(reason)", now: now)
            out.close(id, reason: "refused by peer: \(reason)")
        }
    }

    func mySessionInfo() -> SessionInfo {
        SessionInfo(incarnation: persistent.incarnation, knownPeerIncarnation: persistent.peerIncarnation,
                    lastDelivered: persistent.lastDeliveredFromPeer, lastComplicationDelivered: persistent.lastComplicationDeliveredFromPeer,
                    contextVersionReceived: persistent.receivedContextVersion, lastFileDelivered: persistent.lastFileDelivered,
                    appState: localAppState)
    }
}
