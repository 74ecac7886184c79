import PeerLinkCore
import PeerLinkSim
import FitnessDomain
import CountdownDomain
import Testing

@testable import WatchNode

// MARK: - A stand-in phone

/// A minimal phone app for link tests: it writes what a phone would write, sends what a
/// phone would send (messages, complication user info, contexts), and records what the watch
/// sends it (messages, replies, failures, files — kept under `kept/`).
struct TestPhoneApp: NodeApp {
    /// The real watch's peer: the same schema.
    static let replicaSchema = ReplicaSchema.fitnessAndCountdown
    /// Messages the watch sent, in order.
    var messages: [PlistValue] = []
    /// Replies to our messages, by message id.
    var replies: [MessageID: MessagePayload] = [:]
    /// Our messages that failed, by message id.
    var failures: [MessageID: WCErrorCode] = [:]
    /// Files the watch sent, kept at these paths.
    var files: [ReceivedFile] = []
    /// The outcome of each `push`: `complication`, `ordinary` or an error code name.
    var pushes: [String] = []

    mutating func onCommand(_ c: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let w = c.words
        func json() -> PlistValue? { try? PlistValue.parseJSON(String(c.raw.dropFirst(w[0].count + 1))) }
        switch w.first {
        case "goal":
            ctx.set(RecordKey(AppSettings.collection, AppSettings.recordID), ["stepGoal": .int(Int64(w[1])!)])
        case "steps":
            // steps N MINUTES: a phone sample of N steps over the last MINUTES minutes.
            let n = Double(w[1])!, minutes = Int64(w[2])!
            ctx.put(HealthSample(id: "phone.steps.\(ctx.now)", kind: .steps, source: .phone,
                                 startMs: ctx.now - minutes * 60_000, endMs: ctx.now, value: n))
        case "countdown":
            // countdown ID TITLE YYYY-MM-DD
            ctx.put(CountdownGoal(id: w[1], title: w[2], targetDate: CivilDate(iso: w[3]), isAgeGoal: false,
                                  createdMs: ctx.now, priority: 0))
        case "send":
            // send JSON: an ordinary user-info transfer.
            guard let v = json() else { return .error("bad json") }
            if case .failure(let e) = ctx.transferUserInfo(v) { return .error("\(e)") }
        case "message":
            // message JSON: sendMessage expecting a reply; the reply value is the message id.
            guard let v = json() else { return .error("bad json") }
            return .ok(.int(Int64(ctx.sendMessage(v, replyExpected: true))))
        case "data":
            return .ok(.int(Int64(ctx.sendMessageData([1, 2, 3], replyExpected: true))))
        case "push":
            // push JSON: transferCurrentComplicationUserInfo.
            guard let v = json() else { return .error("bad json") }
            switch ctx.transferCurrentComplicationUserInfo(v) {
            case .success(let t): pushes.append(t.isCurrentComplicationInfo ? "complication" : "ordinary")
            case .failure(let e): pushes.append(e.code.name)
            }
        case "context":
            guard let v = json() else { return .error("bad json") }
            if case .failure(let e) = ctx.updateApplicationContext(v) { return .error("\(e)") }
        default:
            return .error("unknown")
        }
        return .ok()
    }

    mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        switch event {
        case .didReceiveMessage(let m):
            if case .dictionary(let d) = m.payload { messages.append(.dictionary(d)) }
            if m.replyExpected { ctx.replyToMessage(m.id, with: .dictionary(["ok": true])) }
        case .didReceiveMessageReply(let id, let payload):
            replies[id] = payload
        case .messageDidFail(let id, let e):
            failures[id] = e.code
        case .didReceiveFile(let f):
            ctx.moveReceivedFile(f, to: "kept/\(f.name)")
            files.append(f)
        default:
            break
        }
    }

    /// The live-metrics messages received.
    var liveMetrics: [PlistValue] { messages.filter { $0["type"]?.stringValue == MirrorPayload.type } }
}

// MARK: - The simulated network

typealias WatchNetwork = SimulatedNetwork<TestPhoneApp, WatchApp>

/// A stand-in phone and the watch app on the simulated network (virtual clock, seeded).
func makeWatchNetwork(seed: UInt64 = 1, start: EpochMs = morning, configure: (inout LinkConfig) -> Void = { _ in })
    throws -> WatchNetwork
{
    var pc = LinkConfig(role: .phone, pairingSecret: testSecret)
    var wc = LinkConfig(role: .watch, pairingSecret: testSecret)
    configure(&pc)
    configure(&wc)
    let net = try WatchNetwork(
        seed: seed, startMs: start,
        phone: .init(makeApp: { TestPhoneApp() }, config: pc, calendar: tokyo, language: .en),
        watch: .init(makeApp: { WatchApp() }, config: wc, calendar: tokyo, language: .en))
    net.runUntilQuiet()
    return net
}

extension SimulatedNetwork where Watch == WatchApp {
    /// A watch command that must succeed, then the network until quiet.
    @discardableResult
    func onWatch(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> CommandReply {
        let r = command(.watch, line)
        #expect(r.isOK, "watch \(line) → \(r.text)", sourceLocation: sourceLocation)
        runUntilQuiet(maxMs: 60_000)
        return r
    }

    /// `query PATH` on the watch; nil when it has no value.
    func watchValue(_ path: String) -> PlistValue? {
        let r = command(.watch, "query " + path)
        return r.isOK ? r.value : nil
    }
}
