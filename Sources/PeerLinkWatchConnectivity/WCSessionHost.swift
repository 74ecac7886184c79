import Foundation
import PeerLinkCore

/// What `WCSession` reads: from the node's context inside an event, else as it was at the
/// end of the side's last event.
struct WCSessionState {
    var isPaired = false
    var isCounterpartInstalled = false
    var isComplicationEnabled = false
    var isReachable = false
    var hasContentPending = false
    var applicationContext: [String: PlistValue] = [:]
    var receivedApplicationContext: [String: PlistValue] = [:]
    var remainingComplication = 0
    var outstandingUserInfo: [UserInfoTransfer] = []
    var outstandingFiles: [FileTransfer] = []
}

/// One side's bridge between its `WCSession` and the node it runs in (the adapter
/// `WCNodeApp`): the node's context during an event, the calls queued from outside one, the
/// delegate callbacks still to make in the current event, the transfer objects handed out.
final class WCSessionHost: @unchecked Sendable {
    // Unchecked: the node runs one event at a time on one thread; `outside` is locked.
    let role: DeviceRole
    /// A real directory of this side: the inbox of received files, `watchDirectoryURL`.
    let directory: URL
    weak var session: WCSession?
    var frontState = WCSessionActivationState.notActivated
    /// What this side's app reports of itself (`session foreground|background`, `session complication on|off`).
    var appState = AppState()
    /// The context of the event under way on the node's thread.
    private var ctx: UnsafeMutablePointer<NodeContext>?
    /// Delegate callbacks to make once the current call into the app returns, in order.
    var pending: [() -> Void] = []
    /// True from `activate()` until its `activationDidCompleteWith` is called: deliveries
    /// meanwhile wait in `held`, so none reaches the delegate before the completion.
    var completionPending = false
    /// The handlers of the messages sent and not answered yet, by id. Not durable: like the
    /// message itself they are gone with the process.
    var messageHandlers: [MessageID: WCSession.Handlers] = [:]
    /// Deliveries that came before `activate()`, made once it completes.
    var held: [() -> Void] = []
    private let lock = NSLock()
    private var outside: [@Sendable (inout NodeContext) -> Void] = []
    /// Set by the default `didReceiveMessage…replyHandler:` (the delegate has none).
    var unhandledDelivery = false
    var userInfoTransfers: [String: WCSessionUserInfoTransfer] = [:]
    var fileTransfers: [String: WCSessionFileTransfer] = [:]
    private var snapshot = WCSessionState()

    init(role: DeviceRole, directory: URL) {
        self.role = role
        self.directory = directory
    }

    var delegate: (any WCSessionDelegate)? { session?.delegate }

    // MARK: - Events

    /// Runs `body` (a call into the app's code) as part of the node's current event: this
    /// side's session is `WCSession.default`, its calls act on `ctx`; first the calls queued
    /// from outside, after it the delegate callbacks it caused.
    func event<R>(_ ctx: inout NodeContext, _ body: (inout NodeContext) -> R) -> R {
        withUnsafeMutablePointer(to: &ctx) { p in
            let outer = self.ctx
            self.ctx = p
            defer {
                self.ctx = outer
                if outer == nil { snapshot = Self.state(of: p.pointee, role: role, activated: frontState == .activated) }
            }
            return WCSession.$current.withValue(session) {
                for call in takeOutside() { call(&p.pointee) }
                let r = body(&p.pointee)
                runPending()
                return r
            }
        }
    }

    func runPending() {
        while !pending.isEmpty { pending.removeFirst()() }
    }

    private var inEvent: Bool { ctx != nil && WCSession.current === session }

    /// Runs `body` on the context now when inside this side's event, else queues it for the
    /// start of the side's next event.
    func perform(_ body: @escaping @Sendable (inout NodeContext) -> Void) {
        if inEvent, let p = ctx { return body(&p.pointee) }
        lock.lock()
        outside.append(body)
        lock.unlock()
    }

    private func takeOutside() -> [@Sendable (inout NodeContext) -> Void] {
        lock.lock(); defer { lock.unlock() }
        defer { outside = [] }
        return outside
    }

    /// True when calls from outside an event wait for the next one.
    var hasQueuedCalls: Bool {
        lock.lock(); defer { lock.unlock() }
        return !outside.isEmpty
    }

    /// Reads the context inside an event; nil outside one.
    func read<R>(_ body: (NodeContext) -> R) -> R? {
        guard inEvent, let p = ctx else { return nil }
        return body(p.pointee)
    }

    var state: WCSessionState {
        read { Self.state(of: $0, role: role, activated: frontState == .activated) } ?? snapshot
    }

    static func state(of ctx: NodeContext, role: DeviceRole, activated: Bool) -> WCSessionState {
        guard activated else { return WCSessionState(applicationContext: ctx.applicationContext, receivedApplicationContext: ctx.receivedApplicationContext) }
        return WCSessionState(
            isPaired: ctx.isPaired, isCounterpartInstalled: ctx.isWatchAppInstalled,
            isComplicationEnabled: role == .phone && ctx.isComplicationEnabled, isReachable: ctx.isReachable,
            hasContentPending: ctx.hasContentPending, applicationContext: ctx.applicationContext,
            receivedApplicationContext: ctx.receivedApplicationContext,
            remainingComplication: role == .phone && ctx.isComplicationEnabled ? ctx.remainingComplicationUserInfoTransfers : 0,
            outstandingUserInfo: ctx.outstandingUserInfoTransfers, outstandingFiles: ctx.outstandingFileTransfers)
    }

    // MARK: - Calls of the session

    func activate(_ ctx: inout NodeContext) {
        guard frontState != .activated else { return }
        guard let s = session, delegate != nil else {
            ctx.log(.warning, "WCSession.activate() without a delegate: the session stays notActivated")
            return
        }
        if ctx.activationState != .activated { ctx.activate() }
        frontState = .activated
        completionPending = true
        pending.append { [self] in
            completionPending = false
            delegate?.session(s, activationDidCompleteWith: .activated, error: nil)
            pending += held
            held = []
        }
    }

    /// The error of a call made while not activated; nil when activated.
    var notActivatedError: WCError? {
        switch frontState {
        case .activated: nil
        case .inactive: WCError(.sessionInactive, "the session is inactive (the paired watch is being switched)")
        case .notActivated: WCError(.sessionNotActivated, "call activate() first")
        }
    }

    func send(_ payload: Result<MessagePayload, WCError>, _ handlers: WCSession.Handlers, _ ctx: inout NodeContext) {
        let failure = { [self] (e: WCError) in
            if let h = handlers.error { pending.append { h(e) } }
        }
        if let e = notActivatedError { return failure(e) }
        let p: MessagePayload
        switch payload {
        case .failure(let e): return failure(e)
        case .success(let v): p = v
        }
        // The handlers wait here, by message id, for the outcome the node delivers
        // (`deliver`: `didReceiveMessageReply` / `messageDidFail`).
        let id: MessageID
        switch p {
        case .dictionary(let d): id = ctx.sendMessage(.dictionary(d), replyExpected: handlers.reply != nil)
        case .data(let b): id = ctx.sendMessageData(b, replyExpected: handlers.reply != nil)
        }
        messageHandlers[id] = handlers
    }

    /// `updateApplicationContext`: the error to throw (nil: stored). Outside an event it is
    /// queued, and a failure then only logged.
    func updateContext(_ context: [String: Any]) throws -> WCError? {
        let value: PlistValue
        switch PropertyList.value(context) {
        case .failure(let e): return e
        case .success(let v): value = v
        }
        guard inEvent, let p = ctx else {
            perform { [self] ctx in
                if let e = notActivatedError { return ctx.log(.warning, "updateApplicationContext (queued): \(e)") }
                if case .failure(let e) = ctx.updateApplicationContext(value) { ctx.log(.warning, "updateApplicationContext (queued): \(e)") }
            }
            return nil
        }
        if let e = notActivatedError { return e }
        if case .failure(let e) = p.pointee.updateApplicationContext(value) { return WCError(e) }
        return nil
    }

    func finish(_ t: WCSessionUserInfoTransfer, _ e: WCError?) {
        t.finished = true
        guard let s = session else { return }
        pending.append { [self] in delegate?.session(s, didFinish: t, error: e) }
    }

    func finish(_ t: WCSessionFileTransfer, _ e: WCError?) {
        t.finished = true
        guard let s = session else { return }
        pending.append { [self] in delegate?.session(s, didFinish: t, error: e) }
    }

    func start(_ t: WCSessionUserInfoTransfer, _ ctx: inout NodeContext) {
        if let e = notActivatedError { return finish(t, e) }
        let value: PlistValue
        switch PropertyList.value(t.userInfo) {
        case .failure(let e): return finish(t, e)
        case .success(let v): value = v
        }
        switch t.complication ? ctx.transferCurrentComplicationUserInfo(value) : ctx.transferUserInfo(value) {
        case .success(let u):
            t.id = u.id
            t.complication = u.stream == .complication  // false past the day's budget
            userInfoTransfers[u.id] = t
        case .failure(let e):
            finish(t, WCError(e))
        }
    }

    /// The object for a core transfer: the one handed out, else a new one (after a relaunch).
    func userInfoObject(_ u: UserInfoTransfer) -> WCSessionUserInfoTransfer {
        if let t = userInfoTransfers[u.id] { return t }
        let t = WCSessionUserInfoTransfer(userInfo: PropertyList.dictionary(u.userInfo), complication: u.stream == .complication, host: self)
        t.id = u.id
        userInfoTransfers[u.id] = t
        return t
    }

    func fileObject(_ f: FileTransfer) -> WCSessionFileTransfer {
        if let t = fileTransfers[f.id] { t.noteProgress(f); return t }
        let url = directory.appendingPathComponent(f.path)
        let t = WCSessionFileTransfer(file: WCSessionFile(fileURL: url, metadata: f.metadata.map(PropertyList.dictionary)), sizeBytes: f.sizeBytes, host: self)
        t.id = f.id
        t.corePath = f.path
        t.noteProgress(f)
        fileTransfers[f.id] = t
        return t
    }
}
