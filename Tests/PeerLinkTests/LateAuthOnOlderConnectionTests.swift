import Testing
@testable import PeerLinkCore

/// A handshake that ends on a connection older than the link's (its `auth` was delayed while
/// the watch gave up on it and connected again) is closed, not taken: the SessionInfo in it is
/// older than what the link already learned.
@Suite("A late auth on an older connection")
struct LateAuthOnOlderConnectionTests {
    @Test func thePhoneKeepsTheNewerLinkAndWhatItLearnedOnIt() throws {
        var p = SessionPair()
        p.connect()  // connection 1: hello → helloReply → auth, held back
        p.deliver(.phone, p.wire.removeFirst().frame)
        p.deliver(.watch, p.wire.removeFirst().frame)
        let lateAuth = try #require(p.wire.first)
        #expect(lateAuth.to == .phone && lateAuth.frame.kind == .auth)
        p.wire.removeFirst()
        // The watch gives up on connection 1 and connects again; the phone has not seen it close.
        p.watch.onConnectionClosed(1, now: p.now)
        p.collect()
        p.connection = 2
        p.connect()
        p.run()
        #expect(p.phone.activeConnectionID == 2 && p.watch.activeConnectionID == 2)
        _ = try p.phone.updateApplicationContext(["goal": 8000], now: p.now).get()
        p.collect()
        p.run()
        #expect(p.phone.persistent.contextAckedVersion == 1, "the watch acknowledged the context on connection 2")
        let upEvents = p.events(.phone) { if case .linkDidChange(true) = $0 { true } else { false } }.count

        // Connection 1's auth arrives now: it carries what the watch held before connection 2.
        p.phone.onFrame(1, lateAuth.frame, now: p.now)
        p.phone.endOfInput(now: p.now)
        p.collect()
        #expect(p.phone.activeConnectionID == 2, "the link stays on the newer connection")
        #expect(p.closed.contains { $0.0 == .phone && $0.1 == "older than the link's connection 2" })
        #expect(p.phone.persistent.contextAckedVersion == 1, "what the watch acknowledged is not taken back")
        #expect(p.events(.phone) { if case .linkDidChange(true) = $0 { true } else { false } }.count == upEvents, "no second link-up")
        #expect(p.wire.isEmpty, "nothing (no `ready`) goes back on the stale connection")
    }

    /// The same when the newer link has already gone down: the late auth is still stale.
    @Test func aLateAuthIsStaleAfterTheNewerLinkWentDownToo() throws {
        var p = SessionPair()
        p.connect()
        p.deliver(.phone, p.wire.removeFirst().frame)
        p.deliver(.watch, p.wire.removeFirst().frame)
        let lateAuth = p.wire.removeFirst()
        p.watch.onConnectionClosed(1, now: p.now)
        p.collect()
        p.connection = 2
        p.connect()
        p.run()
        _ = try p.phone.updateApplicationContext(["goal": 8000], now: p.now).get()
        p.collect()
        p.run()
        p.disconnect()  // connection 2 closes on both sides
        #expect(p.phone.activeConnectionID == nil && p.phone.persistent.contextAckedVersion == 1)

        p.phone.onFrame(1, lateAuth.frame, now: p.now)
        p.phone.endOfInput(now: p.now)
        p.collect()
        #expect(p.phone.activeConnectionID == nil, "connection 1 is not taken")
        #expect(p.closed.contains { $0.0 == .phone && $0.1 == "older than the link's connection 2" })
        #expect(p.phone.persistent.contextAckedVersion == 1)
    }
}
