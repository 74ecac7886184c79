
/// The handshake's end: the connection becomes the active one, and each side learns from
/// the other's `SessionInfo` what it holds (and resends, finishes or forgets accordingly).
extension LinkSession {
    /// The handshake succeeded on `id`: it becomes the active connection.
    mutating func becomeUp(_ id: ConnectionID, peer info: SessionInfo, now: EpochMs) {
        connections[handshake: id] = nil
        if let old = connections.activeID {
            out.close(old, reason: "replaced by a newer authenticated connection")
            onConnectionClosed(old, now: now)
        }
        reconnect.attemptStarted()
        connections.activate(id, now: now)
        messages.linkUp()
        appContext.linkUp()
        files.send.linkChanged()
        // Refusals guard against late frames of the connection they were made on; a new one
        // carries none of those, and the peer never sends a cancelled transfer again (unless
        // its store lost the cancel, or it is a new store: then delivering is right).
        userInfoChannel.linkUp()
        if !persistent.peerEverSeen {
            persistent.peerEverSeen = true
            metaDirty = true
            if config.role == .phone { out.deliver(.watchStateDidChange) }
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
            out.deliver(.peerLostData)
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
        out.deliver(.linkDidChange(up: true))
        onPeerAppState(info.appState)
        // What the peer holds of ours (only meaningful if it counted this incarnation).
        onPeerDelivered(stream: .ordinary, through: knowsUs ? info.lastDelivered : 0)
        onPeerDelivered(stream: .complication, through: knowsUs ? info.lastComplicationDelivered : 0)
        dropCancelledUserInfo()
        let contextHeld = knowsUs ? info.contextVersionReceived : 0
        if appContext.peerHolds(contextHeld, state: &persistent.context) { metaDirty = true }
        if knowsUs { finishFilesDelivered(through: info.lastFileDelivered) }
        dropCancelledFiles()
        sendOutbox(now: now)
        sendContextIfNeeded()
        pumpFiles(now: now)
    }
}
