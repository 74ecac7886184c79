
/// The commands every node answers, whatever its role.
extension NodeEngine {
    /// `status`, `digest`, `records COLLECTION`, `query PATH…` and the connectivity commands
    /// (`NodeEngine+Connectivity.swift`: `link`, `outbox`, `message send`…); nil for others.
    func engineCommand(_ c: NodeCommand) -> CommandReply? {
        guard let verb = c.words.first else { return .error(L10n.nodeEmptyCommand(ctx.language)) }
        if let reply = connectivityCommand(c) { return reply }
        switch verb {
        case "status":
            let v = statusValue()
            return .ok(v, text: v.jsonString())
        case "digest":
            let d = ctx.replica.cachedDigestHex()
            return .ok(.string(d), text: d)
        case "records":
            guard c.words.count == 2 else { return .error(L10n.usage("records COLLECTION")(ctx.language)) }
            let recs = ctx.replica.records(in: c.words[1])
            let v = PlistValue.array(recs.map { ["id": .string($0.id), "fields": .dictionary($0.fields)] })
            return .ok(v, text: recs.map { "\($0.id) \(PlistValue.dictionary($0.fields).jsonString())" }.joined(separator: "\n"))
        case "wc":
            return wcSituationCommand(c)
        case "query":
            return queryReply(c)
        default:
            return nil
        }
    }

    /// `query PATH…`: the engine's value at `PATH` (`engineQuery`), else the app's. It only
    /// reads, so it is also answered read-only (`readOnlyCommand`).
    func queryReply(_ c: NodeCommand) -> CommandReply {
        let path = Array(c.words.dropFirst())
        guard let v = engineQuery(path) ?? Self.query(app: &app, ctx: &ctx, path) else {
            return .error(L10n.nodeNoValue(path.joined(separator: " "))(ctx.language))
        }
        return .ok(v, text: v.jsonString())
    }

    /// Values every node can answer: `digest`, `count COLLECTION`, `graves` (collected deletes
    /// kept, ReplicaState+Graves.swift), `grave COLLECTION ID` (one of them), `link.*`.
    func engineQuery(_ path: [String]) -> PlistValue? {
        switch path.first {
        case "digest": return .string(ctx.replica.digestHex())
        case "sync-state" where path.count >= 2 && path[1] == "incomingFile":
            var v = incomingFileValue()
            for key in path.dropFirst(2) { v = v?[key] }
            return v
        case "sync-state":
            var v: PlistValue? = syncStateValue()
            for key in path.dropFirst() { v = v?[key] }
            return v
        case "record" where path.count == 3: return recordValue(path[1], path[2])
        case "file" where path.count == 2: return files.size(path[1]).map { .int($0) }
        case "count":
            guard path.count == 2 else { return nil }
            return .int(Int64(ctx.replica.count(in: path[1])))
        case "graves" where path.count == 1:
            return .int(Int64(ctx.replica.graveCount))
        case "grave" where path.count == 3:
            // One collected delete: the stamp `[wallMs, counter, replica]` it is kept with.
            return ctx.replica.graves[RecordKey(path[1], path[2])].map { [.int($0.wallMs), .int(Int64($0.counter)), .int(Int64($0.replica))] }
        case "link":
            // `link` and `link FIELD`; longer paths belong to the app.
            switch path.count {
            case 1: return linkValue()
            case 2: return linkValue()[path[1]]
            default: return nil
            }
        default: return nil
        }
    }

    func linkValue() -> PlistValue {
        let s = ctx.session
        return [
            "activationState": .string(s.activationState.rawValue),
            "connected": .bool(s.isConnected), "reachable": .bool(s.isReachable), "paired": .bool(s.isPaired),
            "watchAppInstalled": .bool(s.isWatchAppInstalled), "complicationEnabled": .bool(s.isComplicationEnabled),
            "outstandingUserInfo": .int(Int64(s.outstandingUserInfoCount)),
            "framesSent": .int(Int64(s.stats.framesSent)), "framesReceived": .int(Int64(s.stats.framesReceived)),
            "userInfoDelivered": .int(Int64(s.stats.userInfoDelivered)),
            "duplicatesDropped": .int(Int64(s.stats.userInfoDuplicatesDropped)),
            "retransmits": .int(Int64(s.stats.retransmits)), "connectionsRejected": .int(Int64(s.stats.connectionsRejected)),
            "refusedByPeer": .int(Int64(s.stats.refusedByPeer)), "tamperingDetected": .int(Int64(s.stats.tamperingDetected)),
        ]
    }

    /// What the conductor needs to decide quiescence.
    func statusValue() -> PlistValue {
        let s = ctx.session
        var v: [String: PlistValue] = [
            "role": .string(ctx.role.rawValue), "now": .int(ctx.now),
            "connected": .bool(s.isConnected), "reachable": .bool(s.isReachable),
            "framesSent": .int(Int64(s.stats.framesSent)), "framesReceived": .int(Int64(s.stats.framesReceived)),
            "bytesIn": .int(Int64(bytesIn)), "bytesOut": .int(Int64(bytesOut)),
            "outstandingUserInfo": .int(Int64(s.outstandingUserInfoCount)),
            "syncInFlight": .bool(ctx.sync.persistent.inFlightUpTo != nil),
            "seq": .int(Int64(ctx.replica.seq)),
        ]
        if let d = nextDeadline { v["nextDeadline"] = .int(d) }
        if let d = nextWorkDeadline { v["nextWorkDeadline"] = .int(d) }
        if let c = s.activeFrameCounts {
            v["linkFramesSent"] = .int(Int64(c.sent))
            v["linkFramesReceived"] = .int(Int64(c.received))
        }
        v["handshaking"] = .int(Int64(s.handshakesInProgress))
        // The connection the conductor's proxy carries: the authenticated one, else the newest
        // still open (a handshake in progress); a stranger's connection is neither for long.
        let tracked = s.activeConnectionID ?? connectionFrames.keys.max()
        if let id = tracked, let c = connectionFrames[id] {
            v["connFramesSent"] = .int(Int64(c.sent))
            v["connFramesReceived"] = .int(Int64(c.received))
        }
        v["monoNow"] = .int(monoNow)
        return .dictionary(v)
    }
}
