/// The end of every entry point: the replica's next delta, then the commit of the event's
/// batch, and only then the frames and log lines the event produced (persist before send).
extension NodeEngine {
    /// Queues the next replica delta when one is due and the link is up.
    func syncIfDue() {
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
    static func makeDelta(_ ctx: inout NodeContext) -> [ReplicaDelta]? {
        ctx.sync.makeDelta(from: ctx.replica)
    }

    /// Ends an entry point: syncs, commits, then releases frames and logs.
    func finish() {
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
        // The clock's floor moves ahead before a commit holds a stamp at or past it.
        if !clockFloor.renew(clock: ctx.replica.clock.last, files: files) {
            output.append(.log(.warning, "the hybrid clock's floor could not be written (\(ClockFloor.path)): a store lost later may reissue stamps"))
        }
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
        heldSends.clearKeepingCapacity()
    }
}
