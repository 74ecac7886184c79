import Foundation
import PeerLinkCore

/// `WCSession`: Apple's WatchConnectivity session, as a front over PeerLink's link session.
///
/// There is one per side (the phone's app, the watch's app). `WCSession.default` is the
/// session of the side whose code is running: in the simulator both sides live in one
/// process, and PeerLink sets the side around every call into the app's code (its launch,
/// each delegate callback, each command, each reply handler). Calls made outside such a call
/// (another thread, a closure kept and called later from elsewhere) are carried out at the
/// start of the side's next event (docs/WATCHCONNECTIVITY.md, *Outside an event*).
public final class WCSession: NSObject, @unchecked Sendable {
    // Unchecked: every member goes through `host`, which serializes (one event at a time;
    // calls from other threads are queued under its lock).
    @TaskLocal static var current: WCSession?

    let host: WCSessionHost
    /// The delegate gets every callback, one at a time, in the order the session produced
    /// them. Set it before `activate()`.
    public weak var delegate: (any WCSessionDelegate)?

    init(host: WCSessionHost) {
        self.host = host
        super.init()
        host.session = self
        WCSessionRegistry.add(self)
    }

    deinit { WCSessionRegistry.remove() }

    /// The session of the side whose code is running. Outside any call into an app's code, the
    /// only session of this process (process mode); reading it there while the simulator
    /// holds several is a precondition failure: keep the session your app object got at launch.
    public class var `default`: WCSession {
        if let s = current { return s }
        return WCSessionRegistry.only()
    }

    /// Always true: PeerLink simulates a paired iPhone and Apple Watch.
    public class func isSupported() -> Bool { true }

    // MARK: - Activation and state

    /// Activates the session; `session(_:activationDidCompleteWith:error:)` follows (after the
    /// current callback returns). Without a delegate the session stays `notActivated`.
    public func activate() { host.perform { [host] ctx in host.activate(&ctx) } }

    public var activationState: WCSessionActivationState { host.frontState }

    /// iOS: a watch is paired (PeerLink: this side holds a pairing secret). False until activated.
    public var isPaired: Bool { host.state.isPaired }
    /// iOS: the watch app is installed (PeerLink: a watch with this pairing has connected once).
    public var isWatchAppInstalled: Bool { host.state.isCounterpartInstalled }
    /// iOS: the app's complication is on the active watch face (the watch reports it).
    public var isComplicationEnabled: Bool { host.state.isComplicationEnabled }
    /// watchOS: the iPhone app is installed (PeerLink: the phone has been seen once).
    public var isCompanionAppInstalled: Bool { host.state.isCounterpartInstalled }
    /// The counterpart can take live messages now (see docs/WATCHCONNECTIVITY.md).
    public var isReachable: Bool { host.state.isReachable }
    /// Data arrived that the delegate has not seen yet.
    public var hasContentPending: Bool { host.state.hasContentPending }
    /// watchOS: the iPhone needs its first unlock after a reboot to be reachable. PeerLink
    /// does not model the locked state: always false.
    public var iOSDeviceNeedsUnlockAfterRebootForReachability: Bool { false }
    /// iOS: a directory for data about the current watch, nil unless activated, paired and
    /// the watch app installed (deleted by Apple when the watch is unpaired; PeerLink keeps it).
    public var watchDirectoryURL: URL? {
        guard host.role == .phone, host.frontState == .activated, isPaired, isWatchAppInstalled else { return nil }
        let url = host.directory.appendingPathComponent("WatchDirectory", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: - Messages

    /// Sends `message` now to the reachable counterpart. With a `replyHandler` the counterpart's
    /// `session(_:didReceiveMessage:replyHandler:)` answers; exactly one of the handlers is
    /// called (later, never inside this call).
    public func sendMessage(_ message: [String: Any], replyHandler: (([String: Any]) -> Void)?, errorHandler: ((any Error) -> Void)? = nil) {
        let handlers = Handlers(reply: replyHandler.map { h in { (p: MessagePayload) in h(PropertyList.dictionary(Self.dictionary(p))) } },
                                error: errorHandler)
        let payload = PropertyList.value(message).map { MessagePayload.dictionary($0.dictionaryValue ?? [:]) }
        host.perform { [host] ctx in host.send(payload, handlers, &ctx) }
    }

    /// `sendMessage` with data, answered by `session(_:didReceiveMessageData:replyHandler:)`.
    public func sendMessageData(_ data: Data, replyHandler: ((Data) -> Void)?, errorHandler: ((any Error) -> Void)? = nil) {
        let handlers = Handlers(reply: replyHandler.map { h in { (p: MessagePayload) in h(Self.data(p)) } }, error: errorHandler)
        let bytes = [UInt8](data)
        host.perform { [host] ctx in host.send(.success(.data(bytes)), handlers, &ctx) }
    }

    static func dictionary(_ p: MessagePayload) -> [String: PlistValue] { if case .dictionary(let d) = p { d } else { [:] } }
    static func data(_ p: MessagePayload) -> Data { if case .data(let b) = p { Data(b) } else { Data() } }

    /// A message's handlers, as the host keeps them until the reply or the error.
    struct Handlers: @unchecked Sendable {
        let reply: ((MessagePayload) -> Void)?
        let error: ((any Error) -> Void)?
    }

    // MARK: - Application context

    /// The context this side sent last (persists across launches).
    public var applicationContext: [String: Any] { PropertyList.dictionary(host.state.applicationContext) }
    /// The context received last from the counterpart (persists across launches).
    public var receivedApplicationContext: [String: Any] { PropertyList.dictionary(host.state.receivedApplicationContext) }

    /// Replaces the context the counterpart gets (only the latest is delivered; one equal to
    /// the current is not delivered again). Throws `sessionNotActivated` before activation,
    /// `payloadUnsupportedTypes`, `payloadTooLarge` (over 262,144 bytes).
    public func updateApplicationContext(_ applicationContext: [String: Any]) throws {
        if let e = try host.updateContext(applicationContext) { throw e }
    }
}

/// The live sessions of the process, for `WCSession.default` outside an event.
enum WCSessionRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var live = 0
    nonisolated(unsafe) private static var last = WeakSession()

    final class WeakSession { weak var session: WCSession? }

    static func add(_ s: WCSession) {
        lock.lock(); defer { lock.unlock() }
        live += 1
        let w = WeakSession()
        w.session = s
        last = w
    }

    static func remove() {
        lock.lock(); defer { lock.unlock() }
        live -= 1
    }

    static func only() -> WCSession {
        lock.lock(); defer { lock.unlock() }
        guard live == 1, let s = last.session else {
            preconditionFailure("WCSession.default read outside the app's code while \(live) sessions live (the simulator runs both sides in one process): keep the session your app object got when it was made")
        }
        return s
    }
}
