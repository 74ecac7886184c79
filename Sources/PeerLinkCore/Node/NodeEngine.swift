
/// One node: the link session, the replicated state and its sync, and the app, over a store.
///
/// The engine is shared by both roles and both shells (TCP processes and the simulator). It
/// owns the ordering contract: at the end of every entry point it commits the event's batch
/// (the app's writes, the receive log, the replica rows) and only then releases the frames
/// the event produced. It does no socket I/O and reads no clock: `now` comes with each call.
///
/// One thread owns an engine (the process loop's, or the simulator's), and no callback gets
/// a reference back to it (the app gets `&ctx`), so two accesses to a stored property never
/// overlap. Its variables are `@exclusivity(unchecked)`: Swift's run-time check of each
/// access to a class property cost 14 % of the instructions of a message round trip
/// (docs/BENCHMARKS.md). The compile-time checks stay.
public final class NodeEngine<App: NodeApp> {
    @exclusivity(unchecked) public internal(set) var app: App
    @exclusivity(unchecked) public internal(set) var ctx: NodeContext
    let store: KeyValueStore
    /// Each open connection's records: decoder, sealed channel, counts. Boxed, so that a
    /// record's work reaches the wire by reference (a wire in the table itself was found,
    /// checked for uniqueness and written back at every access).
    @exclusivity(unchecked) var wires = ConnectionMap<WireBox>()
    /// True: every `.send` carries a `FrameSummary` (the simulator's timeline).
    @exclusivity(unchecked) public var summarizesFrames = false
    @exclusivity(unchecked) var output: [NodeOutput] = []
    @exclusivity(unchecked) var heldSends: [NodeOutput] = []
    /// An empty array with room, lent to `pump` for the session's actions (see there).
    @exclusivity(unchecked) var spareActions: [LinkAction] = []
    /// Where the link's metadata row is in the event's batch (see `persist`).
    @exclusivity(unchecked) var linkMetaWriteIndex: Int?
    /// The hybrid clock's floor, kept in the node's files (`ClockFloor`).
    @exclusivity(unchecked) var clockFloor: ClockFloor
    /// The node's files: what `transferFile` reads, where received files land.
    public let files: any FileStorage
    /// Where the app's exports go (`AppEffect.export`); nil: the node has none.
    public let exports: (any ExportFolder)?
    /// Running SHA-256 of files being received, by path (see `NodeFiles.swift`).
    @exclusivity(unchecked) var fileHashes: [String: IncrementalHash] = [:]
    /// Hashes of files delivered each way, for the delivery records (see `NodeEngine+SyncState`).
    @exclusivity(unchecked) var deliveryHashes = DeliveryHashes()
    /// Set when a commit failed: the node must stop.
    @exclusivity(unchecked) public internal(set) var failed: String?
    /// The node's wall clock minus its monotonic clock: what clock faults (bump, drift,
    /// freeze) change. Timers run on the monotonic clock; timestamps and calendars on the wall.
    @exclusivity(unchecked) public var wallOffsetMs: Int64 = 0
    /// The latest monotonic reading given to the engine.
    @exclusivity(unchecked) public internal(set) var monoNow: EpochMs
    /// Records sent and received on each open connection (handshake included): the
    /// conductor compares these with its proxy's counts.
    public var connectionFrames: [ConnectionID: (sent: Int, received: Int)] {
        wires.mapValues { ($0.wire.recordsSent, $0.wire.recordsReceived) }
    }
    /// Bytes received and sent over all connections.
    @exclusivity(unchecked) public internal(set) var bytesIn = 0
    @exclusivity(unchecked) public internal(set) var bytesOut = 0
    /// Lines for the person at the prompt not yet taken by the shell (`drainNotices`), oldest
    /// first, at most `maxNotices` (a shell that never takes them loses the oldest).
    @exclusivity(unchecked) var notices: [String] = []
    /// Messages sent by hand at the prompt (`message send`), by id, with their label: their
    /// reply or failure is shown to the person, never handed to the app. Not durable: like
    /// the message itself they are gone with the process.
    @exclusivity(unchecked) var handMessages: [MessageID: (label: String, replyExpected: Bool)] = [:]

    /// Opens the node over `store`. Throws `StoreCorruption` when the store does not load:
    /// the shell then quarantines it and calls again with an empty store and `opening`
    /// `.resetAfterCorruption`.
    /// `wallOffsetMs`: the wall clock's offset from `now` (the monotonic clock) at launch, as
    /// `setWallOffset` sets it: a device whose clock is wrong is still wrong when the app starts.
    public init(app: App, role: DeviceRole, store: KeyValueStore, config: LinkConfig, calendar: LocalCalendar,
                language: AppLanguage, now: EpochMs, wallOffsetMs: Int64 = 0, seed: UInt64, newIncarnation: UInt64,
                opening: StoreOpening = .existing, files: any FileStorage = MemoryFileStorage(), exports: (any ExportFolder)? = nil) throws {
        self.app = app
        self.store = store
        self.files = files
        self.exports = exports
        self.monoNow = now
        self.wallOffsetMs = wallOffsetMs
        var (replica, syncState) = try ReplicaPersistence.load(from: store, replica: role.replicaID, schema: App.replicaSchema)
        clockFloor = ClockFloor.load(files)
        let clockRaised = clockFloor.storeMayHaveLostStamps(last: replica.clock.last, storeIsNew: syncState == nil, wallMs: now + wallOffsetMs)
        if clockRaised { replica.loadClock(clockFloor.restartStamp) }
        let linkState = try LinkPersistence.load(from: store, newIncarnation: newIncarnation)
        var local = LocalValues()
        do {
            for row in try store.scan(NodeContext.localTable) {
                // A key is written from a string: one that is not UTF-8 is damage, and repairing
                // it would make it another key than its row's.
                guard let key = String(validating: row.key, as: UTF8.self) else {
                    throw StoreCorruption(reason: "app state row key is not UTF-8")
                }
                local.set(key, try CanonicalEncoding.decode(row.value))
            }
        } catch let e as ByteReaderError {
            throw StoreCorruption(reason: "app state row does not decode: \(e)")
        }
        let handTransfers = Set(try store.scan(NodeContext.handTable).map { String(decoding: $0.key, as: UTF8.self) })
        var sync = ReplicaSync(replica: role.replicaID, peer: role.peer.replicaID,
                               persistent: syncState ?? ReplicaSync.Persistent(incarnation: newIncarnation))
        if syncState == nil {
            var lostData = false
            if case .resetAfterCorruption = opening { lostData = true }
            sync.storeWasReset(newIncarnation: newIncarnation, lostData: lostData)
        }
        ctx = NodeContext(role: role, now: now + wallOffsetMs, calendar: calendar, language: language,
                          session: LinkSession(config: config, persistent: linkState, seed: seed),
                          replica: replica, sync: sync)
        ctx.local = local
        ctx.handTransfers = handTransfers
        if case .resetAfterCorruption(let reason, let moved) = opening {
            // The seed's requirement 5.2: reset to the initial state and record an error log.
            ctx.log(.error, "store corrupt (\(reason)); moved to \(moved); started from the initial state; the peer will resend its data")
            ctx.launchedAfterStoreReset = true
        }
        if clockRaised {
            ctx.log(.info, "the hybrid clock starts past its floor, after every stamp a lost store may have issued")
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

    // MARK: - Output

    /// Takes the outputs produced so far, in order.
    public func drainOutput() -> [NodeOutput] {
        defer { output = [] }
        return output
    }

    /// Takes the outputs produced so far, in order, into `taken` (emptied first). The engine
    /// keeps `taken`'s storage for its next outputs: a shell that hands the same array back
    /// every time allocates none after the first events (`drainOutput()` left the engine an
    /// empty array, which its next output allocated again, and grew, at every event).
    public func drainOutput(into taken: inout [NodeOutput]) {
        taken.take(from: &output)
    }
}
