import Foundation
import PeerLinkCore

/// The node's WatchConnectivity events, as calls of the side's `WCSessionDelegate`.
extension WCSessionHost {
    /// Hands `event` to the delegate (inside `event(&ctx)`). Deliveries that come before
    /// `activate()` are held and made once it completes.
    func deliver(_ event: LinkEvent, _ ctx: inout NodeContext) {
        guard let s = session else { return }
        switch event {
        case .sessionDidBecomeInactive:
            frontState = .inactive
            delegate?.sessionDidBecomeInactive(s)
        case .sessionDidDeactivate:
            frontState = .notActivated
            delegate?.sessionDidDeactivate(s)
        case .reachabilityDidChange:
            if frontState == .activated { delegate?.sessionReachabilityDidChange(s) }
        case .watchStateDidChange:
            guard frontState == .activated else { return }
            if role == .phone { delegate?.sessionWatchStateDidChange(s) } else { delegate?.sessionCompanionAppInstalledDidChange(s) }
        case .didReceiveMessage(let m):
            // A live message is never queued: to a session not activated (yet, or again) one
            // expecting a reply fails at once with `notReachable`, as Apple's counterpart would
            // not be reachable; one without is dropped (docs/WATCHCONNECTIVITY.md, known limits).
            guard frontState == .activated else {
                if m.replyExpected { _ = ctx.refuseMessage(m.id, PeerLinkCore.WCError(.notReachable, "the counterpart's session is not activated")) }
                return
            }
            whenActivated { [self] in receive(m, s) }
        case .didReceiveApplicationContext(let v):
            let context = PropertyList.dictionary(v)
            whenActivated { [self] in delegate?.session(s, didReceiveApplicationContext: context) }
        case .didReceiveUserInfo(let v, _):
            let info = PropertyList.dictionary(v)
            whenActivated { [self] in delegate?.session(s, didReceiveUserInfo: info) }
        case .didFinishUserInfoTransfer(let u, let e):
            let t = userInfoTransfers.removeValue(forKey: u.id) ?? userInfoObject(u)
            userInfoTransfers[u.id] = nil
            finish(t, e.map(WCError.init))
        case .didFinishFileTransfer(let f, let e):
            let t = fileTransfers.removeValue(forKey: f.id) ?? fileObject(f)
            fileTransfers[f.id] = nil
            t.noteProgress(f)
            removeOutgoingCopy(t, &ctx)
            finish(t, e.map(WCError.init))
        case .didReceiveFile(let f):
            receive(f, s, &ctx)
        case .didReceiveMessageReply(let id, let payload):
            messageHandlers.removeValue(forKey: id)?.reply?(payload)
        case .messageDidFail(let id, let e):
            messageHandlers.removeValue(forKey: id)?.error?(WCError(e))
        default:
            break
        }
    }

    /// Runs `delivery` now when activated, else once `activate()` completes.
    private func whenActivated(_ delivery: @escaping () -> Void) {
        if frontState == .activated && !completionPending { delivery() } else { held.append(delivery) }
    }

    private func receive(_ m: IncomingMessage, _ s: WCSession) {
        guard let d = delegate else {
            if m.replyExpected { perform { ctx in ctx.refuseMessage(m.id, PeerLinkCore.WCError(.deliveryFailed, "the session has no delegate")) } }
            return
        }
        let id = m.id
        unhandledDelivery = false
        switch (m.payload, m.replyExpected) {
        case (.dictionary(let v), false): d.session(s, didReceiveMessage: PropertyList.dictionary(v))
        case (.data(let b), false): d.session(s, didReceiveMessageData: Data(b))
        case (.dictionary(let v), true):
            d.session(s, didReceiveMessage: PropertyList.dictionary(v), replyHandler: { [self] reply in
                let payload = PropertyList.value(reply)
                perform { ctx in
                    switch payload {
                    case .success(let r): _ = ctx.replyToMessage(id, with: .dictionary(r.dictionaryValue ?? [:]))
                    case .failure(let e): ctx.refuseMessage(id, PeerLinkCore.WCError(.messageReplyFailed, e.reason ?? "\(e)"))
                    }
                }
            })
        case (.data(let b), true):
            d.session(s, didReceiveMessageData: Data(b), replyHandler: { [self] reply in
                let bytes = [UInt8](reply)
                perform { ctx in _ = ctx.replyToMessage(id, with: .data(bytes)) }
            })
        }
        if m.replyExpected && unhandledDelivery {
            unhandledDelivery = false
            perform { ctx in ctx.refuseMessage(id, PeerLinkCore.WCError(.deliveryFailed, "the delegate has no didReceiveMessage…replyHandler:")) }
        }
    }

    /// A received file: copied from the node's inbox to a real file in this side's inbox
    /// directory, handed to the delegate, and deleted when its callback returns unless it moved it.
    private func receive(_ f: ReceivedFile, _ s: WCSession, _ ctx: inout NodeContext) {
        let inbox = directory.appendingPathComponent("Inbox", isDirectory: true)
        var url = inbox.appendingPathComponent(f.name)
        do {
            guard let bytes = f.contents else { throw FileStorageError("the node could not read \(f.path)") }
            try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
            var n = 1
            while FileManager.default.fileExists(atPath: url.path) {
                n += 1
                url = inbox.appendingPathComponent("\(n)-\(f.name)")
            }
            try Data(bytes).write(to: url)
        } catch {
            ctx.log(.error, "received file \(f.name) could not be put in the inbox: \(error)")
            return
        }
        let file = WCSessionFile(fileURL: url, metadata: f.metadata.map(PropertyList.dictionary))
        whenActivated { [self] in
            delegate?.session(s, didReceive: file)
            try? FileManager.default.removeItem(at: url)
        }
    }

    // MARK: - Sending files

    func start(_ t: WCSessionFileTransfer, _ ctx: inout NodeContext) {
        if let e = notActivatedError { return finish(t, e) }
        var metadata: PlistValue?
        if let m = t.file.metadata {
            switch PropertyList.value(m) {
            case .failure(let e): return finish(t, e)
            case .success(let v): metadata = v
            }
        }
        guard let data = try? Data(contentsOf: t.file.fileURL) else {
            return finish(t, WCError(.fileAccessDenied, "cannot read \(t.file.fileURL.path)"))
        }
        let n = (ctx.local["wc.nextFile"]?.intValue ?? 0) + 1
        ctx.setLocal("wc.nextFile", .int(n))
        let path = Self.outgoingDirectory + "/\(n)/\(t.file.fileURL.lastPathComponent)"
        // The node writes the copy when this event's callback returns, before the transfer
        // measures it; a copy it cannot write fails the transfer (`copyFailed`).
        ctx.perform(.writeFile(path: path, bytes: [UInt8](data)))
        switch ctx.transferFile(path, metadata: metadata) {
        case .success(let f):
            t.id = f.id
            t.corePath = path
            t.noteProgress(f)
            fileTransfers[f.id] = t
        case .failure(let e):
            ctx.perform(.removeFile(path: path))
            finish(t, WCError(e))
        }
    }

    /// Where the node keeps the copies of the files it sends.
    static let outgoingDirectory = "wc-outgoing"

    /// Deletes the copy the node sent from (once delivered, failed or cancelled).
    func removeOutgoingCopy(_ t: WCSessionFileTransfer, _ ctx: inout NodeContext) {
        if let p = t.corePath, p.hasPrefix(Self.outgoingDirectory + "/") { ctx.perform(.removeFile(path: p)) }
    }

    /// The node could not write the copy of a file to send: its transfer is cancelled and
    /// finishes with `insufficientSpace`.
    func copyFailed(_ path: String, _ error: AppEffectError, _ ctx: inout NodeContext) {
        guard let (id, t) = fileTransfers.first(where: { $0.value.corePath == path }) else { return }
        fileTransfers[id] = nil
        for f in ctx.outstandingFileTransfers where f.id == id { _ = ctx.cancel(f) }
        ctx.perform(.removeFile(path: path))
        finish(t, WCError(.insufficientSpace, "cannot copy the file to send: \(error)"))
    }

    /// Brings the progress of the transfers handed out up to date (after every event).
    func noteFileProgress(_ ctx: NodeContext) {
        guard !fileTransfers.isEmpty else { return }
        for f in ctx.outstandingFileTransfers { fileTransfers[f.id]?.noteProgress(f) }
    }
}
