@testable import PeerLinkCore
@testable import PeerLinkSim

/// A test app: records link events, answers messages, and keeps a durable log of the user
/// info it received (committed with the session's receive log, so it survives crashes).
struct RecorderApp: NodeApp {
    var events: [LinkEvent] = []
    var answersMessages = true
    var keepsFilesIn: String?

    mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        switch command.words.first {
        case "send":
            // send N: N user-info transfers {"n": i}
            let n = Int(command.words.dropFirst().first ?? "1") ?? 1
            let start = Int(ctx.local["sent"]?.intValue ?? 0)
            for i in 0..<n { _ = ctx.transferUserInfo(["n": .int(Int64(start + i))]) }
            ctx.setLocal("sent", .int(Int64(start + n)))
            return .ok(.int(Int64(start + n)))
        case "cancelall":
            // cancelall: cancel() of every outstanding user-info transfer
            let outstanding = ctx.outstandingUserInfoTransfers
            return .ok(.int(Int64(outstanding.filter { $0.cancel(in: &ctx) }.count)))
        case "msg":
            return .ok(.int(Int64(ctx.sendMessage(["q": .string(command.words.dropFirst().first ?? "")]))))
        case "ctx":
            guard command.words.count == 3 else { return .error("usage: ctx KEY VALUE") }
            if case .failure(let e) = ctx.updateApplicationContext([command.words[1]: .string(command.words[2])]) { return .error("\(e)") }
            return .ok()
        case "file":
            guard command.words.count == 2 else { return .error("usage: file PATH") }
            switch ctx.transferFile(command.words[1], metadata: ["name": .string(command.words[1])]) {
            case .success(let t): return .ok(.string(t.id))
            case .failure(let e): return .error("\(e)")
            }
        default:
            return .error("unknown command")
        }
    }

    func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        switch path.first {
        case "received": return .int(ctx.local["received.count"]?.intValue ?? 0)
        case "finished":
            // The `n` of every user-info transfer reported finished without error, in order.
            return .array(events.compactMap { if case .didFinishUserInfoTransfer(let t, nil) = $0 { t.userInfo["n"] } else { nil } })
        case "receivedN": return .array(RecorderApp.received(ctx).compactMap { $0["n"] })
        case "replies": return .int(Int64(events.filter { if case .didReceiveMessageReply = $0 { true } else { false } }.count))
        case "failures": return .int(Int64(events.filter { if case .messageDidFail = $0 { true } else { false } }.count))
        case "filesSent": return .int(Int64(events.filter { if case .didFinishFileTransfer(_, nil) = $0 { true } else { false } }.count))
        case "filesReceived": return .int(Int64(events.filter { if case .didReceiveFile = $0 { true } else { false } }.count))
        case "context": return .dictionary(ctx.receivedApplicationContext)
        case "outstanding": return .int(Int64(ctx.outstandingUserInfoTransfers.count + ctx.outstandingFileTransfers.count))
        default: return nil
        }
    }

    mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        events.append(event)
        switch event {
        case .didReceiveMessage(let m) where m.replyExpected && answersMessages:
            ctx.replyToMessage(m.id, with: m.payload)
        case .didReceiveUserInfo(let v, _):
            let count = ctx.local["received.count"]?.intValue ?? 0
            ctx.setLocal("received.\(count)", v)
            ctx.setLocal("received.count", .int(count + 1))
        case .didReceiveFile(let f):
            if let dir = keepsFilesIn { ctx.moveReceivedFile(f, to: dir + "/" + f.name) }
        default:
            break
        }
    }

    /// The user info received so far, from the durable log.
    static func received(_ ctx: NodeContext) -> [PlistValue] {
        let count = ctx.local["received.count"]?.intValue ?? 0
        return (0..<count).map { ctx.local["received.\($0)"]! }
    }
}

typealias TestNetwork = SimulatedNetwork<RecorderApp, RecorderApp>

/// A paired phone and watch on the simulated network.
func makeNetwork(seed: UInt64, configure: (inout LinkConfig) -> Void = { _ in }, keepFiles: Bool = false) throws -> TestNetwork {
    let secret = Array(repeating: UInt8(5), count: 32)
    var pc = LinkConfig(role: .phone, pairingSecret: secret)
    var wc = LinkConfig(role: .watch, pairingSecret: secret)
    configure(&pc)
    configure(&wc)
    let cal = LocalCalendar(identifier: "Asia/Tokyo")!
    return try TestNetwork(seed: seed, startMs: 1_780_000_000_000,
                           phone: .init(makeApp: { var a = RecorderApp(); if keepFiles { a.keepsFilesIn = "kept" }; return a }, config: pc, calendar: cal),
                           watch: .init(makeApp: { RecorderApp() }, config: wc, calendar: cal))
}
