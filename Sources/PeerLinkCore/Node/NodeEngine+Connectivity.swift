
/// Every WatchConnectivity feature, driven by a person at the prompt through the same session
/// API the apps use (`NodeContext`): `message send`, `context set` / `context`, `userinfo send`
/// / `outbox` / `userinfo cancel`, `file send` / `files` / `file cancel`, `complication push
/// JSON` (phone) and `link`.
///
/// What comes later — a message's reply or failure, a transfer's `didFinish` — is shown to the
/// person as a notice (`NodeContext.notify`). Transfers sent by hand are remembered
/// (`handTransfers`, durable), so their outcomes go to the prompt and never to the app, which
/// cannot take them for its own. Messages sent by hand use the handler form, whose outcomes
/// never reach the app's delegate either.
extension NodeEngine {
    /// The longest `--timeout` a message takes.
    static var maxMessageTimeoutMs: Int64 { 10 * 60_000 }

    /// The connectivity commands; nil for other commands.
    func connectivityCommand(_ c: NodeCommand) -> CommandReply? {
        let w = c.words
        switch (w.first, w.dropFirst().first) {
        case ("message", "send"): return messageSend(c)
        case ("context", "set"): return contextSet(c)
        case ("context", nil): return contextShow()
        case ("userinfo", "send"): return userInfoSend(c)
        case ("userinfo", "cancel"): return userInfoCancel(w)
        case ("outbox", nil): return outboxShow()
        case ("file", "send"): return fileSend(w)
        case ("file", "cancel"): return fileCancel(w)
        case ("files", nil): return filesShow()
        case ("complication", "push") where w.count > 2: return complicationPush(c)
        case ("link", nil): return linkShow()
        default: return nil
        }
    }

    var language: AppLanguage { ctx.language }

    // MARK: - Messages

    /// `message send JSON [--no-reply] [--timeout DURATION]`.
    /// Takes the reply or failure of a message sent by hand (true: the app does not see it).
    func takeHandMessageOutcome(_ event: LinkEvent) -> Bool {
        if handMessages.isEmpty { return false }  // as a rule: no key to hash
        switch event {
        case .didReceiveMessageReply(let id, let payload):
            guard let m = handMessages.removeValue(forKey: id) else { return false }
            // (A message sent without a reply expected has no such event: only a failure.)
            if m.replyExpected { ctx.notify(L10n.nodeMessageReply(m.label, Self.payloadText(payload, ctx.language))(ctx.language)) }
        case .messageDidFail(let id, let error):
            guard let m = handMessages.removeValue(forKey: id) else { return false }
            ctx.notify(L10n.nodeMessageFailed(m.label, error.code)(ctx.language))
        default:
            return false
        }
        return true
    }

    func messageSend(_ c: NodeCommand) -> CommandReply {
        let usage = "message send JSON [--no-reply] [--timeout 5s]"
        let (body, options) = Self.splitTrailingOptions(Self.argument(of: c, after: 2), flags: ["--no-reply"], valued: ["--timeout"])
        var timeoutMs: Int64?
        if let word = options["--timeout"] {
            guard let ms = word.flatMap({ DurationWords.parseMs($0, maxMs: Self.maxMessageTimeoutMs) }) else {
                return .error(L10n.nodeBadDuration(word ?? "")(language))
            }
            timeoutMs = ms
        }
        let payload: PlistValue
        switch parsePayload(body, usage: usage) {
        case .failure(let refusal): return refusal.reply
        case .success(let p): payload = p
        }
        let noReply = options["--no-reply"] != nil
        let id = ctx.sendMessage(payload, replyExpected: !noReply, replyTimeoutMs: timeoutMs)
        let label = "m\(id)"
        handMessages[id] = (label, !noReply)
        // A message that cannot be sent (not reachable, too large…) fails at once: its
        // outcome comes here, and what it said is this command's answer.
        let noticesBefore = ctx.notices.count
        pump()
        if handMessages[id] == nil, ctx.notices.count > noticesBefore {
            return .error(ctx.notices.removeLast())
        }
        let timeout = timeoutMs ?? ctx.session.config.messageReplyTimeoutMs
        let value: PlistValue = ["id": .string(label), "replyExpected": .bool(!noReply), "timeoutMs": .int(timeout)]
        let text = noReply ? L10n.nodeMessageSentNoReply(label) : L10n.nodeMessageSent(label, timeoutMs: timeout)
        return .ok(value, text: text(language))
    }

    // MARK: - Application context

    /// `context set JSON`.
    func contextSet(_ c: NodeCommand) -> CommandReply {
        let payload: PlistValue
        switch parsePayload(Self.argument(of: c, after: 2), usage: "context set JSON") {
        case .failure(let refusal): return refusal.reply
        case .success(let p): payload = p
        }
        if case .failure(let e) = ctx.updateApplicationContext(payload) { return .error(L10n.nodeContextNotSet(e.code)(language)) }
        return .ok(["sent": payload], text: L10n.nodeContextSet(language))
    }

    /// `context`: the context this node set and the one it received.
    func contextShow() -> CommandReply {
        let sent = ctx.applicationContext, received = ctx.receivedApplicationContext
        func text(_ d: [String: PlistValue]) -> String { d.isEmpty ? L10n.noneText(language) : PlistValue.dictionary(d).jsonString() }
        return .ok(["sent": .dictionary(sent), "received": .dictionary(received)],
                   text: L10n.nodeContextShown(sent: text(sent), received: text(received))(language))
    }

    // MARK: - User info

    /// `userinfo send JSON`.
    func userInfoSend(_ c: NodeCommand) -> CommandReply {
        let payload: PlistValue
        switch parsePayload(Self.argument(of: c, after: 2), usage: "userinfo send JSON") {
        case .failure(let refusal): return refusal.reply
        case .success(let p): payload = p
        }
        switch ctx.transferUserInfo(payload) {
        case .failure(let e):
            return .error(L10n.nodeNotSent(L10n.nodeUserInfo, e.code)(language))
        case .success(let t):
            ctx.markHandTransfer(t.id)
            let bytes = CanonicalEncoding.encodedSize(payload)
            return .ok(["id": .string(t.id), "seq": .int(Int64(t.seq)), "bytes": .int(Int64(bytes))],
                       text: L10n.nodeUserInfoQueued(t.id, bytes: bytes)(language))
        }
    }

    /// `userinfo cancel SEQ` (or `u7`): `cancel()` of an outstanding transfer (the node's own
    /// sync deltas excepted).
    func userInfoCancel(_ w: [String]) -> CommandReply {
        guard w.count == 3 else { return .error(L10n.usage("userinfo cancel SEQ")(language)) }
        let id = w[2].hasPrefix("u") ? w[2] : "u\(w[2])"
        guard let t = ctx.session.outstandingUserInfoTransfers.first(where: { $0.id == id }) else {
            return .error(L10n.nodeNoSuchTransfer(L10n.nodeUserInfo, id)(language))
        }
        guard t.userInfo[NodeContext.replicaSyncKey] == nil, ctx.cancel(t) else { return .error(L10n.nodeSyncTransfer(id)(language)) }
        return .ok(["cancelled": .string(id)], text: L10n.nodeCancelled(L10n.nodeUserInfo, id)(language))
    }

    /// `outbox`: every outstanding user-info transfer in the order it is sent (complication
    /// user info first): id, seq, size, age, stream, who queued it.
    func outboxShow() -> CommandReply {
        let items = ctx.session.outstandingUserInfoTransfers
        var values: [PlistValue] = []
        var lines = [L10n.nodeOutboxHeading(items.count)(language)]
        for t in items {
            let bytes = CanonicalEncoding.encodedSize(t.userInfo)
            let ageMs = max(0, ctx.session.clockMs - t.queuedAtMs)
            let kind = transferKind(t.id, isSync: t.userInfo[NodeContext.replicaSyncKey] != nil)
            let complication = t.stream == .complication
            values.append([
                "id": .string(t.id), "seq": .int(Int64(t.seq)), "bytes": .int(Int64(bytes)), "ageMs": .int(ageMs),
                "stream": .string(complication ? "complication" : "ordinary"), "transferring": .bool(t.isTransferring),
                "complication": .bool(t.isCurrentComplicationInfo), "kind": .string(kind.en),
            ])
            lines.append("  " + L10n.nodeOutboxLine(id: t.id, seq: t.seq, bytes: bytes, ageMs: ageMs, complication: complication,
                                                    kind: kind, onTheWire: t.isTransferring)(language))
        }
        return .ok(.array(values), text: lines.joined(separator: "\n"))
    }

    func transferKind(_ id: String, isSync: Bool) -> LocalizedText {
        isSync ? L10n.nodeKindSync : ctx.handTransfers.contains(id) ? L10n.nodeKindHand : L10n.nodeKindApp
    }

    // MARK: - Files

    /// `file send PATH` (relative to the node's files folder).
    func fileSend(_ w: [String]) -> CommandReply {
        guard w.count == 3 else { return .error(L10n.usage("file send PATH")(language)) }
        let path = w[2]
        guard NodeFilePath.isInsideRoot(path), files.exists(path) else { return .error(L10n.nodeNoFile(path)(language)) }
        switch ctx.transferFile(path, metadata: nil) {
        case .failure(let e):
            return .error(L10n.nodeNotSent(L10n.nodeFile, e.code)(language))
        case .success(let t):
            ctx.markHandTransfer(t.id)
            return .ok(["id": .string(t.id), "path": .string(path)], text: L10n.nodeFileQueued(t.id, path: path)(language))
        }
    }

    /// `file cancel ID` (`f2`).
    func fileCancel(_ w: [String]) -> CommandReply {
        guard w.count == 3 else { return .error(L10n.usage("file cancel ID")(language)) }
        let id = w[2].hasPrefix("f") ? w[2] : "f\(w[2])"
        guard let t = ctx.outstandingFileTransfers.first(where: { $0.id == id }), ctx.cancel(t) else {
            return .error(L10n.nodeNoSuchTransfer(L10n.nodeFile, id)(language))
        }
        return .ok(["cancelled": .string(id)], text: L10n.nodeCancelled(L10n.nodeFile, id)(language))
    }

    /// `files`: every outstanding file transfer in queue order, with its progress.
    func filesShow() -> CommandReply {
        let items = ctx.outstandingFileTransfers
        var values: [PlistValue] = []
        var lines = [L10n.nodeFilesHeading(items.count)(language)]
        for t in items {
            let percent = Int((t.progress * 100).rounded(.down))
            let ageMs = max(0, ctx.session.clockMs - t.queuedAtMs)
            let kind = transferKind(t.id, isSync: false)
            values.append([
                "id": .string(t.id), "path": .string(t.path), "bytes": .int(t.sizeBytes), "progress": .double(t.progress),
                "percent": .int(Int64(percent)), "transferring": .bool(t.isTransferring), "ageMs": .int(ageMs),
                "kind": .string(kind.en),
            ])
            lines.append("  " + L10n.nodeFileLine(id: t.id, path: t.path, bytes: t.sizeBytes, percent: percent, ageMs: ageMs,
                                                  kind: kind, onTheWire: t.isTransferring)(language))
        }
        return .ok(.array(values), text: lines.joined(separator: "\n"))
    }

    // MARK: - Complication

    /// `complication push JSON` (phone): `transferCurrentComplicationUserInfo`.
    func complicationPush(_ c: NodeCommand) -> CommandReply {
        guard ctx.role == .phone else { return .error(L10n.nodeComplicationPhoneOnly(language)) }
        let payload: PlistValue
        switch parsePayload(Self.argument(of: c, after: 2), usage: "complication push JSON") {
        case .failure(let refusal): return refusal.reply
        case .success(let p): payload = p
        }
        switch ctx.transferCurrentComplicationUserInfo(payload) {
        case .failure(let e):
            return .error(L10n.nodeNotSent(L10n.nodeComplicationInfo, e.code)(language))
        case .success(let t):
            ctx.markHandTransfer(t.id)
            let remaining = ctx.remainingComplicationUserInfoTransfers
            let value: PlistValue = ["id": .string(t.id), "current": .bool(t.isCurrentComplicationInfo), "remaining": .int(Int64(remaining))]
            let text = t.isCurrentComplicationInfo ? L10n.nodeComplicationSent(t.id, remaining: remaining) : L10n.nodeComplicationFallback(t.id)
            return .ok(value, text: text(language))
        }
    }

    // MARK: - Link

    /// `link`: the session's state, what is outstanding, the frame counters and recent errors.
    func linkShow() -> CommandReply {
        let s = ctx.session
        var lines = [
            L10n.nodeLinkState(connected: s.isConnected, reachable: s.isReachable, paired: s.isPaired)(language),
            L10n.nodeLinkOutstanding(userInfo: s.outstandingUserInfoCount, files: s.outstandingFileTransfers.count)(language),
            L10n.nodeLinkFrames(sent: s.stats.framesSent, received: s.stats.framesReceived, retransmits: s.stats.retransmits,
                                rejected: s.stats.connectionsRejected)(language),
        ]
        let errors = ctx.recentLinkErrors
        if errors.isEmpty {
            lines.append("\(L10n.nodeLinkRecentErrors(language)): \(L10n.noneText(language))")
        } else {
            lines.append("\(L10n.nodeLinkRecentErrors(language)):")
            for e in errors.reversed() {
                lines.append("  \(ctx.calendar.dateTimeText(e.atMs)) \(e.subject) \(L10n.nodeWCError(e.code)(language))")
            }
        }
        var value = linkValue().dictionaryValue ?? [:]
        value["recentErrors"] = .array(errors.map(\.plistValue))
        return .ok(.dictionary(value), text: lines.joined(separator: "\n"))
    }
}
