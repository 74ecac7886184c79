import Testing
@testable import PeerLinkCore
@testable import CountdownDomain

@Suite("Application context and complication user info")
struct LinkContextComplicationTests {
    static func contexts(_ p: SessionPair, _ role: DeviceRole) -> [PlistValue] {
        (role == .phone ? p.phoneEvents : p.watchEvents).compactMap { if case .didReceiveApplicationContext(let v) = $0 { v } else { nil } }
    }

    @Test func latestContextWinsAndIsAcknowledged() throws {
        var p = SessionPair.connected()
        _ = try p.phone.updateApplicationContext(["goal": 8000], now: p.now).get()
        p.collect()
        p.run()
        _ = try p.phone.updateApplicationContext(["goal": 9000], now: p.now).get()
        p.collect()
        p.run()
        #expect(Self.contexts(p, .watch) == [["goal": 8000], ["goal": 9000]])
        #expect(p.watch.receivedApplicationContext == ["goal": 9000])
        #expect(p.phone.applicationContext == ["goal": 9000])
        #expect(p.phone.persistent.contextAckedVersion == p.phone.persistent.contextVersion)
    }

    @Test func contextSetWhileDisconnectedIsDeliveredOnceAfterReconnectingOnlyTheNewest() throws {
        var p = SessionPair()
        for g in [1, 2, 3] { _ = try p.phone.updateApplicationContext(["goal": .int(Int64(g))], now: p.now).get() }
        p.collect()
        #expect(p.wire.isEmpty)
        p.connect()
        p.run()
        #expect(Self.contexts(p, .watch) == [["goal": 3]])
        p.disconnect()
        p.connect()
        p.run()
        #expect(Self.contexts(p, .watch) == [["goal": 3]])  // not again
    }

    @Test func bothContextsSurviveRestartsOfEitherNode() throws {
        var p = SessionPair.connected()
        _ = try p.phone.updateApplicationContext(["units": "km"], now: p.now).get()
        _ = try p.watch.updateApplicationContext(["face": "rings"], now: p.now).get()
        p.collect()
        p.run()
        try p.restart(.phone)
        try p.restart(.watch)
        #expect(p.phone.applicationContext == ["units": "km"])
        #expect(p.phone.receivedApplicationContext == ["face": "rings"])
        #expect(p.watch.applicationContext == ["face": "rings"])
        #expect(p.watch.receivedApplicationContext == ["units": "km"])
        p.connect()
        p.run()
        #expect(Self.contexts(p, .watch).count == 1)  // acknowledged before: not sent again
    }

    @Test func lostContextFrameIsSentAgainAfterTheRetransmitTime() throws {
        var p = SessionPair.connected()
        _ = try p.phone.updateApplicationContext(["goal": 1], now: p.now).get()
        p.collect()
        p.wire.removeAll()  // lost
        p.advance(p.phone.config.retransmitAfterMs)
        p.run()
        #expect(Self.contexts(p, .watch) == [["goal": 1]])
    }

    // MARK: - Complication

    static let day = CivilDate(year: 2026, month: 6, day: 1)

    static func ordinaryQueued(_ p: inout SessionPair) {
        for n in 1...3 { _ = try? p.phone.transferUserInfo(["n": .int(Int64(n))], now: p.now).get() }
    }

    @Test func complicationUserInfoJumpsAheadAndOnlyTheNewestIsTaggedCurrent() throws {
        var p = SessionPair.connected()
        #expect(p.phone.isComplicationEnabled)
        p.disconnect()
        Self.ordinaryQueued(&p)
        let c1 = try p.phone.transferCurrentComplicationUserInfo(["steps": 100], localDay: Self.day, now: p.now).get()
        let c2 = try p.phone.transferCurrentComplicationUserInfo(["steps": 200], localDay: Self.day, now: p.now).get()
        p.collect()
        #expect(c1.isCurrentComplicationInfo && c2.isCurrentComplicationInfo)
        let out = p.phone.outstandingUserInfoTransfers
        #expect(out.map(\.id) == [c1.id, c2.id, "u1", "u2", "u3"])
        #expect(out.map(\.isCurrentComplicationInfo) == [false, true, false, false, false])
        p.connect()
        p.run()
        let got = p.watchEvents.compactMap { e -> String? in
            guard case .didReceiveUserInfo(let v, let current) = e else { return nil }
            return "\(v["steps"]?.intValue ?? v["n"]?.intValue ?? -1)\(current ? "*" : "")"
        }
        #expect(got == ["100", "200*", "1", "2", "3"])
    }

    @Test func complicationUserInfoWakesTheWatchApp() throws {
        var p = SessionPair.connected()
        p.watch.setLocalAppState(AppState(isRunning: false, isForeground: false, complicationEnabled: true))
        p.collect()
        p.run()
        _ = try p.phone.transferCurrentComplicationUserInfo(["steps": 5], localDay: Self.day, now: p.now).get()
        p.collect()
        p.run()
        #expect(p.watch.localAppState.isRunning)
        #expect(p.watchEvents.contains(.appDidWakeInBackground))
        #expect(p.watchEvents.contains(.didReceiveUserInfo(["steps": 5], isComplication: true)))
    }

    @Test func budgetIsFiftyPerLocalDayThenCallsBecomeOrdinaryUserInfo() throws {
        var p = SessionPair.connected()
        #expect(p.phone.remainingComplicationUserInfoTransfers(localDay: Self.day) == 50)
        for i in 1...50 {
            let t = try p.phone.transferCurrentComplicationUserInfo(["i": .int(Int64(i))], localDay: Self.day, now: p.now).get()
            #expect(t.isCurrentComplicationInfo)
        }
        #expect(p.phone.remainingComplicationUserInfoTransfers(localDay: Self.day) == 0)
        let ordinary = try p.phone.transferCurrentComplicationUserInfo(["i": 51], localDay: Self.day, now: p.now).get()
        #expect(!ordinary.isCurrentComplicationInfo)
        #expect(p.phone.remainingComplicationUserInfoTransfers(localDay: Self.day.adding(days: 1)) == 50)
        p.collect()
        p.run()
        #expect(p.watchEvents.last == .didReceiveUserInfo(["i": 51], isComplication: false))
        // The budget is durable.
        try p.restart(.phone)
        p.connect()
        p.run()
        #expect(p.phone.remainingComplicationUserInfoTransfers(localDay: Self.day) == 0)
    }

    @Test func complicationNotEnabledFailsAtOnceAndTheWatchCannotSendIt() throws {
        var p = SessionPair.connected()
        p.watch.setLocalAppState(AppState(complicationEnabled: false))
        p.collect()
        p.run()
        #expect(!p.phone.isComplicationEnabled)
        #expect(p.phoneEvents.contains(.watchStateDidChange))
        #expect(p.phone.remainingComplicationUserInfoTransfers(localDay: Self.day) == 0)
        #expect(failCode(p.phone.transferCurrentComplicationUserInfo(["s": 1], localDay: Self.day, now: p.now)) == .invalidParameter)
        p.collect()
        #expect(p.wire.isEmpty)
        #expect(failCode(p.watch.transferCurrentComplicationUserInfo(["s": 1], localDay: Self.day, now: p.now)) == .sessionNotSupported)
    }
}
