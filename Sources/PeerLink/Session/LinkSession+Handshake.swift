import Shared

/// The pairing handshake of one connection.
///
/// ```
/// connector (watch)                         listener (phone)
///   hello(role, nonceC)            ──►
///                                  ◄──   helloReply(role, nonceL, macL)
///   auth(macC, sessionInfo)        ──►       macL = HMAC(secret, "PeerLink/1 listener" ‖ nonceC ‖ nonceL)
///                                  ◄──   ready(sessionInfo)
///                                            macC = HMAC(secret, "PeerLink/1 connector" ‖ nonceL ‖ nonceC)
/// ```
/// Each side proves it holds the pairing secret over a nonce the other chose, so neither a
/// stranger nor a replay gets through; no channel frame crosses before `ready`.
struct Handshake: Sendable, Equatable {
    enum Phase: Sendable, Equatable { case awaitingHello, awaitingHelloReply, awaitingAuth, awaitingReady }
    var isInitiator: Bool
    var phase: Phase
    var myNonce: [UInt8]
    var peerNonce: [UInt8] = []
    var openedMs: EpochMs
}

/// Session facts exchanged in `auth` and `ready`.
///
/// Body: u64 incarnation, u64 knownPeerIncarnation, varint lastDelivered (ordinary),
/// varint lastDelivered (complication), varint contextVersionReceived, varint
/// lastFileDelivered, u8 app-state flags.
struct SessionInfo: Sendable, Equatable {
    var incarnation: UInt64
    /// The sender's idea of the receiver's incarnation (whose streams it counted).
    var knownPeerIncarnation: UInt64
    /// The highest seq of the receiver's streams the sender delivered.
    var lastDelivered: UInt64
    var lastComplicationDelivered: UInt64
    /// The receiver's application-context version the sender stored.
    var contextVersionReceived: UInt64
    /// The highest file number of the receiver's the sender delivered.
    var lastFileDelivered: UInt64
    var appState: AppState

    func encode(into w: inout ByteWriter) {
        w.writeUInt64BE(incarnation)
        w.writeUInt64BE(knownPeerIncarnation)
        w.writeVarint(lastDelivered)
        w.writeVarint(lastComplicationDelivered)
        w.writeVarint(contextVersionReceived)
        w.writeVarint(lastFileDelivered)
        w.writeByte(appState.flags)
    }

    static func decode(_ r: inout ByteReader) throws(ByteReaderError) -> SessionInfo {
        let info = SessionInfo(incarnation: try r.readUInt64BE(), knownPeerIncarnation: try r.readUInt64BE(),
                               lastDelivered: try r.readVarint(), lastComplicationDelivered: try r.readVarint(),
                               contextVersionReceived: try r.readVarint(), lastFileDelivered: try r.readVarint(),
                               appState: AppState(flags: try r.readByte()))
        guard info.appState.flags & ~0x0F == 0 else { throw .malformed("app-state flags") }
        return info
    }
}

extension LinkSession {
    static let nonceBytes = 16
    static let listenerLabel = Array("PeerLink/1 listener".utf8)
    static let connectorLabel = Array("PeerLink/1 connector".utf8)

    func roleByte(_ r: DeviceRole) -> UInt8 { r == .phone ? 0 : 1 }

    // MARK: - Connection events

    /// A transport connection opened. `nonce` MUST be 16 fresh random bytes from the shell.
    public mutating func onConnectionOpened(_ id: ConnectionID, isInitiator: Bool, nonce: [UInt8], now: EpochMs) {
        precondition(nonce.count == Self.nonceBytes, "nonce must be \(Self.nonceBytes) bytes")
        if isInitiator {
            nextConnectAtMs = nil
            handshakes[id] = Handshake(isInitiator: true, phase: .awaitingHelloReply, myNonce: nonce, openedMs: now)
            var w = ByteWriter(capacity: 20)
            w.writeByte(roleByte(config.role)); w.writeBytes(nonce)
            send(id, Frame(.hello, w.bytes))
        } else {
            handshakes[id] = Handshake(isInitiator: false, phase: .awaitingHello, myNonce: nonce, openedMs: now)
        }
    }

    /// The shell started connecting: no further attempt is due until this one ends.
    public mutating func onConnectAttemptStarted() {
        nextConnectAtMs = nil
    }

    /// A connection attempt (connector) failed: schedule the next one with backoff and jitter.
    public mutating func onConnectAttemptFailed(now: EpochMs) {
        scheduleReconnect(now: now)
    }

    mutating func scheduleReconnect(now: EpochMs) {
        guard config.role == .watch else { return }
        let exp = min(Double(config.reconnectMaxMs), Double(config.reconnectInitialMs) * pow2(reconnectAttempt))
        let jitter = 1 + config.reconnectJitter * (2 * rng.nextUnit() - 1)
        reconnectAttempt += 1
        nextConnectAtMs = now + Int64(min(Double(config.reconnectMaxMs), exp * jitter))
    }

    private func pow2(_ n: Int) -> Double { n >= 30 ? Double(1 << 30) : Double(1 << n) }

    /// The transport connection closed (by the peer, an error, or after our `.close`).
    public mutating func onConnectionClosed(_ id: ConnectionID, now: EpochMs) {
        handshakes[id] = nil
        guard let a = active, a.id == id else {
            if active == nil, config.role == .watch, nextConnectAtMs == nil { scheduleReconnect(now: now) }
            return
        }
        active = nil
        peerAppState = nil
        failPendingMessages(WCError(.notReachable, "the link to the \(config.role.peer) went down"), connection: id)
        awaitingReply = awaitingReply.filter { $0.value != id }
        resetIncomingFileProgress()
        actions.append(.deliver(.linkDidChange(up: false)))
        updateReachability()
        scheduleReconnect(now: now)
    }

    /// Refuses a connection: tells the peer why (when it is still talking), logs, closes.
    mutating func refuse(_ id: ConnectionID, _ reason: String, tellPeer: Bool = true) {
        if tellPeer {
            var w = ByteWriter(); w.writeString(reason)
            send(id, Frame(.reject, w.bytes))
        }
        handshakes[id] = nil
        stats.connectionsRejected += 1
        emitLog(.warning, "rejected connection \(id): \(reason)")
        actions.append(.close(id, reason: reason))
    }

    /// The frame decoder of a connection failed: log and close it; the session goes on.
    public mutating func onMalformedInput(_ id: ConnectionID, reason: String, now: EpochMs) {
        stats.connectionsRejected += 1
        emitLog(.warning, "rejected connection \(id): malformed input: \(reason)")
        actions.append(.close(id, reason: "malformed input: \(reason)"))
    }

    // MARK: - Handshake frames

    mutating func onHandshakeFrame(_ id: ConnectionID, _ frame: Frame, now: EpochMs) {
        guard var h = handshakes[id] else { return }
        var r = ByteReader(frame.body)
        do {
            switch (h.phase, frame.kind) {
            case (.awaitingHello, .hello):
                let role = try r.readByte()
                let nonce = Array(try r.readBytes(Self.nonceBytes))
                guard r.isAtEnd else { return refuse(id, "malformed hello") }
                guard let secret = config.pairingSecret else { return refuse(id, "this \(config.role) is not paired") }
                guard role == roleByte(config.role.peer) else { return refuse(id, "peer claims role \(role), expected the \(config.role.peer)") }
                h.peerNonce = nonce
                h.phase = .awaitingAuth
                handshakes[id] = h
                var w = ByteWriter(capacity: 52)
                w.writeByte(roleByte(config.role)); w.writeBytes(h.myNonce)
                w.writeBytes(HMACSHA256.mac(key: secret, message: Self.listenerLabel + nonce + h.myNonce))
                send(id, Frame(.helloReply, w.bytes))

            case (.awaitingHelloReply, .helloReply):
                let role = try r.readByte()
                let nonce = Array(try r.readBytes(Self.nonceBytes))
                let mac = Array(try r.readBytes(32))
                guard r.isAtEnd else { return refuse(id, "malformed helloReply") }
                guard let secret = config.pairingSecret else { return refuse(id, "this \(config.role) is not paired") }
                guard role == roleByte(config.role.peer) else { return refuse(id, "peer claims role \(role), expected the \(config.role.peer)") }
                let expected = HMACSHA256.mac(key: secret, message: Self.listenerLabel + h.myNonce + nonce)
                guard HMACSHA256.equal(mac, expected) else { return refuse(id, "pairing proof failed: the peer does not hold our pairing secret") }
                h.peerNonce = nonce
                h.phase = .awaitingReady
                handshakes[id] = h
                var w = ByteWriter(capacity: 64)
                w.writeBytes(HMACSHA256.mac(key: secret, message: Self.connectorLabel + nonce + h.myNonce))
                mySessionInfo().encode(into: &w)
                send(id, Frame(.auth, w.bytes))

            case (.awaitingAuth, .auth):
                let mac = Array(try r.readBytes(32))
                let info = try SessionInfo.decode(&r)
                guard r.isAtEnd else { return refuse(id, "malformed auth") }
                guard let secret = config.pairingSecret else { return refuse(id, "this \(config.role) is not paired") }
                let expected = HMACSHA256.mac(key: secret, message: Self.connectorLabel + h.myNonce + h.peerNonce)
                guard HMACSHA256.equal(mac, expected) else { return refuse(id, "pairing proof failed: wrong pairing secret") }
                var w = ByteWriter(capacity: 32)
                mySessionInfo().encode(into: &w)
                send(id, Frame(.ready, w.bytes))
                becomeUp(id, peer: info, now: now)

            case (.awaitingReady, .ready):
                let info = try SessionInfo.decode(&r)
                guard r.isAtEnd else { return refuse(id, "malformed ready") }
                becomeUp(id, peer: info, now: now)

            case (_, .reject):
                let reason = (try? r.readString()) ?? "no reason"
                handshakes[id] = nil
                emitLog(.warning, "peer refused connection \(id): \(reason)")
                actions.append(.close(id, reason: "refused by peer: \(reason)"))

            default:
                refuse(id, "frame \(frame.kind) out of protocol order during the handshake")
            }
        } catch {
            refuse(id, "malformed \(frame.kind): \(error)")
        }
    }

    func mySessionInfo() -> SessionInfo {
        SessionInfo(incarnation: persistent.incarnation, knownPeerIncarnation: persistent.peerIncarnation,
                    lastDelivered: persistent.lastDeliveredFromPeer, lastComplicationDelivered: persistent.lastComplicationDeliveredFromPeer,
                    contextVersionReceived: persistent.receivedContextVersion, lastFileDelivered: persistent.lastFileDelivered,
                    appState: localAppState)
    }

    /// The handshake succeeded on `id`: it becomes the active connection.
    mutating func becomeUp(_ id: ConnectionID, peer info: SessionInfo, now: EpochMs) {
        handshakes[id] = nil
        if let old = active {
            actions.append(.close(old.id, reason: "replaced by a newer authenticated connection"))
            onConnectionClosed(old.id, now: now)
        }
        reconnectAttempt = 0
        nextConnectAtMs = nil
        active = ActiveConnection(id: id, peerIncarnation: info.incarnation, now: now)
        // Refusals guard against late frames of the connection they were made on; a new one
        // carries none of those, and the peer never sends a cancelled transfer again (unless
        // its store lost the cancel, or it is a new store: then delivering is right).
        refusedUserInfo = [[], []]
        if !persistent.peerEverSeen {
            persistent.peerEverSeen = true
            metaDirty = true
            if config.role == .phone { actions.append(.deliver(.watchStateDidChange)) }
        }
        let knowsUs = info.knownPeerIncarnation == persistent.incarnation
        // The peer holds a seq we never sent, a context version we never made, or a file we never
        // numbered: those came from a history our store has lost.
        let peerHolds = max(info.lastDelivered, info.lastComplicationDelivered)
        if knowsUs, peerHolds > persistent.highestSeqSent
            || info.contextVersionReceived > persistent.contextVersion || info.lastFileDelivered > persistent.highestFileSent
        {
            recoverFromOwnRollback(peer: info)
        }
        if info.incarnation == persistent.peerIncarnation, (knowsUs ? info.lastDelivered : 0) < persistent.peerAckedThrough {
            // Same peer store, yet it holds less of our stream than it acknowledged: its store
            // went back in time (a lost write-ahead-log tail). Say so: the replica resends.
            emitLog(.warning, "the \(config.role.peer) lost data it had acknowledged (delivered \(knowsUs ? info.lastDelivered : 0) < acknowledged \(persistent.peerAckedThrough)): resending everything")
            persistent.peerAckedThrough = knowsUs ? info.lastDelivered : 0
            metaDirty = true
            actions.append(.deliver(.peerLostData))
        }
        if info.incarnation != persistent.peerIncarnation {
            // A new peer store: its streams start again; our receive logs for it are empty.
            if persistent.peerIncarnation != 0 { emitLog(.info, "peer store incarnation changed: its transfers are counted anew") }
            persistent.peerIncarnation = info.incarnation
            persistent.lastDeliveredFromPeer = 0
            persistent.lastComplicationDeliveredFromPeer = 0
            persistent.receivedContextVersion = 0
            persistent.lastFileDelivered = 0
            dropIncomingFile()
            metaDirty = true
        }
        emitLog(.info, "link up on connection \(id) with the \(config.role.peer)")
        actions.append(.deliver(.linkDidChange(up: true)))
        onPeerAppState(info.appState)
        // What the peer holds of ours (only meaningful if it counted this incarnation).
        onPeerDelivered(stream: .ordinary, through: knowsUs ? info.lastDelivered : 0)
        onPeerDelivered(stream: .complication, through: knowsUs ? info.lastComplicationDelivered : 0)
        dropCancelledUserInfo()
        let contextHeld = knowsUs ? info.contextVersionReceived : 0
        if contextHeld != persistent.contextAckedVersion {
            persistent.contextAckedVersion = contextHeld
            metaDirty = true
        }
        if knowsUs { finishFilesDelivered(through: info.lastFileDelivered) }
        dropCancelledFiles()
        sendOutbox(now: now)
        sendContextIfNeeded()
        pumpFiles(now: now)
    }
}
