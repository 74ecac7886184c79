
/// Everything both sides must agree on once they have converged, as one value
/// (`query sync-state`): the scenario runner compares the phone's with the watch's in both
/// modes (docs/SCENARIOS.md, *Convergence*).
/// Hashes the engine knows without reading a file again: the sender's running hash of each
/// file it sent (`fileEnd`), the receiver's hash of each file it verified (by path). (Not
/// nested in the generic engine, whose nested types are generic too.)
struct DeliveryHashes {
    var sent: [UInt64: [UInt8]] = [:]
    var verified: [String: [UInt8]] = [:]
}

extension NodeEngine {
    /// `query sync-state`: the replica digest, both application contexts with their versions,
    /// the complication's current payload, the files delivered each way, and what is still
    /// outstanding.
    func syncStateValue() -> PlistValue {
        let s = ctx.session
        let p = s.persistent
        var v: [String: PlistValue] = [
            "digest": .string(ctx.replica.cachedDigestHex()),
            "incarnation": .string(String(p.incarnation, radix: 16)),
            "peerIncarnation": .string(String(p.peerIncarnation, radix: 16)),
        ]
        if let c = p.applicationContext {
            v["contextSent"] = ["version": .int(Int64(p.contextVersion)), "sha256": .string(hexString(SHA256.hash(CanonicalEncoding.encode(c))))]
        }
        if let c = p.receivedApplicationContext {
            v["contextReceived"] = ["version": .int(Int64(p.receivedContextVersion)),
                                    "sha256": .string(hexString(SHA256.hash(CanonicalEncoding.encode(c))))]
        }
        do {
            if let m = try DeliveryRecords.mark(store, sent: true) { v["complicationSent"] = m.value }
            if let m = try DeliveryRecords.mark(store, sent: false) { v["complicationReceived"] = m.value }
            v["filesSent"] = .array(try DeliveryRecords.files(store, .sent).map(\.value))
            v["filesReceived"] = .array(try DeliveryRecords.files(store, .received).map(\.value))
            let forgotten = try DeliveryRecords.forgotten(store)
            if !forgotten.isEmpty { v["filesForgotten"] = .array(forgotten.map(\.value)) }
        } catch {
            v["error"] = .string("delivery records unreadable: \(error)")
        }
        if let f = incomingFileValue() { v["incomingFile"] = f }
        if let a = app.convergenceState(ctx) { v["app"] = a }
        v["fileVerifyFailures"] = .int(Int64(s.stats.files.verifyFailures))
        v["contentPending"] = .bool(s.hasContentPending)
        // Delivered files still lying in the inbox (none once the app's callback returned).
        let inbox = ((try? DeliveryRecords.files(store, .received)) ?? []).filter { f in
            files.exists(LinkSession.inboxPath(peerIncarnation: f.peerIncarnation, number: f.number, name: f.name))
        }
        v["inboxFiles"] = .int(Int64(inbox.count))
        v["outstanding"] = [
            "userInfo": .int(Int64(s.outstandingUserInfoCount)),
            "replicaDelta": .bool(ctx.sync.persistent.inFlightUpTo != nil),
            "files": .int(Int64(s.persistent.outgoingFiles.count)),
            "context": .bool(p.applicationContext != nil && p.contextVersion > p.contextAckedVersion),
            "messages": .int(Int64(s.pendingMessages.count)),
        ]
        return .dictionary(v)
    }

    /// The partial incoming file, read in place: its path in the node's files and the bytes
    /// committed (what `query sync-state incomingFile` answers, without its number and size,
    /// and without a command); nil when there is none. The sim-mode scenario runner reads it
    /// after every clock move while a `damage-partial-file` is armed.
    public var partialIncomingFile: (path: String, committedBytes: Int64)? {
        guard let f = ctx.session.persistent.incomingFile else { return nil }
        return (ctx.session.partPath(f.number), f.committedBytes)
    }

    /// `sync-state`'s `incomingFile`: the partial file being received, if any, answered
    /// without building the rest (the digest, the delivery records).
    func incomingFileValue() -> PlistValue? {
        guard let f = ctx.session.persistent.incomingFile else { return nil }
        return ["number": .int(Int64(f.number)), "path": .string(ctx.session.partPath(f.number)),
                "committedBytes": .int(f.committedBytes), "bytes": .int(f.sizeBytes)]
    }

    /// `query record COLLECTION ID`: one replicated record with the stamp of each field's
    /// winning write, or its delete (what a reference model compares with; no value when the
    /// record was never written here).
    func recordValue(_ collection: String, _ id: String) -> PlistValue? {
        guard let e = ctx.replica.entry(RecordKey(collection, id)) else { return nil }
        func stamp(_ s: HLCTimestamp) -> PlistValue { [.int(s.wallMs), .int(Int64(s.counter)), .int(Int64(s.replica))] }
        if let t = e.tombstone { return ["deleted": true, "stamp": stamp(t.stamp)] }
        return ["deleted": false, "fields": .dictionary(e.fields.mapValues(\.value)), "stamps": .dictionary(e.fields.mapValues { stamp($0.stamp) })]
    }

    // MARK: - Recording (inside the event that delivers, so it commits with it)

    /// Notes a delivery event in the delivery records, before the app sees it.
    func recordDelivery(_ event: LinkEvent) {
        switch event {
        case .didReceiveUserInfo(let info, isComplication: true):
            DeliveryRecords.complicationWrite(info, sent: false, atMs: monoNow, into: &ctx.batch)
        case .didFinishFileTransfer(let t, nil):
            let sha = deliveryHashes.sent.removeValue(forKey: t.number) ?? ((try? files.sha256(t.path)) ?? [])
            let name = t.path.split(separator: "/").last.map(String.init) ?? t.path
            recordFile(DeliveryRecords.File(peerIncarnation: ctx.session.persistent.peerIncarnation, number: t.number, name: name,
                                            sizeBytes: t.sizeBytes, sha256: sha, atMs: monoNow), .sent)
        case .didFinishFileTransfer(let t, _?):
            deliveryHashes.sent[t.number] = nil
        case .selfLostData:
            guard let r = ctx.session.filesForgotten else { return }
            DeliveryRecords.forgottenWrite(DeliveryRecords.ForgottenFiles(peerIncarnation: ctx.session.persistent.peerIncarnation,
                                                                          first: r.lowerBound, last: r.upperBound),
                                           store: store, into: &ctx.batch)
        case .didReceiveFile(let f):
            guard let (peer, number) = LinkSession.inboxOrigin(f.path) else { return }
            let sha = deliveryHashes.verified.removeValue(forKey: f.path) ?? ((try? files.sha256(f.path)) ?? [])
            recordFile(DeliveryRecords.File(peerIncarnation: peer, number: number, name: f.name, sizeBytes: f.sizeBytes,
                                            sha256: sha, atMs: monoNow), .received)
        default:
            break
        }
    }

    private func recordFile(_ f: DeliveryRecords.File, _ d: DeliveryRecords.Direction) {
        guard f.sha256.count == 32 else {
            ctx.log(.warning, "file \(f.number) (\(f.name)) could not be hashed for the delivery records")
            return
        }
        DeliveryRecords.pruneWrites(store, d, adding: 1, into: &ctx.batch)
        DeliveryRecords.fileWrite(f, d, into: &ctx.batch)
    }
}
