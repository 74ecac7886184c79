import PeerLinkCore

/// The app both benchmark nodes run: it drives a chain of messages, queues user info in
/// bulk, sends files, answers messages, and counts what arrives.
///
/// Every message, user info and file it receives is its own traffic (`isOwnTraffic`), as the
/// phone's and the watch's apps claim their own kinds: the node does not also announce each
/// one at the prompt as sent by hand (a `! ←` line on the control channel for each of the
/// 10,000 messages and 100,000 user infos, which the benchmark would then measure).
struct LinkBenchApp: NodeApp {
    var rttRemaining = 0
    var rttDone = 0
    /// When the current chain of messages started, and how long it took (0 until its last
    /// reply, or a failure): timed here, at the first send and the last reply, so that the
    /// benchmark's polling interval does not enter the figure (its queries are still served
    /// by this node's thread, between two messages of the chain).
    var rttStartNs: UInt64 = 0
    var rttNs: UInt64 = 0
    var received = 0
    var filesSent = 0
    var filesReceived = 0
    static let payload = [UInt8](repeating: 0x5A, count: 64)

    mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply {
        let w = command.words
        switch w.first {
        case "rtt":
            rttRemaining = Int(w.count > 1 ? w[1] : "1") ?? 1
            rttDone = 0
            rttNs = 0
            rttStartNs = monotonicNs()
            ctx.sendMessageData(Self.payload)
            return .ok()
        case "pin":
            // `pin 0|1` places this node's thread (it runs the command); `pin all` gives it back
            // the process's processors (`ThreadPlacement`).
            do {
                if w.count == 2, w[1] == "all" { try ThreadPlacement.release() } else { try ThreadPlacement.pin(end: w.count == 2 && w[1] == "1" ? 1 : 0) }
                return .ok()
            } catch {
                return .error("\(error)")
            }
        case "ui":
            let n = Int(w.count > 1 ? w[1] : "1") ?? 1
            for i in 0..<n {
                if case .failure(let e) = ctx.transferUserInfo(["i": .int(Int64(i))]) { return .error("\(e)") }
            }
            return .ok()
        case "file":
            guard w.count == 2 else { return .error("usage: file PATH") }
            if case .failure(let e) = ctx.transferFile(w[1], metadata: nil) { return .error("\(e)") }
            return .ok()
        default:
            return .error("unknown command")
        }
    }

    mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        switch event {
        case .didReceiveMessage(let m) where m.replyExpected:
            ctx.replyToMessage(m.id, with: .data(Self.payload))
        case .didReceiveMessageReply:
            rttDone += 1
            rttRemaining -= 1
            if rttRemaining > 0 { ctx.sendMessageData(Self.payload) } else { rttNs = monotonicNs() - rttStartNs }
        case .messageDidFail(_, let e):
            ctx.log(.error, "benchmark message failed: \(e)")
            rttRemaining = 0
            rttNs = max(1, monotonicNs() - rttStartNs)  // ends the wait; rttDone tells it failed
        case .didReceiveUserInfo: received += 1
        case .didFinishFileTransfer(_, nil): filesSent += 1
        case .didReceiveFile: filesReceived += 1
        default: break
        }
    }

    func isOwnTraffic(_ event: LinkEvent, _ ctx: NodeContext) -> Bool { true }

    func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        switch path.first {
        case "rttDone": .int(Int64(rttDone))
        case "rttNs": .int(Int64(rttNs))
        case "received": .int(Int64(received))
        case "outstanding": .int(Int64(ctx.session.outstandingUserInfoCount))
        case "filesSent": .int(Int64(filesSent))
        default: nil
        }
    }
}
