import Foundation
import Testing
@testable import PeerLinkCore

@Suite("Payload rules")
struct LinkPayloadTests {
    /// A dictionary whose canonical encoding is exactly `size` bytes: {"d": data(n)}.
    static func payload(canonicalBytes size: Int) -> PlistValue {
        var n = size - 6
        while CanonicalEncoding.encodedSize(["d": .data([UInt8](repeating: 1, count: n))]) > size { n -= 1 }
        while CanonicalEncoding.encodedSize(["d": .data([UInt8](repeating: 1, count: n))]) < size { n += 1 }
        return ["d": .data([UInt8](repeating: 1, count: n))]
    }

    @Test func payloadBuilderHitsExactSizes() {
        for s in [100, PayloadLimits.userInfoBytes, PayloadLimits.applicationContextBytes + 1] {
            #expect(CanonicalEncoding.encodedSize(Self.payload(canonicalBytes: s)) == s)
        }
    }

    @Test func userInfoAtTheLimitIsAcceptedAndOneByteMoreIsRefusedWithoutAFrame() {
        var p = SessionPair.connected()
        #expect((try? p.watch.transferUserInfo(Self.payload(canonicalBytes: PayloadLimits.userInfoBytes), now: p.now).get()) != nil)
        p.collect()
        p.wire = []
        let r = p.watch.transferUserInfo(Self.payload(canonicalBytes: PayloadLimits.userInfoBytes + 1), now: p.now)
        #expect(failCode(r) == .payloadTooLarge)
        p.collect()
        #expect(p.wire.isEmpty)
        #expect(p.watch.outstandingUserInfoCount == 1)
    }

    @Test func messageOverTheLimitFailsAsAnEventAndProducesNoFrame() {
        var p = SessionPair.connected()
        let id = p.watch.sendMessage(Self.payload(canonicalBytes: PayloadLimits.messageBytes + 1), now: p.now)
        let data = p.watch.sendMessageData([UInt8](repeating: 0, count: PayloadLimits.messageBytes), now: p.now)
        let actions = p.watch.drainActions()
        #expect(!actions.contains { if case .send = $0 { true } else { false } })
        let failures = actions.compactMap { a -> (MessageID, WCErrorCode)? in
            if case .deliver(.messageDidFail(let m, let e)) = a { (m, e.code) } else { nil }
        }
        #expect(failures.map(\.0) == [id, data])
        #expect(failures.allSatisfy { $0.1 == .payloadTooLarge })
        let ok = p.watch.sendMessage(Self.payload(canonicalBytes: PayloadLimits.messageBytes), now: p.now)
        #expect(p.watch.drainActions().contains { if case .send(_, let f) = $0 { f.kind == .message } else { false } })
        #expect(ok > data)
    }

    @Test func contextLimitIsTwoHundredFiftySixKiB() {
        var p = SessionPair.connected()
        #expect((try? p.watch.updateApplicationContext(Self.payload(canonicalBytes: PayloadLimits.applicationContextBytes), now: p.now).get()) != nil)
        p.collect()
        p.wire = []
        let r = p.watch.updateApplicationContext(Self.payload(canonicalBytes: PayloadLimits.applicationContextBytes + 1), now: p.now)
        #expect(failCode(r) == .payloadTooLarge)
        p.collect()
        #expect(p.wire.isEmpty)
    }

    @Test func nonPropertyListValuesGivePayloadUnsupportedTypes() {
        struct Workout { var id = 1 }
        #expect(throws: UnsupportedPayloadType.self) { try PlistValue(any: ["w": Workout()] as [String: Any]) }
        do {
            _ = try PlistValue(any: ["ok": 1, "nested": ["bad": Workout()]] as [String: Any])
            Issue.record("accepted a struct")
        } catch let e as UnsupportedPayloadType {
            let w = WCError(unsupported: e)
            #expect(w.code == .payloadUnsupportedTypes && w.code.rawValue == 7010)
            #expect(w.reason.contains("root.nested.bad"))
        } catch {
            Issue.record("\(error)")
        }
        var p = SessionPair.connected()
        let id = p.watch.sendMessage(.array([1]), now: p.now)
        #expect(p.watch.drainActions() == [.deliver(.messageDidFail(id, WCError(.payloadUnsupportedTypes, "a message must be a dictionary")))])
        #expect(failCode(p.watch.transferUserInfo("text", now: p.now)) == .payloadUnsupportedTypes)
        #expect(failCode(p.watch.updateApplicationContext(1, now: p.now)) == .payloadUnsupportedTypes)
    }

    @Test func errorCodesHaveApplesNumbersAndNames() {
        #expect(WCErrorCode.allCases.map(\.rawValue) == Array(7001...7019))
        #expect(WCErrorCode.payloadTooLarge.name == "payloadTooLarge")
        #expect(WCErrorCode(rawValue: 7012)?.name == "messageReplyTimedOut")
        #expect(WCErrorCode.watchOnlyApp.description == "WCErrorDomain 7019 watchOnlyApp")
    }

    @Test func callsBeforeActivationFailWithSessionNotActivated() {
        var s = LinkSession(config: LinkConfig(role: .watch, pairingSecret: [1]), persistent: LinkPersistent(incarnation: 3), seed: 1)
        #expect(failCode(s.transferUserInfo(["a": 1], now: 0)) == .sessionNotActivated)
        #expect(failCode(s.updateApplicationContext(["a": 1], now: 0)) == .sessionNotActivated)
        let id = s.sendMessage(["a": 1], now: 0)
        #expect(s.drainActions() == [.deliver(.messageDidFail(id, WCError(.sessionNotActivated)))])
        #expect(!s.isPaired)
        var unpaired = LinkSession(config: LinkConfig(role: .watch, pairingSecret: nil), persistent: LinkPersistent(incarnation: 3), seed: 1)
        unpaired.activate()
        #expect(failCode(unpaired.transferUserInfo(["a": 1], now: 0)) == .deviceNotPaired)
    }
}
