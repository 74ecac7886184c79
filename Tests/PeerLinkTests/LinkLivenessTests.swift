import Testing
@testable import PeerLinkCore

@Suite("Liveness, activation and pending content")
struct LinkLivenessTests {
    @Test func heartbeatIsSentAfterTheIntervalAndCarriesTheAppState() {
        var p = SessionPair.connected()
        p.advance(p.watch.config.heartbeatIntervalMs - 1)
        #expect(p.wire.isEmpty)
        p.advance(1)
        let pings = p.wire.filter { $0.frame.kind == .ping }
        #expect(pings.count == 2 && pings.allSatisfy { $0.frame.body.count == 1 })
        p.run()
        #expect(p.phone.isConnected && p.watch.isConnected)
    }

    @Test func silentPeerIsDeclaredUnreachableAfterTheSilenceTimeout() {
        var p = SessionPair.connected()
        #expect(p.watch.isReachable)
        var elapsed: EpochMs = 0
        while p.watch.isConnected && elapsed < 60_000 {
            p.advance(100)
            p.wire.removeAll()  // everything is lost: the peer is silent
            elapsed += 100
        }
        #expect(elapsed == p.watch.config.peerSilenceTimeoutMs)
        #expect(!p.watch.isReachable)
        #expect(p.watchEvents.contains(.reachabilityDidChange(false)))
        #expect(p.closed.contains { $0.0 == .watch && $0.1 == "peer silent" })
    }

    @Test func reconnectBacksOffExponentiallyWithSeededJitterAndACap() {
        func delays(seed: UInt64) -> [EpochMs] {
            var s = LinkSession(config: LinkConfig(role: .watch, pairingSecret: [1]), persistent: LinkPersistent(incarnation: 5), seed: seed)
            var now: EpochMs = 0
            var out: [EpochMs] = []
            for _ in 0..<12 {
                s.onConnectAttemptStarted()
                s.onConnectAttemptFailed(now: now)
                let next = s.nextConnectAtMs!
                out.append(next - now)
                now = next
            }
            return out
        }
        let a = delays(seed: 7), b = delays(seed: 7), c = delays(seed: 8)
        #expect(a == b, "same seed, same delays")
        #expect(a != c, "the jitter depends on the seed")
        let config = LinkConfig(role: .watch, pairingSecret: nil)
        for (i, d) in a.enumerated() {
            let base = min(Double(config.reconnectMaxMs), Double(config.reconnectInitialMs) * Double(1 << i))
            #expect(Double(d) >= (base * (1 - config.reconnectJitter)).rounded(.down) - 1, "attempt \(i): \(d)")
            #expect(d <= config.reconnectMaxMs, "attempt \(i): \(d) over the cap")
        }
        #expect(a[0] < a[3] && a[3] < a[6])
        #expect(a.suffix(4).allSatisfy { $0 >= 24_000 })
    }

    @Test func aConnectionThatStayedUpResetsTheBackoff() {
        var p = SessionPair()
        for _ in 0..<5 { p.watch.onConnectAttemptStarted(); p.watch.onConnectAttemptFailed(now: p.now) }
        #expect(p.watch.nextConnectAtMs! - p.now > 3_000)
        p.collect()
        p.connect()
        p.run()
        for _ in 0..<Int(p.watch.config.stableConnectionMs / 1_000) { p.advance(1_000); p.run() }
        #expect(p.watch.isConnected)
        p.disconnect()
        #expect(p.watch.nextConnectAtMs! - p.now <= 300)
    }

    /// A link broken right after every handshake (a relay that tampers with each connection)
    /// is not retried at the first delay each time: the backoff goes on growing.
    @Test func aConnectionDroppedSoonAfterItsHandshakeKeepsTheBackoffGrowing() {
        var p = SessionPair()
        var delays: [EpochMs] = []
        for _ in 0..<6 {
            p.connect()
            p.run()
            #expect(p.watch.isConnected)
            p.disconnect()
            delays.append(p.watch.nextConnectAtMs! - p.now)
        }
        #expect(delays.last! > 4 * delays.first!, "delays \(delays)")
    }

    @Test func watchSwitchMakesThePhoneSessionInactiveThenDeactivated() throws {
        var p = SessionPair.connected()
        let id = p.phone.sendMessage(["x": 1], now: p.now)
        let switched = p.phone.switchPairedWatch(now: p.now)
        #expect(switched)
        p.collect()
        let order = p.phoneEvents.filter {
            switch $0 {
            case .sessionDidBecomeInactive, .sessionDidDeactivate, .messageDidFail: true
            default: false
            }
        }
        #expect(order == [.sessionDidBecomeInactive, .messageDidFail(id, WCError(.sessionInactive, "the session became inactive")), .sessionDidDeactivate])
        #expect(p.phone.activationState == .notActivated && !p.phone.isConnected && !p.phone.isPaired)
        #expect(failCode(p.phone.transferUserInfo(["a": 1], now: p.now)) == .sessionNotActivated)
        p.phone.activate()
        #expect(p.phone.activationState == .activated)
        var w = p.watch
        let watchSwitched = w.switchPairedWatch(now: p.now)
        #expect(!watchSwitched, "watchOS has no inactive state")
    }

    @Test func watchStateIsMeaningfulOnlyWhenActivatedAndChangesAreReported() {
        var p = SessionPair()
        #expect(p.phone.isPaired && !p.phone.isWatchAppInstalled)
        p.connect()
        p.run()
        #expect(p.phone.isWatchAppInstalled)
        #expect(p.phoneEvents.filter { $0 == .watchStateDidChange }.count >= 1)
        let s = LinkSession(config: LinkConfig(role: .phone, pairingSecret: [1]), persistent: LinkPersistent(incarnation: 1), seed: 1)
        #expect(!s.isPaired && !s.isWatchAppInstalled && !s.isComplicationEnabled)
    }

    @Test func aChangedPeerAppStateIsReportedOncePerChangeAndAtEachConnection() {
        var p = SessionPair.connected()
        func reports() -> [AppState] {
            p.phoneEvents.compactMap { if case .peerAppStateDidChange(let s) = $0 { s } else { nil } }
        }
        #expect(reports() == [AppState()], "the handshake's state")
        p.watch.setLocalAppState(AppState(workoutActive: true))
        p.collect()
        p.run()
        for _ in 0..<3 {  // pings and pongs repeat the state
            p.advance(p.watch.config.heartbeatIntervalMs)
            #expect(p.wire.contains { $0.frame.kind == .ping })
            p.run()
        }
        #expect(reports() == [AppState(), AppState(workoutActive: true)])
        p.disconnect()
        p.watch.setLocalAppState(AppState(workoutActive: false))
        p.collect()
        p.connect()
        p.run()
        #expect(reports().last == AppState(), "a new connection reports the state it finds")
    }

    @Test func contentArrivingWhileTheAppIsNotRunningWaitsAndSurvivesARestart() throws {
        var p = SessionPair.connected()
        p.phone.setLocalAppState(AppState(isRunning: false, isForeground: false))
        p.collect()
        _ = try p.watch.transferUserInfo(["n": 1], now: p.now).get()
        _ = try p.watch.updateApplicationContext(["c": 1], now: p.now).get()
        _ = try p.watch.updateApplicationContext(["c": 2], now: p.now).get()
        _ = try p.watch.transferUserInfo(["n": 2], now: p.now).get()
        p.collect()
        p.run()
        #expect(p.phone.hasContentPending)
        #expect(p.userInfos(.phone).isEmpty)
        #expect(p.watch.outstandingUserInfoCount == 0, "acknowledged: durable in the phone's inbox")
        #expect(p.phoneStore.count(LinkPersistence.inbox) == 3, "two user infos and only the newest context")
        // The phone process restarts: the app launches and gets what waited, once.
        try p.restart(.phone)
        #expect(!p.phone.hasContentPending)
        let delivered = p.phoneEvents.compactMap { e -> String? in
            switch e {
            case .didReceiveUserInfo(let v, _): "u\(v["n"]!.intValue!)"
            case .didReceiveApplicationContext(let v): "c\(v["c"]!.intValue!)"
            default: nil
            }
        }
        #expect(delivered == ["u1", "c2", "u2"], "arrival order; the older context was replaced")
        #expect(p.phoneStore.count(LinkPersistence.inbox) == 0)
    }
}

extension LinkLivenessTests {
    @Test func launchingTheAppDeliversPendingContentInArrivalOrder() throws {
        var p = SessionPair.connected()
        p.watch.setLocalAppState(AppState(isRunning: false, isForeground: false))
        p.collect()
        p.run()
        _ = try p.phone.transferUserInfo(["n": 1], now: p.now).get()
        _ = try p.phone.transferUserInfo(["n": 2], now: p.now).get()
        p.collect()
        p.run()
        #expect(p.watch.hasContentPending && p.userInfos(.watch).isEmpty)
        p.watch.setLocalAppState(AppState(isRunning: true, isForeground: true))
        p.collect()
        #expect(!p.watch.hasContentPending)
        #expect(p.userInfos(.watch) == [["n": 1], ["n": 2]])
    }
}

extension LinkLivenessTests {
    @Test func streamingForLongerThanTheSilenceTimeoutKeepsTheLinkUp() {
        var p = SessionPair.connected()
        // The watch streams user info for 20 s; the phone only acknowledges.
        for i in 0..<200 {
            _ = p.watch.transferUserInfo(["i": .int(Int64(i))], now: p.now)
            p.collect()
            p.run()
            p.advance(100)
            p.run()
        }
        #expect(p.watch.isConnected && p.phone.isConnected)
        #expect(p.closed.isEmpty)
    }
}
