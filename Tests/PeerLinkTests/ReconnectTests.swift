import Testing
@testable import PeerLinkCore

/// `Reconnect` alone: the connector's backoff schedule.
@Suite("Reconnect")
struct ReconnectTests {
    static func watch(_ configure: (inout LinkConfig) -> Void = { _ in }) -> LinkConfig {
        var c = LinkConfig(role: .watch, pairingSecret: Array(repeating: 1, count: 32))
        c.reconnectJitter = 0
        configure(&c)
        return c
    }

    @Test func aPairedWatchConnectsAtOnceThenBacksOffDoublingUpToTheCap() {
        var r = Reconnect(shared: SharedLinkConfig(Self.watch { $0.reconnectInitialMs = 100; $0.reconnectMaxMs = 1_000 }), seed: 1)
        #expect(r.nextConnectAtMs == 0)
        r.attemptStarted()
        #expect(r.nextConnectAtMs == nil)
        var waits: [EpochMs] = []
        for _ in 0..<6 {
            r.schedule(now: 10_000)
            waits.append(r.nextConnectAtMs! - 10_000)
        }
        #expect(waits == [100, 200, 400, 800, 1_000, 1_000])
    }

    @Test func onlyALinkThatStayedUpStartsTheBackoffAgain() {
        var r = Reconnect(shared: SharedLinkConfig(Self.watch { $0.reconnectInitialMs = 100; $0.stableConnectionMs = 5_000 }), seed: 1)
        for _ in 0..<3 { r.schedule(now: 0) }
        r.linkClosed(upSinceMs: 0, now: 4_999)
        #expect(r.attempt == 3, "dropped right after its handshake: still backing off")
        r.linkClosed(upSinceMs: 0, now: 5_000)
        r.schedule(now: 5_000)
        #expect(r.nextConnectAtMs == 5_100)
    }

    @Test func jitterStaysWithinItsShareOfTheWait() {
        var r = Reconnect(shared: SharedLinkConfig(Self.watch { $0.reconnectInitialMs = 1_000; $0.reconnectJitter = 0.2 }), seed: 42)
        for _ in 0..<50 {
            r.linkClosed(upSinceMs: 0, now: 1_000_000)
            r.schedule(now: 0)
            #expect((800...1_200).contains(r.nextConnectAtMs!), "seed 42")
        }
    }

    @Test func theListenerAndAnUnpairedWatchNeverScheduleAnAttempt() {
        for config in [LinkConfig(role: .phone, pairingSecret: Array(repeating: 1, count: 32)), LinkConfig(role: .watch, pairingSecret: nil)] {
            var r = Reconnect(shared: SharedLinkConfig(config), seed: 1)
            #expect(r.nextConnectAtMs == nil)
            r.schedule(now: 5)
            r.attemptEnded(now: 5)
            #expect(r.nextConnectAtMs == nil)
        }
    }
}
