import Foundation
import PeerLinkCore

/// A side of a WatchConnectivity app as a PeerLink `NodeApp`: it hosts the app object, its
/// `WCSession`, and turns the node's events into the session's delegate calls, inside the
/// node's event (in the simulator, events of the simulation: a seed replays exactly).
///
/// Its commands are the side's test verbs, and `session …` verbs for what the user or the
/// system does to the session (`session switch-watch`, `session background`…).
public struct WCNodeApp<Side: WCAppSide>: NodeApp, @unchecked Sendable {
    // Unchecked: the node runs one event at a time.
    final class Box {
        let storage: WCSideStorage
        var session: WCSession?
        var app: Side.App?
        init(storage: WCSideStorage) { self.storage = storage }
    }
    let box: Box

    /// The side over `storage` (the harness makes one per launch).
    public init(storage: WCSideStorage) { box = Box(storage: storage) }

    /// The app object (nil before launch).
    public var app: Side.App? { box.app }
    /// Its session.
    public var session: WCSession? { box.session }

    public mutating func onLaunch(_ ctx: inout NodeContext) {
        let host = WCSessionHost(role: ctx.role, directory: box.storage.directory)
        let session = WCSession(host: host)
        box.session = session
        let saved = box.storage.saved
        inEvent(&ctx) { ctx in box.app = Side.makeApp(ctx.role, restoring: saved) }
    }

    public mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        guard let host = box.session?.host else { return }
        inEvent(&ctx) { ctx in host.deliver(event, &ctx) }
    }

    public mutating func onTick(_ ctx: inout NodeContext) {
        guard box.session?.host.hasQueuedCalls == true else { return }
        inEvent(&ctx) { _ in }
    }

    public func nextDeadline(_ ctx: NodeContext) -> EpochMs? {
        box.session?.host.hasQueuedCalls == true ? ctx.now : nil
    }

    public mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        Self.commands.run(&self, command, &ctx)
    }

    /// Runs `body` as part of the node's event for the side's code, then keeps what the side saves.
    func inEvent<R>(_ ctx: inout NodeContext, _ body: (inout NodeContext) -> R) -> R {
        guard let host = box.session?.host else { return body(&ctx) }
        let r = host.event(&ctx, body)
        host.noteFileProgress(ctx)
        if let app = box.app { box.storage.save(Side.save(app)) }
        return r
    }

    public func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        guard let app = box.app else { return nil }
        if path.first == "session", let s = box.session { return WCSessionQuery.value(s, Array(path.dropFirst())) }
        return Side.query(app, path)
    }

    public func convergenceState(_ ctx: NodeContext) -> PlistValue? {
        box.app.flatMap(Side.convergenceState)
    }

    public func isOwnTraffic(_ event: LinkEvent, _ ctx: NodeContext) -> Bool { true }

    public static var commands: CommandTable<Self> {
        let own = Side.commands.map { c in
            Command<Self>(c.verb, c.args, ja: c.ja, en: c.en) { node, command, ctx in
                guard let app = node.box.app else { return .error("the app is not running") }
                return node.inEvent(&ctx) { _ in c.run(app, command) }
            }
        }
        return CommandTable(title: LocalizedText(ja: Side.title, en: Side.title), own + WCSessionCommands.rows())
    }
}
