/// The engine's entry points: what the shell calls when something happens (a connection, bytes,
/// a close, time, a command). Each ends with `finish` (NodeEngine+Commit.swift).
extension NodeEngine {
    /// A transport connection opened. `ephemeralKey`: 32 random bytes from the shell (its
    /// secure generator; the simulator's seeded one), this side's Noise ephemeral private key.
    /// `id` MUST be greater than the id of every connection opened before it: a handshake that
    /// ends on a connection older than the link's is closed, not taken.
    public func connectionOpened(_ id: ConnectionID, isInitiator: Bool, ephemeralKey: [UInt8], now: EpochMs) {
        setNow(now)
        wires[id] = WireBox()
        ctx.session.onConnectionOpened(id, isInitiator: isInitiator, ephemeralKey: ephemeralKey, now: now)
        finish()
    }

    /// Bytes arrived on a connection. Each record is opened before anything of it reaches
    /// the session: one that fails closes the connection, and nothing of its frame is used.
    public func received(_ id: ConnectionID, _ bytes: ArraySlice<UInt8>, now: EpochMs) {
        setNow(now)
        bytesIn += bytes.count
        ctx.session.onBytesReceived(id, now: now)
        guard let box = wires[id], readSession({ $0.isConnectionOpen(id) }) else { return }  // refused or replaced: its bytes are ignored
        box.wire.feed(bytes, now: now)
        while true {
            do {
                guard let frame = try box.wire.nextFrame(limits: readSession { $0.recordLimits(for: id) }, now: now) else { break }
                ctx.session.onFrame(id, frame, now: now)
                pump()
            } catch {
                ctx.session.onMalformedInput(id, reason: error.description, now: now)
                break
            }
        }
        if wires[id] === box {
            let progress = box.wire.frameProgress()
            ctx.session.onFrameProgress(id, startedMs: progress.startedMs, bytesExpected: progress.bytesExpected,
                                        bufferedBytes: progress.bufferedBytes, now: now)
        }
        ctx.session.endOfInput(now: now)
        finish()
    }

    /// The connection closed (peer, error, or our own `.close`).
    public func connectionClosed(_ id: ConnectionID, now: EpochMs) {
        setNow(now)
        if let box = wires.removeValue(forKey: id) {
            do { try box.wire.decoder.finish() } catch {
                if case .truncated = error { ctx.session.onConnectionTruncated(id, reason: error.description, now: now) }
            }
        }
        ctx.session.onConnectionClosed(id, now: now)
        finish()
    }

    /// The shell started a connection attempt (the watch's).
    public func connectStarted(now: EpochMs) {
        setNow(now)
        ctx.session.onConnectAttemptStarted()
    }

    /// A connection attempt (the watch's) failed.
    public func connectFailed(now: EpochMs) {
        setNow(now)
        ctx.session.onConnectAttemptFailed(now: now)
        finish()
    }

    func setNow(_ mono: EpochMs) {
        monoNow = mono
        ctx.now = mono + wallOffsetMs
        ctx.session.onClock(now: mono)
    }

    /// Changes the wall clock's offset from the monotonic clock (a clock fault).
    public func setWallOffset(_ offsetMs: Int64, now: EpochMs) {
        wallOffsetMs = offsetMs
        setNow(now)
        app.onTick(&ctx)
        finish()
    }

    /// Time passed: fires the session's and the app's due timers.
    /// - Parameter idleLink: the time passed over a healthy idle link (the scenario runner's
    ///   fast-forward): heartbeats are taken as exchanged (`LinkSession.onIdleLinkTime`).
    public func tick(now: EpochMs, idleLink: Bool = false) {
        setNow(now)
        if idleLink { ctx.session.onIdleLinkTime(now: now) }
        ctx.session.onTick(now: now)
        pump()
        app.onTick(&ctx)
        finish()
    }
    /// Changes the device's time zone (travel) and lets the app recompute.
    public func setCalendar(_ calendar: LocalCalendar, now: EpochMs) {
        setNow(now)
        ctx.calendar = calendar
        app.onTick(&ctx)
        finish()
    }

    /// Runs a command: the engine's own (`status`, `digest`, `link`…) or the app's.
    /// - Parameter readOnlyAsked: the caller asked `readOnlyCommand` first, at this time, and it
    ///   declined (as node processes and the simulator do with every line): the app's table is
    ///   not asked for a read-only answer a second time.
    public func command(_ command: NodeCommand, now: EpochMs, readOnlyAsked: Bool = false) -> CommandReply {
        setNow(now)
        var reply = engineCommand(command) ?? (readOnlyAsked ? nil : Self.readOnlyReply(app: &app, ctx: &ctx, command))
            ?? app.onCommand(command, &ctx)
        if let r = performAppEffectsForReply() { reply = r }
        finish()
        return reply
    }

    /// Runs `body` on the context as the app would (link API calls, writes) at `now`, then
    /// commits and releases frames like any entry point. For tests and the simulator.
    public func withContext<R>(now: EpochMs, _ body: (inout NodeContext) -> R) -> R {
        setNow(now)
        let r = body(&ctx)
        finish()
        return r
    }
}
