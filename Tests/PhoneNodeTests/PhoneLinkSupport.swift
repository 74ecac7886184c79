import PeerLinkCore
import FitnessDomain
import CountdownDomain
import PhoneNode
import Testing

/// A stand-in for the watch app, so the phone's tests can receive what a watch syncs and
/// sends without depending on the WatchNode module: it writes watch samples, goal edits and
/// workouts to the replicated state, sends user info, messages and sample files, and records
/// what the phone sends it.
///
/// Commands: `sample KIND VALUE START_MS END_MS`, `rename GOAL_ID TITLE`, `delete GOAL_ID`,
/// `setting FIELD JSON`, `workout ID STATE START_MS`, `userinfo JSON`, `message JSON` (no reply
/// expected), `samplefile WORKOUT_ID N [cut]` (a `WorkoutSampleFile` of N heart-rate samples, sent
/// with `transferFile`; `cut`: without its last byte), `app foreground|background`, `face on|off` (the complication on the
/// active face), `session on|off` (a workout session keeps the app active, as reported in
/// its app state), `answers on|off` (reply to the phone's messages).
struct StubWatchApp: NodeApp {
    /// The real phone's peer: the same schema.
    static let replicaSchema = ReplicaSchema.fitnessAndCountdown
    var written = 0
    var foreground = true
    var face = true
    var session = false
    var answers = true
    /// Messages the phone sent, in order.
    var messages: [PlistValue] = []
    /// User info the phone sent (not the sync layer's), with its complication flag.
    var userInfo: [(info: PlistValue, isComplication: Bool)] = []
    /// The sample files sent, by workout id.
    var sentFiles: [String: WorkoutSampleFile] = [:]

    mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let w = command.words
        func json() -> PlistValue? { try? PlistValue.parseJSON(String(command.raw.dropFirst(w[0].count + 1))) }
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
            guard let v = json() else { return .error("bad json") }
            if case .failure(let e) = ctx.transferUserInfo(v) { return .error("\(e)") }
            return .ok()
        case "message":
            guard let v = json() else { return .error("bad json") }
            return .ok(.int(Int64(ctx.sendMessage(v, replyExpected: false))))
        case "samplefile":
            guard w.count == 3 || (w.count == 4 && w[3] == "cut"), let n = Int(w[2]) else { return .error("usage: samplefile WORKOUT_ID N [cut]") }
            let file = Self.sampleFile(workoutID: w[1], count: n, startMs: ctx.now - Int64(n) * 1_000)
            let bytes = w.count == 4 ? Array(file.encode().dropLast()) : file.encode()
            let path = "outgoing/\(file.fileName)"
            ctx.perform(.writeFile(path: path, bytes: bytes))
            sentFiles[w[1]] = file
            switch ctx.transferFile(path, metadata: file.metadata(for: bytes)) {
            case .success(let t): return .ok(.string(t.id))
            case .failure(let e): return .error("\(e)")
            }
        case "app", "face", "session", "answers":
            guard w.count == 2 else { return .error("usage") }
            if w[0] == "app" { foreground = w[1] == "foreground" }
            if w[0] == "face" { face = w[1] == "on" }
            if w[0] == "session" { session = w[1] == "on" }
            if w[0] == "answers" { answers = w[1] == "on" }
            ctx.setAppState(AppState(isRunning: foreground || session, isForeground: foreground, workoutActive: session, complicationEnabled: face))
            return .ok()
        default:
            return .error("unknown")
        }
    }

    mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        switch event {
        case .didReceiveMessage(let m):
            if case .dictionary(let d) = m.payload { messages.append(.dictionary(d)) }
            if m.replyExpected && answers { ctx.replyToMessage(m.id, with: .dictionary(["ok": true])) }
        case .didReceiveUserInfo(let info, let isComplication):
            userInfo.append((info, isComplication))
        default:
            break
        }
    }

    /// A workout of `count` heart-rate samples a second apart from `startMs`.
    static func sampleFile(workoutID: String, count: Int, startMs: EpochMs) -> WorkoutSampleFile {
        let samples = (0..<count).map { i in
            HealthSample(id: WorkoutSampleFile.sampleID(workoutID: workoutID, index: i), kind: .heartRate, source: .watch,
                         startMs: startMs + Int64(i) * 1_000, endMs: startMs + Int64(i) * 1_000, value: Double(120 + i % 40))
        }
        var record = WorkoutRecord(id: workoutID, activity: .running, location: .outdoor, state: .ended, startMs: startMs)
        record.endMs = startMs + Int64(count) * 1_000
        record.heartRateSampleCount = count
        return WorkoutSampleFile(record: record, samples: samples)
    }
}

/// The phone harness and a stub watch linked back to back: bytes each engine sends are fed to
/// the other until both are quiet. Time does not move while linked (no heartbeats needed).
final class LinkedNodes {
    static let secret: [UInt8] = Array(repeating: 9, count: 32)
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
        phone.engine.connectionOpened(connection, isInitiator: false, ephemeralKey: Array(repeating: 1, count: 32), now: phone.now)
        phone.drain()
        watch.connectionOpened(connection, isInitiator: true, ephemeralKey: Array(repeating: 2, count: 32), now: phone.now)
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
            if case .send(_, let bytes, _) = o, isLinked { watchSent.append(bytes) }
        }
    }

    /// True when both replicas hold the same state.
    var converged: Bool { phone.engine.ctx.replica.digestHex() == watch.ctx.replica.digestHex() }
}
