import PeerLinkCore

/// One app core under test, in memory, against a scripted peer: the role NIO's
/// `EmbeddedChannel` plays. The app runs in its real `NodeEngine` (store, session, replica,
/// effects) over a simulated link in virtual time; the peer is a `ScriptedPeer` node whose
/// calls the test makes. Nothing runs until the test advances time.
///
///     let h = try NodeHarness(role: .watch) { WaterWatch() }
///     #expect(h.command("drink 250").value == 250)
///     #expect(h.settle())   // the replica's delta reaches the peer's replica
///     h.peer { ctx in _ = ctx.set(RecordKey("drink", "p-1"), ["ml": 300, "atMs": .int(ctx.now)]) }
///     #expect(h.settle())
///     #expect(h.query("total") == 550)
public final class NodeHarness<App: NodeApp> {
    /// The app's role; the peer has the other.
    public let role: DeviceRole
    /// Where the app's exports go (`AppEffect.export`).
    public let exports = MemoryExportFolder()
    private let network: Network

    /// The pairing secret both nodes share.
    public static var pairingSecret: [UInt8] { Array(repeating: 0x5A, count: 32) }

    /// The app (made by `makeApp`, again after each `restart`) as `role`, linked to a
    /// scripted peer, at `startMs` in `timeZone`. The link comes up with the first `settle`.
    public init(role: DeviceRole, seed: UInt64 = 1, startMs: EpochMs = 1_780_000_000_000, timeZone: String = "Asia/Tokyo",
                language: AppLanguage = .ja, peer: ScriptedPeer<App> = ScriptedPeer<App>(), makeApp: @escaping () -> App) throws {
        self.role = role
        guard let calendar = LocalCalendar(identifier: timeZone) else { throw NodeHarnessError("unknown time zone \(timeZone)") }
        let secret = Self.pairingSecret
        let exports = self.exports
        if role == .phone {
            let n = try SimulatedNetwork<App, ScriptedPeer<App>>(
                seed: seed, startMs: startMs,
                phone: .init(makeApp: makeApp, config: LinkConfig(role: .phone, pairingSecret: secret), calendar: calendar,
                             language: language, exports: exports),
                watch: .init(makeApp: { peer }, config: LinkConfig(role: .watch, pairingSecret: secret), calendar: calendar, language: language))
            network = Network(n, appEngine: { n.phone }, peerEngine: { n.watch })
        } else {
            let n = try SimulatedNetwork<ScriptedPeer<App>, App>(
                seed: seed, startMs: startMs,
                phone: .init(makeApp: { peer }, config: LinkConfig(role: .phone, pairingSecret: secret), calendar: calendar, language: language),
                watch: .init(makeApp: makeApp, config: LinkConfig(role: .watch, pairingSecret: secret), calendar: calendar,
                             language: language, exports: exports))
            network = Network(n, appEngine: { n.watch }, peerEngine: { n.phone })
        }
    }

    // MARK: - The app

    /// The app's node.
    public var engine: NodeEngine<App> { network.appEngine() }
    /// The app core.
    public var app: App { engine.app }
    /// The virtual time (monotonic ms).
    public var now: EpochMs { network.now() }

    /// Runs a command on the app's node (as a scenario step or a line at the prompt).
    @discardableResult
    public func command(_ line: String) -> CommandReply { network.command(role, line) }

    /// The app's value at `path` (`query PATH`), nil when it has none.
    public func query(_ path: String) -> PlistValue? {
        let r = command("query \(path)")
        return r.isOK ? r.value : nil
    }

    /// Acts on the app's context as the app would (link calls, writes), then commits.
    @discardableResult
    public func withContext<R>(_ body: (inout NodeContext) -> R) -> R { network.withContext(role, body) }

    // MARK: - The peer

    /// The peer's node.
    public var peerEngine: NodeEngine<ScriptedPeer<App>> { network.peerEngine() }
    /// The peer app: what it received.
    public var peerApp: ScriptedPeer<App> { peerEngine.app }

    /// Makes the peer's link calls (`transferUserInfo`, `sendMessage`,
    /// `updateApplicationContext`, `transferFile` after `.writeFile`…), then commits.
    @discardableResult
    public func peer<R>(_ body: (inout NodeContext) -> R) -> R { network.withContext(role.peer, body) }

    // MARK: - Time and faults

    /// Lets `ms` of virtual time pass, delivering what is due.
    public func advance(by ms: EpochMs) { network.advance(ms) }

    /// Runs until nothing is in flight or due on the link (at most `maxMs`); false when it
    /// never went quiet.
    @discardableResult
    public func settle(maxMs: EpochMs = 600_000) -> Bool { network.settle(maxMs) }

    /// Takes the link down or brings it back.
    public func setLink(up: Bool) { network.setLink(up) }

    /// Kills the app's node and launches it again over its store (a crash after its last commit).
    public func restart() throws { try network.restart(role) }

}

extension NodeHarness {
    /// The harness's simulated network, its two app types erased into the calls it makes.
    struct Network {
        let appEngine: () -> NodeEngine<App>
        let peerEngine: () -> NodeEngine<ScriptedPeer<App>>
        let now: () -> EpochMs
        let command: (DeviceRole, String) -> CommandReply
        let route: (DeviceRole) -> Void
        let advance: (EpochMs) -> Void
        let settle: (EpochMs) -> Bool
        let setLink: (Bool) -> Void
        let restart: (DeviceRole) throws -> Void

        init<P, W>(_ n: SimulatedNetwork<P, W>, appEngine: @escaping () -> NodeEngine<App>, peerEngine: @escaping () -> NodeEngine<ScriptedPeer<App>>) {
            self.appEngine = appEngine
            self.peerEngine = peerEngine
            now = { n.now }
            command = { n.command($0, $1) }
            route = { n.route($0) }
            advance = { n.advance(by: $0) }
            settle = { n.runUntilQuiet(maxMs: $0) }
            setLink = { n.setLink(up: $0) }
            restart = { role in
                n.kill(role)
                try n.restart(role)
            }
        }

        func withContext<R>(_ role: DeviceRole, _ body: (inout NodeContext) -> R) -> R {
            let app = appEngine()
            let r = app.ctx.role == role ? app.withContext(now: now(), body) : peerEngine().withContext(now: now(), body)
            route(role)
            return r
        }
    }
}

/// Why a harness could not be made.
public struct NodeHarnessError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
