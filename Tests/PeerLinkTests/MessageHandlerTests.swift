import Testing
@testable import PeerLinkCore

/// `sendMessage(_:reply:error:)`: Apple's handler form. Exactly one handler runs, in a later
/// event, and the app's delegate (`onLinkEvent`) does not also get the outcome.
@Suite("Message reply and error handlers")
struct MessageHandlerTests {
    /// Handlers that record what they were called with in the app's local state.
    static let reply: MessageHandlers.Reply = { payload, ctx in
        let n = ctx.local["replies"]?.intValue ?? 0
        ctx.setLocal("replies", .int(n + 1))
        if case .dictionary(let d) = payload { ctx.setLocal("reply", .dictionary(d)) }
        if case .data(let b) = payload { ctx.setLocal("reply", .data(b)) }
    }
    static let failure: MessageHandlers.Failure = { e, ctx in
        let n = ctx.local["errors"]?.intValue ?? 0
        ctx.setLocal("errors", .int(n + 1))
        ctx.setLocal("error", .int(Int64(e.code.rawValue)))
    }

    static func outcomeEvents(_ app: RecorderApp) -> Int {
        app.events.filter {
            switch $0 {
            case .didReceiveMessageReply, .messageDidFail: true
            default: false
            }
        }.count
    }

    @Test func theReplyGoesToTheReplyHandlerOnly() throws {
        let net = try makeNetwork(seed: 1)
        net.advance(by: 1_000)
        #expect(net.watch.ctx.isReachable)
        net.withWatch { ctx in
            ctx.sendMessage(["q": "pace"], reply: Self.reply, error: Self.failure)
            #expect(ctx.local["replies"] == nil, "never called inside the call")
        }
        #expect(net.runUntilQuiet())
        #expect(net.watch.ctx.local["replies"] == .int(1))
        #expect(net.watch.ctx.local["reply"] == ["q": "pace"], "the phone's recorder echoes the message")
        #expect(net.watch.ctx.local["errors"] == nil)
        #expect(Self.outcomeEvents(net.watch.app) == 0, "the delegate does not also get it")
        #expect(net.watch.ctx.messageHandlers.isEmpty)
    }

    @Test func dataMessagesTakeHandlersToo() throws {
        let net = try makeNetwork(seed: 2)
        net.advance(by: 1_000)
        net.withWatch { ctx in _ = ctx.sendMessageData([1, 2, 3], reply: Self.reply, error: Self.failure) }
        #expect(net.runUntilQuiet())
        #expect(net.watch.ctx.local["reply"] == .data([1, 2, 3]))
        #expect(net.watch.ctx.local["errors"] == nil)
    }

    @Test func anUnreachablePeerCallsTheErrorHandlerOnce() throws {
        let net = try makeNetwork(seed: 3)
        net.advance(by: 1_000)
        net.setLink(up: false)
        net.advance(by: 60_000)
        #expect(!net.watch.ctx.isReachable)
        net.withWatch { ctx in
            ctx.sendMessage(["q": "pace"], reply: Self.reply, error: Self.failure)
            #expect(ctx.local["errors"] == nil, "never called inside the call")
        }
        #expect(net.runUntilQuiet())
        #expect(net.watch.ctx.local["errors"] == .int(1))
        #expect(net.watch.ctx.local["error"] == .int(Int64(WCErrorCode.notReachable.rawValue)))
        #expect(net.watch.ctx.local["replies"] == nil)
        #expect(Self.outcomeEvents(net.watch.app) == 0)
    }

    @Test func anOversizedMessageFailsThroughItsErrorHandler() throws {
        let net = try makeNetwork(seed: 4)
        net.advance(by: 1_000)
        net.withWatch { ctx in
            _ = ctx.sendMessage(["blob": .data(Array(repeating: 7, count: 70_000))], reply: Self.reply, error: Self.failure)
        }
        #expect(net.runUntilQuiet())
        #expect(net.watch.ctx.local["error"] == .int(Int64(WCErrorCode.payloadTooLarge.rawValue)))
        #expect(net.watch.ctx.local["errors"] == .int(1))
    }

    @Test func withoutAReplyHandlerNoReplyIsAskedFor() throws {
        let net = try makeNetwork(seed: 5)
        net.advance(by: 1_000)
        net.withWatch { ctx in _ = ctx.sendMessage(["q": "fire and forget"], reply: nil, error: Self.failure) }
        #expect(net.runUntilQuiet())
        let got = net.phone.app.events.compactMap { if case .didReceiveMessage(let m) = $0 { m } else { nil } }
        #expect(got.count == 1 && got[0].replyExpected == false)
        #expect(net.watch.ctx.local["errors"] == nil && net.watch.ctx.local["replies"] == nil)
    }

    @Test func transfersCancelThemselvesInTheirSession() throws {
        let net = try makeNetwork(seed: 6)
        net.advance(by: 1_000)
        net.setLink(up: false)
        net.advance(by: 60_000)
        let t = try net.withPhone { $0.transferUserInfo(["n": 1]) }.get()
        #expect(net.withPhone { t.cancel(in: &$0) })
        #expect(net.phone.ctx.outstandingUserInfoTransfers.isEmpty)
        #expect(!net.withPhone { t.cancel(in: &$0) })
    }

    @Test func theReplicasOwnDeltasAreNeitherListedNorCancellable() throws {
        let net = try makeNetwork(seed: 7)
        net.advance(by: 1_000)
        net.faults.latencyMs = 50
        net.withPhone { _ = $0.set(RecordKey("notes", "n1"), ["text": "hi"]) }
        let all = net.phone.ctx.session.outstandingUserInfoTransfers
        #expect(all.contains { $0.userInfo[NodeContext.replicaSyncKey] != nil }, "the delta waits in the outbox")
        #expect(net.phone.ctx.outstandingUserInfoTransfers.isEmpty, "but it is not the app's")
        let delta = all.first { $0.userInfo[NodeContext.replicaSyncKey] != nil }!
        #expect(!net.withPhone { $0.cancel(delta) })
        #expect(net.runUntilQuiet())
        #expect(net.watch.ctx.replica.fields(RecordKey("notes", "n1"))?["text"] == "hi")
    }
}
