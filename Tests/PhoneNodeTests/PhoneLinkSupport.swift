import PeerLink
import PhoneNode
import Shared
import Testing

/// A stand-in for the watch app, so the phone's tests can receive what a watch syncs without
/// depending on the WatchNode module: it writes watch samples, goal edits and workouts to the
/// replicated state and sends user info.
///
/// Commands: `sample KIND VALUE START_MS END_MS`, `rename GOAL_ID TITLE`, `delete GOAL_ID`,
/// `setting FIELD JSON`, `workout ID STATE START_MS`, `userinfo JSON`.
struct StubWatchApp: NodeApp {
    var written = 0

    mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let w = command.words
        switch w.first {
        case "sample":
            guard w.count == 5, let kind = HealthSampleKind(name: w[1]), let v = Double(w[2]), let a = Int64(w[3]), let b = Int64(w[4]) else { return .error("usage") }
            written += 1
            ctx.put(HealthSample(id: "w-\(a)-\(written)", kind: kind, source: .watch, startMs: a, endMs: b, value: v))
            return .ok()
        case "rename":
            guard w.count == 3 else { return .error("usage") }
            if case .failure(let e) = ctx.set(RecordKey(CountdownGoal.collection, w[1]), ["title": .string(w[2])]) { return .error("\(e)") }
            return .ok()
        case "delete":
            guard w.count == 2 else { return .error("usage") }
            ctx.delete(RecordKey(CountdownGoal.collection, w[1]))
            return .ok()
        case "setting":
            guard w.count == 3, let v = try? PlistValue.parseJSON(w[2]) else { return .error("usage") }
            ctx.set(RecordKey(AppSettings.collection, AppSettings.recordID), [w[1]: v])
            return .ok()
        case "workout":
            guard w.count == 4, let s = WorkoutSessionState(rawValue: w[2]), let start = Int64(w[3]) else { return .error("usage") }
            ctx.put(WorkoutRecord(id: w[1], activity: .running, location: .outdoor, state: s, startMs: start))
            return .ok()
        case "userinfo":
            guard let json = try? PlistValue.parseJSON(String(command.raw.dropFirst("userinfo ".count))) else { return .error("bad json") }
            if case .failure(let e) = ctx.transferUserInfo(json) { return .error("\(e)") }
            return .ok()
        default:
            return .error("unknown")
        }
    }
}

/// The phone harness and a stub watch linked back to back: bytes each engine sends are fed to
/// the other until both are quiet. Time does not move while linked (no heartbeats needed).
final class LinkedNodes {
    static let secret: [UInt8] = Array(repeating: 9, count: 16)
    let phone: PhoneHarness
    let watchStore = MemoryStore()
    let watch: NodeEngine<StubWatchApp>
    private var watchSent: [[UInt8]] = []
    private(set) var isLinked = false
    private var connection: ConnectionID = 0

    /// A phone at `start` in `zone` and a watch, not yet connected.
    init(start: EpochMs, zone: String = "Asia/Tokyo", language: AppLanguage = .ja) throws {
        phone = try PhoneHarness(start: start, zone: zone, language: language, pairingSecret: Self.secret)
        watch = try NodeEngine(app: StubWatchApp(), role: .watch, store: watchStore, config: LinkConfig(role: .watch, pairingSecret: Self.secret),
                               calendar: phone.calendar, language: language, now: start, seed: 3, newIncarnation: 202)
        takeWatchOutput()
    }

    /// Opens a connection (the watch dials) and exchanges until quiet.
    func connect() {
        connection += 1
        isLinked = true
        phone.engine.connectionOpened(connection, isInitiator: false, nonce: Array(repeating: 1, count: 16), now: phone.now)
        phone.drain()
        watch.connectionOpened(connection, isInitiator: true, nonce: Array(repeating: 2, count: 16), now: phone.now)
        takeWatchOutput()
        pump()
    }

    /// Both sides see the connection close (the watch leaves range).
    func disconnect() {
        isLinked = false
        phone.engine.connectionClosed(connection, now: phone.now)
        phone.drain()
        phone.sent = []
        watch.connectionClosed(connection, now: phone.now)
        takeWatchOutput()
        watchSent = []
    }

    /// Carries bytes both ways until neither side sends anything.
    func pump(sourceLocation: SourceLocation = #_sourceLocation) {
        var rounds = 0
        while isLinked, !(phone.sent.isEmpty && watchSent.isEmpty), rounds < 10_000 {
            let toWatch = phone.sent
            phone.sent = []
            for (_, bytes) in toWatch {
                watch.received(connection, bytes[...], now: phone.now)
                takeWatchOutput()
            }
            let toPhone = watchSent
            watchSent = []
            for bytes in toPhone {
                phone.engine.received(connection, bytes[...], now: phone.now)
                phone.drain()
            }
            rounds += 1
        }
        #expect(rounds < 10_000, "the link did not go quiet", sourceLocation: sourceLocation)
    }

    /// Runs a watch command, then exchanges until quiet.
    @discardableResult
    func watchRun(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> CommandReply {
        let reply = watch.command(NodeCommand(line: line)!, now: phone.now)
        #expect(reply.isOK, "watch \(line) → \(reply.text)", sourceLocation: sourceLocation)
        takeWatchOutput()
        pump(sourceLocation: sourceLocation)
        return reply
    }

    /// Runs a phone command, then exchanges until quiet.
    @discardableResult
    func phoneRun(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> CommandReply {
        let reply = phone.ok(line, sourceLocation: sourceLocation)
        pump(sourceLocation: sourceLocation)
        return reply
    }

    private func takeWatchOutput() {
        for o in watch.drainOutput() {
            if case .send(_, let bytes) = o, isLinked { watchSent.append(bytes) }
        }
    }

    /// True when both replicas hold the same state.
    var converged: Bool { phone.engine.ctx.replica.digestHex() == watch.ctx.replica.digestHex() }
}
