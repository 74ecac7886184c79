
/// A connection's wire, held by reference in the engine's table.
final class WireBox {
    var wire = ConnectionWire()
}

/// What the engine asks its transport shell to do.
public enum NodeOutput: Sendable, Equatable {
    /// Write these bytes to the connection: one frame's records. The summary says what the
    /// frame was (for the simulator's timeline; the bytes are sealed), when the engine was
    /// asked for summaries (`summarizesFrames`).
    case send(ConnectionID, [UInt8], FrameSummary?)
    /// Close the connection (after writing what is queued).
    case close(ConnectionID, reason: String)
    /// A log line for the node's log.
    case log(LogLevel, String)
    /// The store failed to commit: the node must stop (nothing uncommitted was acknowledged).
    case fatal(String)
}

/// How the engine's store was found at launch.
public enum StoreOpening: Sendable, Equatable {
    case existing
    /// Found corrupt: moved aside (to `quarantinedAs`) and started empty.
    case resetAfterCorruption(reason: String, quarantinedAs: String)
}

/// One node: the link session, the replicated state and its sync, and the app, over a store.
///
/// The engine is shared by both roles and both shells (TCP processes and the simulator). It
/// owns the ordering contract: at the end of every entry point it commits the event's batch
/// (the app's writes, the receive log, the replica rows) and only then releases the frames
/// the event produced. It does no socket I/O and reads no clock: `now` comes with each call.
public final class NodeEngine<App: NodeApp> {
    public internal(set) var app: App
    public internal(set) var ctx: NodeContext
    let store: KeyValueStore
    /// Each open connection's records: decoder, sealed channel, counts. Boxed, so that a
    /// record's work reaches the wire by reference (a wire in the table itself was found,
    /// checked for uniqueness and written back at every access).
    var wires: [ConnectionID: WireBox] = [:]
    /// True: every `.send` carries a `FrameSummary` (the simulator's timeline).
    public var summarizesFrames = false
    private var output: [NodeOutput] = []
    var heldSends: [NodeOutput] = []
    /// Where the link's metadata row is in the event's batch (see `persist`).
    var linkMetaWriteIndex: Int?
    /// The node's files: what `transferFile` reads, where received files land.
    public let files: any FileStorage
    /// Running SHA-256 of files being received, by path (see `NodeFiles.swift`).
    var fileHashes: [String: IncrementalHash] = [:]
    /// Hashes of files delivered each way, for the delivery records (see `NodeEngine+SyncState`).
    var deliveryHashes = DeliveryHashes()
    /// Set when a commit failed: the node must stop.
    public private(set) var failed: String?
    /// The node's wall clock minus its monotonic clock: what clock faults (bump, drift,
    /// freeze) change. Timers run on the monotonic clock; timestamps and calendars on the wall.
    public var wallOffsetMs: Int64 = 0
    /// The latest monotonic reading given to the engine.
    public private(set) var monoNow: EpochMs
    /// Records sent and received on each open connection (handshake included): the
    /// conductor compares these with its proxy's counts.
    public var connectionFrames: [ConnectionID: (sent: Int, received: Int)] {
        wires.mapValues { ($0.wire.recordsSent, $0.wire.recordsReceived) }
    }
    /// Bytes received and sent over all connections.
    public private(set) var bytesIn = 0
    public private(set) var bytesOut = 0
    /// Lines for the person at the prompt not yet taken by the shell (`drainNotices`), oldest
    /// first, at most `maxNotices` (a shell that never takes them loses the oldest).
    var notices: [String] = []

    /// Opens the node over `store`. Throws `StoreCorruption` when the store does not load:
    /// the shell then quarantines it and calls again with an empty store and `opening`
    /// `.resetAfterCorruption`.
    public init(app: App, role: DeviceRole, store: KeyValueStore, config: LinkConfig, calendar: LocalCalendar,
                language: AppLanguage, now: EpochMs, seed: UInt64, newIncarnation: UInt64, opening: StoreOpening = .existing,
                files: any FileStorage = MemoryFileStorage()) throws {
        self.app = app
        self.store = store
        self.files = files
        self.monoNow = now
        let (replica, syncState) = try ReplicaPersistence.load(from: store, replica: role.replicaID, schema: App.replicaSchema)
        let linkState = try LinkPersistence.load(from: store, newIncarnation: newIncarnation)
        var local: [String: PlistValue] = [:]
        do {
            for row in try store.scan(NodeContext.localTable) {
                local[String(decoding: row.key, as: UTF8.self)] = try CanonicalEncoding.decode(row.value)
            }
        } catch let e as ByteReaderError {
            throw StoreCorruption(reason: "app state row does not decode: \(e)")
        }
        let handTransfers = Set(try store.scan(NodeContext.handTable).map { String(decoding: $0.key, as: UTF8.self) })
        var sync = ReplicaSync(replica: role.replicaID, peer: role.peer.replicaID,
                               persistent: syncState ?? ReplicaSync.Persistent(incarnation: newIncarnation))
        if syncState == nil { sync.storeWasReset(newIncarnation: newIncarnation) }
        ctx = NodeContext(role: role, now: now, calendar: calendar, language: language,
                          session: LinkSession(config: config, persistent: linkState, seed: seed),
                          replica: replica, sync: sync)
        ctx.local = LocalValues(local)
        ctx.handTransfers = handTransfers
        ctx.files = files
        if case .resetAfterCorruption(let reason, let moved) = opening {
            // The seed's requirement 5.2: reset to the initial state and record an error log.
            ctx.log(.error, "store corrupt (\(reason)); moved to \(moved); started from the initial state; the peer will resend its data")
            ctx.launchedAfterStoreReset = true
        }
        if linkState.incarnation == newIncarnation {
            // A new link store: its identity is written with the launch, so a node killed
            // before it first connects comes back as the same store, not as another one.
            ctx.session.metaDirty = true
        }
        ctx.session.onClock(now: now)
        removeAbandonedPartialFiles()
        ctx.session.activate()
        self.app.onLaunch(&ctx)
        ctx.launchedAfterStoreReset = false
        finish()
    }

    // MARK: - Entry points

    /// Takes the outputs produced so far, in order.
    public func drainOutput() -> [NodeOutput] {
        defer { output = [] }
        return output
    }

    /// A transport connection opened. `ephemeralKey`: 32 random bytes from the shell (its
    /// secure generator; the simulator's seeded one), this side's Noise ephemeral private key.
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
            ctx.session.onFrameProgress(id, startedMs: box.wire.frameStartedMs, bytesExpected: box.wire.frameBytesExpected,
                                        bufferedBytes: box.wire.decoder.bufferedByteCount + (box.wire.channel?.partialFrameBytes ?? 0), now: now)
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

    private func setNow(_ mono: EpochMs) {
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

    /// The earliest time `tick` has work other than keeping an idle link alive.
    public var nextWorkDeadline: EpochMs? { deadlines.work }

    /// The earliest time `tick` has work (session timers, reconnect, app timers).
    public var nextDeadline: EpochMs? { Self.nextDeadline(app: &app, ctx: &ctx, wallOffsetMs: wallOffsetMs) }

    /// `nextDeadline` and `nextWorkDeadline` at once (the app's deadline asked once); the
    /// simulator asks after every entry point.
    public var deadlines: (all: EpochMs?, work: EpochMs?) {
        Self.deadlines(app: &app, ctx: &ctx, wallOffsetMs: wallOffsetMs)
    }

    /// What the simulator's settle check reads after every step: connected, a handshake under
    /// way, user info awaiting acknowledgement or a replica delta in flight.
    public var linkStatus: (isConnected: Bool, isHandshaking: Bool, hasOutstanding: Bool) {
        Self.linkStatus(&ctx)
    }

    /// Runs `body` on the context in place, to read it: `inout` only so that nothing is copied
    /// (see below). `body` MUST NOT change the context; the simulator's checks use it after
    /// every entry point.
    public func readContext<R>(_ body: (inout NodeContext) -> R) -> R {
        body(&ctx)
    }

    // Read through `inout` only so that they are read in place: a class's stored struct
    // passed by value is copied first (every array and dictionary in it retained, then
    // released), which cost more than the reading itself. Neither changes anything.

    /// `deadlines.all` alone (the process shell asks twice per pass of its loop).
    private static func nextDeadline(app: inout App, ctx: inout NodeContext, wallOffsetMs: Int64) -> EpochMs? {
        let appDeadline = app.nextDeadline(ctx).map { $0 - wallOffsetMs }
        guard let session = ctx.session.nextDeadline() else { return appDeadline }
        return min(session, appDeadline ?? session)
    }

    private static func deadlines(app: inout App, ctx: inout NodeContext, wallOffsetMs: Int64) -> (all: EpochMs?, work: EpochMs?) {
        let appDeadline = app.nextDeadline(ctx).map { $0 - wallOffsetMs }
        func earliest(_ x: EpochMs?) -> EpochMs? {
            guard let x else { return appDeadline }
            return min(x, appDeadline ?? x)
        }
        return (earliest(ctx.session.nextDeadline()), earliest(ctx.session.nextDeadline(includingLiveness: false)))
    }

    private static func linkStatus(_ ctx: inout NodeContext) -> (isConnected: Bool, isHandshaking: Bool, hasOutstanding: Bool) {
        (ctx.session.isConnected, ctx.session.handshakesInProgress > 0,
         ctx.session.outstandingUserInfoCount > 0 || ctx.sync.persistent.inFlightUpTo != nil)
    }

    /// Changes the device's time zone (travel) and lets the app recompute.
    public func setCalendar(_ calendar: LocalCalendar, now: EpochMs) {
        setNow(now)
        ctx.calendar = calendar
        app.onTick(&ctx)
        finish()
    }

    /// Runs a command: the engine's own (`status`, `digest`, `link`…) or the app's.
    public func command(_ command: NodeCommand, now: EpochMs) -> CommandReply {
        setNow(now)
        let reply = engineCommand(command) ?? Self.readOnlyReply(app: &app, ctx: &ctx, command) ?? app.onCommand(command, &ctx)
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

    // MARK: - Internals

    /// Handles session actions until none are left (deliveries may cause more).
    func pump() {
        while true {
            let actions = ctx.session.drainActions()
            if actions.isEmpty { return }
            for action in actions {
                switch action {
                case .send(let id, let frame):
                    guard let box = wires[id] else { continue }  // closed meanwhile
                    heldSends.append(.send(id, box.wire.encode(frame), summarizesFrames ? FrameSummary(frame) : nil))
                case .startSealing(let id, let keys):
                    wires[id]?.wire.startSealing(keys, rekeyAfterBytes: ctx.session.config.rekeyAfterBytes)
                case .close(let id, let reason):
                    heldSends.append(.close(id, reason: reason))
                case .persist(let b):
                    persist(b)
                case .log(let level, let message):
                    ctx.log(level, message)
                case .deliver(let event):
                    deliver(event)
                case .sendFileChunk(let id, let number, let path, let offset, let count):
                    sendFileChunk(id, number: number, path: path, offset: offset, count: count)
                case .sendFileEnd(let id, let number, let path, let size):
                    sendFileEnd(id, number: number, path: path, sizeBytes: size)
                case .file(let op):
                    performFileOperation(op)
                }
            }
        }
    }

    /// Adds the session's writes to the event's batch. The link's metadata is one row the
    /// session writes again after every frame that changes it (hundreds of times in one batch
    /// when a read brings hundreds of user infos): the batch keeps one write of it, its latest
    /// value, where it was first written. No other write touches that row, so the batch
    /// leaves the same store behind.
    private func persist(_ b: WriteBatch) {
        if b.writes.count == 1, case .put(let table, _, _) = b.writes[0], table == LinkPersistence.meta {
            if let i = linkMetaWriteIndex {
                ctx.batch.writes[i] = b.writes[0]
                return
            }
            linkMetaWriteIndex = ctx.batch.writes.count
        }
        ctx.batch.append(b)
    }

    private func deliver(_ event: LinkEvent) {
        noteLinkError(of: event)
        if ctx.handleMessageOutcome(event) { return }
        recordDelivery(event)
        if takeHandEvent(event) { return }
        switch event {
        case .didReceiveUserInfo(let info, _):
            if case .data(let bytes)? = info[NodeContext.replicaSyncKey] {
                receiveDelta(bytes)
                return
            }
        case .didFinishUserInfoTransfer(let t, let error):
            if t.userInfo[NodeContext.replicaSyncKey] != nil {
                if error == nil { ctx.sync.onPartConfirmed() } else { ctx.sync.onPartFailed() }
                return
            }
        case .peerLostData:
            ctx.sync.peerLostData()
        case .selfLostData:
            ctx.sync.ownStoreWentBack()
        case .linkDidChange(up: false):
            // A delta in flight stays in the outbox and is delivered on reconnect.
            break
        case .linkDidChange(up: true):
            // The handshake may have dropped the incoming file of an earlier peer store.
            removeAbandonedPartialFiles()
        case .didReceiveFile:
            // The app's file moves happen before the inbox is cleaned after its callback.
            app.onLinkEvent(event, &ctx)
            pump()
            return
        default:
            break
        }
        app.onLinkEvent(event, &ctx)
    }

    private func receiveDelta(_ bytes: [UInt8]) {
        do {
            let delta = try ReplicaDeltaCodec.decode(bytes)
            var sync = ctx.sync
            let r = sync.receive(delta, into: &ctx.replica, wallMs: ctx.now)
            ctx.sync = sync
            ctx.log(.debug, "replica delta in: part \(delta.part + 1)/\(delta.partCount), \(delta.baseSeq)…\(delta.upToSeq) of store \(String(delta.incarnation, radix: 16).prefix(6)), \(delta.records.count) records, \(r.recordsChanged) changed\(delta.storeWasReset ? ", announces a reset" : "")")
            if r.peerWasReset { ctx.log(.info, "the peer's store was reset: resending everything it held") }
            if let why = r.ignored { ctx.log(.info, "replica delta not applied: \(why)") }
            if r.recordsChanged > 0 || r.tombstonesCollected > 0 { app.onReplicaMerged(&ctx) }
        } catch {
            ctx.log(.error, "dropped a replica delta that does not decode: \(error)")
        }
    }

    /// Queues the next replica delta when one is due and the link is up.
    private func syncIfDue() {
        guard ctx.session.isConnected, let parts = Self.makeDelta(&ctx) else { return }
        if let first = parts.first {
            ctx.log(.debug, "replica delta out: \(first.baseSeq)…\(first.upToSeq), \(parts.reduce(0) { $0 + $1.records.count }) records in \(parts.count) parts, to store \(String(first.ackIncarnation, radix: 16).prefix(6))\(first.storeWasReset ? ", announces a reset" : "")")
        }
        for part in parts {
            let info: PlistValue = [NodeContext.replicaSyncKey: .data(ReplicaDeltaCodec.encode(part))]
            if case .failure(let e) = ctx.session.transferUserInfo(info, now: monoNow) {
                ctx.log(.error, "replica delta not queued: \(e)")
                ctx.sync.onPartFailed()
                return
            }
        }
    }

    /// The sync's next delta from the replica, both read in place: through the engine's
    /// property, the replica was copied to be read while the sync changed (after every event).
    private static func makeDelta(_ ctx: inout NodeContext) -> [ReplicaDelta]? {
        ctx.sync.makeDelta(from: ctx.replica)
    }

    /// Ends an entry point: syncs, commits, then releases frames and logs.
    private func finish() {
        pump()
        syncIfDue()
        pump()
        // Graves past their bound (90 days, 10,000) go, whether or not the peer sent anything.
        ctx.replica.pruneGraves(wallMs: ctx.now)
        var batch = ctx.batch
        ctx.batch = WriteBatch()
        linkMetaWriteIndex = nil
        let syncState = ctx.sync.persistent
        ReplicaPersistence.persistChanges(of: &ctx.replica, sync: syncState, into: &batch)
        if failed == nil, !batch.isEmpty {
            do {
                try store.commit(batch)
            } catch {
                failed = "store commit failed: \(error)"
                output.append(.fatal(failed!))
                heldSends = []
            }
        }
        for (level, message) in ctx.logs { output.append(.log(level, message)) }
        ctx.logs = []
        keepNotices()
        if failed == nil {
            for s in heldSends {
                if case .send(_, let bytes, _) = s { bytesOut += bytes.count }
                output.append(s)
            }
        }
        heldSends = []
    }
}
