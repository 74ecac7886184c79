import PeerLinkCore

/// The watch app and WatchConnectivity: live mirroring, the finished workout's file, and what
/// the link reports back.
///
/// Everything the app asks of the link beyond the replicated state goes through ONE function,
/// `perform(_:_:)`; everything the phone sends goes through `handlePhonePayload`
/// (WatchApp+Phone.swift).
extension WatchApp {
    /// Where the watch writes the files it sends (in the node's file storage); each is
    /// deleted once its transfer finished.
    public static let outgoingFilesDirectory = "outgoing"

    // MARK: - The link adapter

    /// Hands the app's link effects to WatchConnectivity, inside the current event (so the
    /// batch that made them commits with them):
    /// - `.sendMessage(m)` → `ctx.sendMessage(m, replyExpected: false)`: live values, never
    ///   queued; a failure (`notReachable`, no receipt) comes back as `messageDidFail` and is
    ///   counted — the next accepted change carries newer values.
    /// - `.transferFile(name, bytes, metadata)` → the bytes are written to
    ///   `outgoing/<name>` in the node's files (synced) and `ctx.transferFile` queues them; a
    ///   failure to write or queue is logged and counted (the replicated records still carry
    ///   the samples).
    mutating func perform(_ effects: [WatchEffect], _ ctx: inout NodeContext) {
        for effect in effects {
            link.record(effect)
            switch effect {
            case .sendMessage(let message):
                ctx.sendMessage(message, replyExpected: false)
            case .transferFile(let name, let bytes, let metadata):
                sendFile(name: name, bytes: bytes, metadata: metadata, &ctx)
            }
        }
    }

    /// Asks the node to write a file into its storage (`AppEffect.writeFile`, performed when
    /// this callback returns and before the transfer measures it) and queues it with
    /// `transferFile`; a write that fails cancels the transfer (`onEffectOutcome`).
    mutating func sendFile(name: String, bytes: [UInt8], metadata: PlistValue, _ ctx: inout NodeContext) {
        let path = "\(Self.outgoingFilesDirectory)/\(name)"
        ctx.perform(.writeFile(path: path, bytes: bytes))
        switch ctx.transferFile(path, metadata: metadata) {
        case .success(let t):
            link.filesQueued += 1
            ctx.log(.info, "link: transferFile \(path) (\(bytes.count) B) queued as \(t.id)")
        case .failure(let e):
            ctx.perform(.removeFile(path: path))
            link.filesFailed += 1
            link.recordLinkError(e.code.name)
            ctx.log(.error, "link: transferFile \(path) refused: \(e)")
        }
    }

    /// A file the watch asked to write could not be: its transfer is cancelled and counted
    /// as failed (the replicated records still carry the samples).
    mutating func fileWriteFailed(_ path: String, _ error: AppEffectError, _ ctx: inout NodeContext) {
        ctx.log(.error, "link: could not write \(path): \(error)")
        link.filesFailed += 1
        // The newest transfer of that path is the one queued with this write.
        if let t = ctx.outstandingFileTransfers.last(where: { $0.path == path }) { _ = ctx.cancel(t) }
        ctx.perform(.removeFile(path: path))
    }

    // MARK: - What the link reports

    /// The delegate callbacks about the app's own link activity: messages (received, failed),
    /// application contexts, finished file transfers. False for other events.
    mutating func onLinkActivity(_ event: LinkEvent, _ ctx: inout NodeContext) -> Bool {
        switch event {
        case .didReceiveMessage(let m):
            link.messagesReceived += 1
            let reply: PlistValue
            switch m.payload {
            case .dictionary(let d): reply = onMessage(.dictionary(d), &ctx)
            case .data: reply = ["error": "the watch takes dictionary messages only"]
            }
            guard m.replyExpected, case .dictionary(let d) = reply else { return true }
            if case .failure(let e) = ctx.replyToMessage(m.id, with: .dictionary(d)) {
                link.recordLinkError(e.code.name)
                ctx.log(.warning, "link: reply to message \(m.id) not sent: \(e)")
            }
        case .messageDidFail(let id, let e):
            link.messagesFailed += 1
            link.recordLinkError(e.code.name)
            ctx.log(.debug, "link: message \(id) failed: \(e)")
        case .didReceiveMessageReply:
            break  // the watch's messages expect no reply; a receipt is not reported
        case .didReceiveApplicationContext(let context):
            link.contextsReceived += 1
            ctx.log(.info, "link: application context from the phone: \(context.logText())")
        case .didFinishFileTransfer(let t, let error):
            if t.path.hasPrefix(Self.outgoingFilesDirectory + "/") { ctx.perform(.removeFile(path: t.path)) }
            if let error {
                link.filesFailed += 1
                link.recordLinkError(error.code.name)
                ctx.log(.warning, "link: file \(t.path) failed: \(error)")
            } else {
                link.filesDelivered += 1
                ctx.log(.info, "link: file \(t.path) delivered (\(t.sizeBytes) B)")
            }
        default:
            return false
        }
        return true
    }

    /// A message from the phone (`didReceiveMessage`): the reply is `["ok": true]`, or
    /// `["error": text]` when the payload is malformed or not one the watch knows.
    public mutating func onMessage(_ message: PlistValue, _ ctx: inout NodeContext) -> PlistValue {
        switch handlePhonePayload(message, isComplication: false, &ctx) {
        case nil: ["error": "unknown message"]
        case .failure(let e)?: ["error": .string(e.description)]
        case .success(let reply)?: reply
        }
    }

    // MARK: - Mirroring

    /// The live-metrics payload for the active, started workout and its canonical size, if
    /// reachability and the mirroring budget allow one now; otherwise the skip is counted.
    /// Sent with `sendLiveMetrics`, after the event's other link effects.
    mutating func liveMetrics(_ ctx: inout NodeContext) -> (payload: PlistValue, bytes: Int, canonical: [UInt8])? {
        guard let s = manager.session, s.startMs != nil else { return nil }
        guard ctx.session.isReachable else {
            link.recordSkip("phone not reachable")
            return nil
        }
        // `WorkoutManager.onMirrorTick`, with the payload made from the previous one.
        guard let b = manager.builder else {
            link.recordSkip(MirrorBudget.SkipReason.notMirroring.description)
            return nil
        }
        let live = livePayloads.make(session: s, builder: b, at: ctx.now)
        switch manager.mirror.consider(bytes: live.bytes, now: ctx.now) {
        case .send: return live
        case .skip(let reason):
            link.recordSkip(reason.description)
            return nil
        }
    }

    /// Hands a live-metrics payload `liveMetrics` allowed to the link, as `perform` does a
    /// `.sendMessage` of it (its size and canonical encoding are known: it is neither measured
    /// nor encoded again).
    mutating func sendLiveMetrics(_ live: (payload: PlistValue, bytes: Int, canonical: [UInt8])?, _ ctx: inout NodeContext) {
        guard let live else { return }
        link.recordLiveMetrics(live.payload, bytes: live.bytes)
        ctx.sendMessage(live.payload, canonicalBytes: live.canonical, replyExpected: false)
    }
}
