import PeerLinkCore
import Testing

@testable import WatchNode

// MARK: - Fixtures

/// The watch's time zone in these tests.
let tokyo = LocalCalendar(identifier: "Asia/Tokyo")!
/// 2026-06-01T07:00:00+09:00.
let morning: EpochMs = 1_780_264_800_000
/// The pairing secret both test engines share.
let testSecret = [UInt8](repeating: 7, count: 32)
let second: EpochMs = 1_000

/// A watch engine over `store` (a fresh one, or the same one again after a simulated crash).
func makeWatchEngine(
    store: MemoryStore, now: EpochMs, complication: ComplicationFeed.Settings = .defaults, incarnation: UInt64 = 100
) throws -> NodeEngine<WatchApp> {
    try NodeEngine(
        app: WatchApp(complicationSettings: complication), role: .watch, store: store,
        config: LinkConfig(role: .watch, pairingSecret: testSecret), calendar: tokyo, language: .en, now: now, seed: 1,
        newIncarnation: incarnation)
}

extension NodeEngine {
    /// Runs a command line at `now`.
    @discardableResult
    func run(_ line: String, at now: EpochMs) -> CommandReply {
        command(NodeCommand(line: line)!, now: now)
    }

    /// `query PATH` at `now`; nil when there is no value.
    func value(_ path: String, at now: EpochMs) -> PlistValue? {
        let r = run("query " + path, at: now)
        return r.isOK ? r.value : nil
    }
}

// MARK: - Two engines back to back

/// A phone engine and a watch engine wired by hand: every `NodeOutput.send` of one is fed to
/// the other's `received` while the link is up. No sockets, no wall clock.
final class EnginePair {
    let phoneStore = MemoryStore()
    let watchStore = MemoryStore()
    var phone: NodeEngine<TestPhoneApp>
    var watch: NodeEngine<WatchApp>
    var now: EpochMs
    var connection: ConnectionID = 0
    var isUp = false
    var watchLogs: [String] = []

    init(now: EpochMs = morning, complication: ComplicationFeed.Settings = .defaults) throws {
        self.now = now
        phone = try NodeEngine(
            app: TestPhoneApp(), role: .phone, store: phoneStore, config: LinkConfig(role: .phone, pairingSecret: testSecret),
            calendar: tokyo, language: .en, now: now, seed: 2, newIncarnation: 200)
        watch = try makeWatchEngine(store: watchStore, now: now, complication: complication)
    }

    /// The watch connects to the phone and both authenticate.
    func connect() {
        connection += 1
        isUp = true
        phone.connectionOpened(connection, isInitiator: false, ephemeralKey: [UInt8](repeating: 1, count: 32), now: now)
        watch.connectionOpened(connection, isInitiator: true, ephemeralKey: [UInt8](repeating: 2, count: 32), now: now)
        pump()
    }

    /// The link drops (the watch leaves range).
    func disconnect() {
        isUp = false
        phone.connectionClosed(connection, now: now)
        watch.connectionClosed(connection, now: now)
        pump()
    }

    /// Delivers frames both ways until neither side has anything to send.
    func pump() {
        for _ in 0..<10_000 {
            let fromPhone = phone.drainOutput(), fromWatch = watch.drainOutput()
            if fromPhone.isEmpty && fromWatch.isEmpty { return }
            for o in fromPhone { handle(o, toWatch: true) }
            for o in fromWatch { handle(o, toWatch: false) }
        }
        Issue.record("the engines never went quiet")
    }

    private func handle(_ output: NodeOutput, toWatch: Bool) {
        switch output {
        case .send(let id, let bytes, _):
            guard isUp, id == connection else { return }
            if toWatch { watch.received(id, bytes[...], now: now) } else { phone.received(id, bytes[...], now: now) }
        case .close:
            if isUp { disconnect() }
        case .log(_, let message):
            if !toWatch { watchLogs.append(message) }
        case .fatal(let message):
            Issue.record("fatal: \(message)")
        }
    }

    /// Moves time to `target`, ticking both engines at every timer on the way.
    func advance(to target: EpochMs) {
        while now < target {
            let next = [phone.nextDeadline, watch.nextDeadline].compactMap { $0 }.filter { $0 > now }.min() ?? target
            now = min(next, target)
            phone.tick(now: now)
            watch.tick(now: now)
            pump()
        }
    }

    /// Moves time forward by `ms`.
    func advance(by ms: EpochMs) { advance(to: now + ms) }

    /// A watch command now.
    @discardableResult
    func onWatch(_ line: String) -> CommandReply {
        let r = watch.run(line, at: now)
        pump()
        return r
    }

    /// A phone command now.
    @discardableResult
    func onPhone(_ line: String) -> CommandReply {
        let r = phone.run(line, at: now)
        pump()
        return r
    }

    /// `query PATH` on the watch now.
    func watchValue(_ path: String) -> PlistValue? { watch.value(path, at: now) }
}
