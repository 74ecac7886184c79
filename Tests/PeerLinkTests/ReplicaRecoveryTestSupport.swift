@testable import PeerLinkCore
@testable import FitnessDomain
@testable import CountdownDomain
import Testing

/// A trivial app: commands write records, so the tests can drive both engines.
struct RecoveryTestApp: NodeApp {
    /// It writes health samples: they are grow-only, as in the real apps.
    static let replicaSchema = ReplicaSchema.fitnessAndCountdown
    /// `goal ID TITLE`, `sample ID STEPS`, `settings FIELD INT`, `delete COLLECTION ID`.
    mutating func onCommand(_ c: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let w = c.words
        let result: Result<HLCTimestamp, ReplicaState.WriteRefusal>
        switch (w.first, w.count) {
        case ("goal", 3):
            result = ctx.put(CountdownGoal(id: w[1], title: w[2], targetAge: 40, isAgeGoal: true, createdMs: ctx.now, priority: 10))
        case ("sample", 3):
            result = ctx.put(HealthSample(id: w[1], kind: .steps, source: ctx.role, startMs: ctx.now - 60_000, endMs: ctx.now, value: Double(w[2]) ?? 0))
        case ("settings", 3):
            result = ctx.set(RecordKey(AppSettings.collection, AppSettings.recordID), [w[1]: .int(Int64(w[2]) ?? 0)])
        case ("delete", 3):
            result = ctx.delete(RecordKey(w[1], w[2]))
        default:
            return .error("unknown command")
        }
        if case .failure(let e) = result { return .error("\(e)") }
        return .ok()
    }
}

/// Two engines back to back: the bytes one sends are given to the other.
final class RecoveryEnginePair {
    var phone: NodeEngine<RecoveryTestApp>
    var watch: NodeEngine<RecoveryTestApp>?
    var now: EpochMs = 1_750_000_000_000
    var logs: [(DeviceRole, LogLevel, String)] = []
    let connection: ConnectionID = 1
    static let secret = Array(repeating: UInt8(0x5A), count: 32)

    init(phoneStore: KeyValueStore) throws {
        phone = try Self.engine(.phone, store: phoneStore, now: now, incarnation: 11)
        collect()
    }

    static func engine(_ role: DeviceRole, store: KeyValueStore, now: EpochMs, incarnation: UInt64, opening: StoreOpening = .existing) throws -> NodeEngine<RecoveryTestApp> {
        try NodeEngine(app: RecoveryTestApp(), role: role, store: store, config: LinkConfig(role: role, pairingSecret: secret),
                       calendar: LocalCalendar(identifier: "Asia/Tokyo")!, language: .ja, now: now, seed: incarnation,
                       newIncarnation: incarnation, opening: opening)
    }

    /// Runs a command and lets the engines exchange what it caused.
    func run(_ role: DeviceRole, _ line: String) {
        now += 10
        let engine = role == .phone ? phone : watch!
        let reply = engine.command(NodeCommand(line: line)!, now: now)
        #expect(reply.isOK, "\(role) \(line): \(reply.text)")
        pump()
    }

    func digest(_ role: DeviceRole) -> String {
        let engine = role == .phone ? phone : watch!
        return engine.command(NodeCommand(line: "digest")!, now: now).text
    }

    /// The watch connects to the phone.
    func connect() {
        guard let watch else { return }
        now += 10
        watch.connectStarted(now: now)
        phone.connectionOpened(connection, isInitiator: false, ephemeralKey: Array(repeating: 1, count: 32), now: now)
        watch.connectionOpened(connection, isInitiator: true, ephemeralKey: Array(repeating: 2, count: 32), now: now)
        pump()
    }

    func disconnect() {
        now += 10
        phone.connectionClosed(connection, now: now)
        watch?.connectionClosed(connection, now: now)
        pump()
    }

    /// Moves bytes until neither engine sends anything.
    func pump() {
        for _ in 0..<1_000 {
            let fromPhone = collect(phone, .phone)
            let fromWatch = watch.map { collect($0, .watch) } ?? []
            if fromPhone.isEmpty && fromWatch.isEmpty { return }
            now += 1
            if let watch { for b in fromPhone { watch.received(connection, b[...], now: now) } }
            for b in fromWatch { phone.received(connection, b[...], now: now) }
        }
        Issue.record("the engines did not go quiet")
    }

    /// Takes the outputs so far (logs kept).
    func collect() {
        _ = collect(phone, .phone)
        if let watch { _ = collect(watch, .watch) }
    }

    private func collect(_ e: NodeEngine<RecoveryTestApp>, _ role: DeviceRole) -> [[UInt8]] {
        var sends: [[UInt8]] = []
        for o in e.drainOutput() {
            switch o {
            case .send(_, let bytes, _): sends.append(bytes)
            case .log(let level, let message): logs.append((role, level, message))
            case .fatal(let m): Issue.record("\(role) fatal: \(m)")
            case .close: break
            }
        }
        return sends
    }
}
