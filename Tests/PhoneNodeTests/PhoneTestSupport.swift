import PeerLinkCore
import PhoneNode
import Testing

/// A phone node driven by hand: a `NodeEngine` over a `MemoryStore`, a virtual clock that
/// stops at every app timer, commands in and queries out. No sockets, no wall clock.
final class PhoneHarness {
    let store: MemoryStore
    let sink: MemoryExportFolder
    private(set) var engine: NodeEngine<PhoneApp>
    private(set) var now: EpochMs
    private(set) var calendar: LocalCalendar
    let language: AppLanguage
    /// Every log line the node produced, in order.
    private(set) var logs: [(LogLevel, String)] = []
    /// Bytes the node sent and nobody has taken yet (`LinkedNodes` carries them).
    var sent: [(ConnectionID, [UInt8])] = []
    let pairingSecret: [UInt8]?

    /// A phone launched at `start` in `zone`.
    init(start: EpochMs, zone: String = "Asia/Tokyo", language: AppLanguage = .ja,
         store: MemoryStore = MemoryStore(), sink: MemoryExportFolder = MemoryExportFolder(), pairingSecret: [UInt8]? = nil) throws {
        self.store = store
        self.pairingSecret = pairingSecret
        self.sink = sink
        self.now = start
        self.language = language
        self.calendar = try #require(LocalCalendar(identifier: zone))
        engine = try Self.open(store: store, sink: sink, calendar: calendar, language: language, now: start, pairingSecret: pairingSecret)
        drain()
    }

    static func open(store: MemoryStore, sink: MemoryExportFolder, calendar: LocalCalendar, language: AppLanguage, now: EpochMs,
                     pairingSecret: [UInt8]? = nil, opening: StoreOpening = .existing) throws -> NodeEngine<PhoneApp> {
        try NodeEngine(app: PhoneApp(), role: .phone, store: store, config: LinkConfig(role: .phone, pairingSecret: pairingSecret),
                       calendar: calendar, language: language, now: now, seed: 7, newIncarnation: 101, opening: opening, exports: sink)
    }

    /// Rebuilds the node over the same store (an app restart or a crash after the last commit).
    func restart() throws {
        try restart(afterClockJump: 0)
    }

    /// Rebuilds the node after its wall clock jumped by `ms` while it was down.
    func restart(afterClockJump ms: Int64) throws {
        now += ms
        engine = try Self.open(store: store, sink: sink, calendar: calendar, language: language, now: now, pairingSecret: pairingSecret)
        sent = []
        drain()
    }

    /// Takes the engine's outputs: logs are kept, sends wait in `sent`.
    func drain() {
        for o in engine.drainOutput() {
            switch o {
            case .log(let level, let message): logs.append((level, message))
            case .send(let id, let bytes, _): sent.append((id, bytes))
            case .close, .fatal: break
            }
        }
    }

    // MARK: - Commands and queries

    /// Runs one control-channel line.
    @discardableResult
    func run(_ line: String) -> CommandReply {
        guard let command = NodeCommand(line: line) else { return .error("unclosed quote") }
        let reply = engine.command(command, now: now)
        drain()
        return reply
    }

    /// Runs a line that must succeed.
    @discardableResult
    func ok(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> CommandReply {
        let reply = run(line)
        #expect(reply.isOK, "\(line) → \(reply.text)", sourceLocation: sourceLocation)
        return reply
    }

    /// `query PATH`; nil when the node has no value there.
    func q(_ path: String) -> PlistValue? {
        let reply = run("query \(path)")
        return reply.isOK ? reply.value : nil
    }

    // MARK: - Time

    /// Moves the clock to `target`, firing every app timer on the way at its time.
    func advance(to target: EpochMs, sourceLocation: SourceLocation = #_sourceLocation) {
        var steps = 0
        while let due = engine.nextDeadline, due <= target, steps < 10_000 {
            now = max(now, due)
            engine.tick(now: now)
            drain()
            steps += 1
        }
        #expect(steps < 10_000, "timers did not settle before \(target)", sourceLocation: sourceLocation)
        now = max(now, target)
        engine.tick(now: now)
        drain()
    }

    /// Moves the clock forward by `ms`.
    func advance(by ms: Int64) { advance(to: now + ms) }

    /// The wall clock jumps by `ms`, either way (the scenario's `clock phone ±D`); the app
    /// sees it at once, with no timers fired on the way.
    func jumpClock(by ms: Int64) {
        now += ms
        engine.tick(now: now)
        drain()
    }

    /// Moves to local wall time `hour:minute` on `day` (in the current zone).
    func advance(to day: CivilDate, _ hour: Int, _ minute: Int = 0) { advance(to: calendar.instant(day, hour: hour, minute: minute)) }

    /// The device travels: the shell's `tz ZONE`.
    func setZone(_ zone: String) throws {
        calendar = try #require(LocalCalendar(identifier: zone))
        engine.setCalendar(calendar, now: now)
        drain()
    }
}

// MARK: - Fixtures

/// Instants and days for the phone tests.
enum PhoneFixture {
    static let minuteMs: Int64 = 60_000
    static let hourMs: Int64 = 3_600_000
    static let dayMs: Int64 = 86_400_000

    static func day(_ y: Int, _ m: Int, _ d: Int) -> CivilDate { CivilDate(year: y, month: m, day: d) }

    /// The instant of a local wall time in `zone`.
    static func local(_ zone: String, _ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> EpochMs {
        LocalCalendar(identifier: zone)!.instant(CivilDate(year: y, month: m, day: d), hour: h, minute: min)
    }

    /// The instant of a UTC wall time, computed without Foundation (hand-checkable).
    static func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> EpochMs {
        Int64(CivilDate(year: y, month: m, day: d).daysSinceEpoch) * dayMs + Int64(h) * hourMs + Int64(min) * minuteMs
    }
}

extension PlistValue {
    /// The value as an Int, for comparisons in tests.
    var int: Int? { intValue.map { Int($0) } }
}
