import Testing
@testable import PeerLinkCore

@Suite("Messages")
struct LinkMessageTests {
    static func outcomes(_ p: SessionPair, _ id: MessageID) -> [LinkEvent] {
        p.events(.watch) {
            switch $0 {
            case .didReceiveMessageReply(let m, _), .messageDidFail(let m, _): m == id
            default: false
            }
        }
    }

    @Test func replyComesBackAsExactlyOneEvent() {
        var p = SessionPair.connected()
        p.phoneReplies = { m in .dictionary(["echo": m.payload == .dictionary(["q": 1]) ? "yes" : "no"]) }
        let id = p.watch.sendMessage(["q": 1], now: p.now)
        p.collect()
        p.run()
        #expect(Self.outcomes(p, id) == [.didReceiveMessageReply(id, .dictionary(["echo": "yes"]))])
        p.advance(10_000)
        #expect(Self.outcomes(p, id).count == 1)
    }

    @Test func noReplyWithinTheTimeoutGivesMessageReplyTimedOut() {
        var p = SessionPair.connected { $0.messageReplyTimeoutMs = 3_000 }
        let id = p.watch.sendMessage(["q": 1], now: p.now)
        p.collect()
        p.run()  // the phone app does not answer
        p.advance(2_999)
        #expect(Self.outcomes(p, id).isEmpty)
        p.advance(1)
        guard case .messageDidFail(_, let e)? = Self.outcomes(p, id).first else { Issue.record("no failure"); return }
        #expect(e.code == .messageReplyTimedOut)
        // A reply after the timeout is ignored: still exactly one outcome.
        _ = p.phone.replyToMessage(id, with: .dictionary([:]))
        p.collect()
        p.run()
        #expect(Self.outcomes(p, id).count == 1)
    }

    @Test func messageToUnreachablePeerFailsWithNotReachableAndSendsNothing() {
        var p = SessionPair()
        let id = p.watch.sendMessage(["q": 1], now: p.now)
        p.collect()
        #expect(p.wire.isEmpty)
        #expect(failCodes(Self.outcomes(p, id)) == [.notReachable])
    }

    @Test func phoneSeesWatchUnreachableWhenWatchAppIsInBackground() {
        var p = SessionPair.connected()
        #expect(p.phone.isReachable)
        p.watch.setLocalAppState(AppState(isRunning: true, isForeground: false))
        p.collect()
        p.run()
        #expect(!p.watch.isReachable)
        #expect(!p.phone.isReachable)
        #expect(p.phoneEvents.contains(.reachabilityDidChange(false)))
        // A workout keeps the watch app reachable in the background.
        p.watch.setLocalAppState(AppState(isRunning: true, isForeground: false, workoutActive: true))
        p.collect()
        p.run()
        #expect(p.watch.isReachable && p.phone.isReachable)
    }

    @Test func watchMessageWakesThePhoneAppInTheBackground() {
        var p = SessionPair.connected()
        p.phone.setLocalAppState(AppState(isRunning: false, isForeground: false))
        p.collect()
        p.run()
        #expect(p.watch.isReachable)  // the watch's reachability ignores the phone app
        let id = p.watch.sendMessage(["wake": true], replyExpected: false, now: p.now)
        p.collect()
        p.run()
        #expect(p.phone.localAppState.isRunning && !p.phone.localAppState.isForeground)
        #expect(p.phoneEvents.contains(.appDidWakeInBackground))
        #expect(p.phoneEvents.contains(.didReceiveMessage(IncomingMessage(id: id, payload: .dictionary(["wake": true]), replyExpected: false))))
        #expect(Self.outcomes(p, id).isEmpty)  // no reply handler, delivered: no callback
        #expect(p.phone.pendingMessages.isEmpty && p.watch.pendingMessages.isEmpty)
    }

    @Test func phoneMessageDoesNotWakeTheWatchApp() {
        var p = SessionPair.connected()
        // The phone still believes the watch app is in front when it sends.
        let id = p.phone.sendMessage(["x": 1], now: p.now)
        p.watch.setLocalAppState(AppState(isRunning: false, isForeground: false))
        p.collect()
        p.run()
        #expect(!p.watch.localAppState.isRunning)
        #expect(p.watchEvents.allSatisfy { if case .didReceiveMessage = $0 { false } else { true } })
        let fails = p.events(.phone) { if case .messageDidFail(id, let e) = $0 { e.code == .notReachable } else { false } }
        #expect(fails.count == 1)
    }

    @Test func messagesAreDeliveredInOrderAndAnOvertakenOneFailsInsteadOfArrivingLate() {
        var p = SessionPair.connected()
        let a = p.watch.sendMessage(["n": 1], now: p.now)
        let b = p.watch.sendMessage(["n": 2], now: p.now)
        p.collect()
        let fa = p.wire.removeFirst(), fb = p.wire.removeFirst()
        p.deliver(fb.to, fb.frame)  // b overtakes a
        p.deliver(fa.to, fa.frame)
        p.run()
        let received = p.phoneEvents.compactMap { if case .didReceiveMessage(let m) = $0 { m.id } else { nil } }
        #expect(received == [b])
        #expect(failCodes(Self.outcomes(p, a)) == [.deliveryFailed])
        #expect(p.phone.stats.messagesDroppedOutOfOrder == 1)
    }

    @Test func duplicatedMessageFrameIsDeliveredOnce() {
        var p = SessionPair.connected()
        p.phoneReplies = { _ in .data([1]) }
        let id = p.watch.sendMessageData([9, 9], now: p.now)
        p.collect()
        p.wire.append(p.wire[0])
        p.run()
        #expect(p.phoneEvents.filter { if case .didReceiveMessage = $0 { true } else { false } }.count == 1)
        #expect(Self.outcomes(p, id) == [.didReceiveMessageReply(id, .data([1]))])
    }

    @Test func linkLossFailsPendingMessagesOnce() {
        var p = SessionPair.connected()
        let id = p.watch.sendMessage(["q": 1], now: p.now)
        p.collect()
        p.disconnect()
        p.advance(10_000)
        #expect(failCodes(Self.outcomes(p, id)) == [.notReachable])
    }

    @Test func oversizedReplyFailsForBothSides() {
        var p = SessionPair.connected()
        let id = p.watch.sendMessage(["q": 1], now: p.now)
        p.collect()
        p.run()
        let r = p.phone.replyToMessage(id, with: .data([UInt8](repeating: 0, count: PayloadLimits.messageBytes)))
        #expect(failCode(r) == .payloadTooLarge)
        p.collect()
        p.run()
        #expect(failCodes(Self.outcomes(p, id)) == [.messageReplyFailed])
    }
}
