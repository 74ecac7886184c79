import Foundation
#if canImport(WatchConnectivity)
import WatchConnectivity
#else
import PeerLinkWatchConnectivity
#endif

/// One entry of the list: checked or not, with the stamp of its latest change.
public struct ListItem: Equatable, Sendable {
    public var checked: Bool
    /// A Lamport clock: the change with the higher `(clock, device)` wins.
    public var clock: Int
    public var device: String

    public init(checked: Bool, clock: Int, device: String) {
        self.checked = checked
        self.clock = clock
        self.device = device
    }

    func isNewer(than other: ListItem) -> Bool { (clock, device) > (other.clock, other.device) }

    var plist: [String: Any] { ["checked": checked, "clock": clock, "device": device] }

    init?(plist: Any?) {
        guard let d = plist as? [String: Any], let checked = d["checked"] as? Bool, let clock = d["clock"] as? Int,
              let device = d["device"] as? String else { return nil }
        self.init(checked: checked, clock: clock, device: device)
    }
}

/// The shopping list both devices edit, and its sync layer over `WCSession`:
/// - every change goes to the counterpart as a user info (guaranteed, in order);
/// - the whole list goes as the application context (the latest state, for a counterpart
///   that was away);
/// - the watch can ask the phone for the list with a live message (`refresh`).
/// Whatever arrives is merged item by item, the newer change winning, so both devices end
/// with the same list whatever order the channels deliver in.
public final class ShoppingList: NSObject, WCSessionDelegate {
    public private(set) var items: [String: ListItem]
    public private(set) var clock: Int
    /// The error of the last `refresh`, if it failed.
    public private(set) var lastRefreshError: String?
    public private(set) var refreshes = 0
    let session: WCSession
    let device: String
    /// The classic bug, for the test that shows the sweep finding it: an arriving context
    /// replaces the list instead of being merged, so an older context wins over a newer
    /// change that came as user info.
    let lastContextWins: Bool

    public init(device: String, items: [String: ListItem] = [:], clock: Int = 0, lastContextWins: Bool = false) {
        self.device = device
        self.items = items
        self.clock = clock
        self.lastContextWins = lastContextWins
        self.session = WCSession.default
        super.init()
        if WCSession.isSupported() {
            session.delegate = self
            session.activate()
        }
    }

    // MARK: - What the user does

    public func add(_ name: String) { change(name, checked: false) }
    public func check(_ name: String) { change(name, checked: true) }
    public func uncheck(_ name: String) { change(name, checked: false) }

    /// The watch asks the phone for its list now (only while reachable).
    public func refresh() {
        guard session.isReachable else {
            lastRefreshError = "not reachable"
            return
        }
        session.sendMessage(["request": "list"], replyHandler: { [self] reply in
            refreshes += 1
            lastRefreshError = nil
            merge(reply["items"])
        }, errorHandler: { [self] error in
            lastRefreshError = "\(error)"
        })
    }

    private func change(_ name: String, checked: Bool) {
        clock += 1
        let item = ListItem(checked: checked, clock: clock, device: device)
        items[name] = item
        guard session.activationState == .activated else { return }
        session.transferUserInfo(["item": name, "change": item.plist])
        try? session.updateApplicationContext(["items": itemsPlist])
    }

    var itemsPlist: [String: Any] { items.mapValues(\.plist) }

    // MARK: - Merging

    private func merge(_ name: String, _ item: ListItem) {
        clock = max(clock, item.clock)
        if let mine = items[name], !item.isNewer(than: mine) { return }
        items[name] = item
    }

    private func merge(_ list: Any?) {
        guard let list = list as? [String: Any] else { return }
        for (name, value) in list {
            if let item = ListItem(plist: value) { merge(name, item) }
        }
    }

    // MARK: - WCSessionDelegate

    /// Once activated, the counterpart gets the whole list (what changed while the session was
    /// not active, or what a counterpart that lost its data needs).
    public func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        guard activationState == .activated, !items.isEmpty else { return }
        try? session.updateApplicationContext(["items": itemsPlist])
    }

    #if os(iOS) || !canImport(WatchConnectivity)
    public func sessionDidBecomeInactive(_ session: WCSession) {}
    public func sessionDidDeactivate(_ session: WCSession) { session.activate() }
    #endif

    public func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any] = [:]) {
        guard let name = userInfo["item"] as? String, let item = ListItem(plist: userInfo["change"]) else { return }
        merge(name, item)
    }

    public func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        if lastContextWins {
            var replaced: [String: ListItem] = [:]
            for (name, value) in applicationContext["items"] as? [String: Any] ?? [:] {
                if let item = ListItem(plist: value) { replaced[name] = item; clock = max(clock, item.clock) }
            }
            items = replaced
        } else {
            merge(applicationContext["items"])
        }
    }

    public func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        replyHandler(message["request"] as? String == "list" ? ["items": itemsPlist] : [:])
    }
}
