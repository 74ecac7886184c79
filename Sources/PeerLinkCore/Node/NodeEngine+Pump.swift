/// The engine's handling of what the session produces: frames held for the commit, writes
/// added to the event's batch, deliveries to the sync layer and the app.
extension NodeEngine {
    /// Handles session actions until none are left (deliveries may cause more).
    ///
    /// The actions are taken into the engine's spare array, handed back at the end, so that
    /// the session's buffer and this one trade storage instead of allocating at every event.
    /// A pump inside a pump (a received file) finds the spare taken and starts empty.
    func pump() {
        var actions = Array.borrow(&spareActions)
        defer { actions.giveBack(to: &spareActions) }
        while true {
            performAppEffects()
            ctx.session.drainActions(into: &actions)
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
    func persist(_ b: WriteBatch) {
        if b.writes.count == 1, case .put(let table, _, _) = b.writes[0], table == LinkPersistence.meta {
            if let i = linkMetaWriteIndex {
                ctx.batch.writes[i] = b.writes[0]
                return
            }
            linkMetaWriteIndex = ctx.batch.writes.count
        }
        ctx.batch.append(b)
    }

    func deliver(_ event: LinkEvent) {
        noteLinkError(of: event)
        if takeHandMessageOutcome(event) { return }
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
            moveClockPastFloor()
        case .linkDidChange(up: false):
            // A delta in flight stays in the outbox and is delivered on reconnect.
            break
        case .linkDidChange(up: true):
            // The handshake may have dropped the incoming file of an earlier peer store.
            removeAbandonedPartialFiles()
        case .didReceiveFile(let f):
            // The app's file moves happen before the inbox is cleaned after its callback.
            app.onLinkEvent(.didReceiveFile(withContents(f)), &ctx)
            pump()
            return
        default:
            break
        }
        app.onLinkEvent(event, &ctx)
        performAppEffects()
    }

    /// Our store went back in time: the stamps its lost history issued stay unique, as the
    /// clock moves past its floor (`ClockFloor`).
    func moveClockPastFloor() {
        ctx.replica.loadClock(clockFloor.restartStamp)
    }

    func receiveDelta(_ bytes: [UInt8]) {
        do {
            let delta = try ReplicaDeltaCodec.decode(bytes)
            var sync = ctx.sync
            let incarnation = sync.persistent.incarnation
            let r = sync.receive(delta, into: &ctx.replica, wallMs: ctx.now)
            ctx.sync = sync
            // The delta showed our store went back (a new incarnation of ours), as the
            // handshake's `selfLostData` does.
            if sync.persistent.incarnation != incarnation { moveClockPastFloor() }
            ctx.log(.debug, "replica delta in: part \(delta.part + 1)/\(delta.partCount), \(delta.baseSeq)…\(delta.upToSeq) of store \(String(delta.incarnation, radix: 16).prefix(6)), \(delta.records.count) records, \(r.recordsChanged) changed\(delta.storeWasReset ? ", announces a reset" : "")")
            if r.peerWasReset { ctx.log(.info, "the peer's store was reset: resending everything it held") }
            if let why = r.ignored { ctx.log(.info, "replica delta not applied: \(why)") }
            if r.recordsChanged > 0 || r.tombstonesCollected > 0 {
                app.onReplicaMerged(&ctx)
                performAppEffects()
            }
        } catch {
            ctx.log(.error, "dropped a replica delta that does not decode: \(error)")
        }
    }
}
