import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch

/// `expect converged` compares every part both nodes must agree on and names the one that differs.
@Suite("Convergence check, part by part")
struct ConvergenceCheckTests {
    static let file: PlistValue = ["peer": "aa", "number": 1, "name": "w.plist", "bytes": 10, "sha256": "ab", "atMs": 500]

    static func node(_ inc: String, peer: String, _ extra: [String: PlistValue] = [:]) -> PlistValue {
        var d: [String: PlistValue] = ["digest": "d1", "incarnation": .string(inc), "peerIncarnation": .string(peer),
                                       "filesSent": [], "filesReceived": [],
                                       "outstanding": ["userInfo": 0, "replicaDelta": false, "files": 0, "context": false, "messages": 0]]
        for (k, v) in extra { d[k] = v }
        return .dictionary(d)
    }

    @Test func equalStatesHaveNoDifference() {
        let ctx: PlistValue = ["version": 3, "sha256": "c3"]
        let p = Self.node("aa", peer: "bb", ["contextSent": ctx, "filesReceived": [Self.file.with("peer", "bb")]])
        let w = Self.node("bb", peer: "aa", ["contextReceived": ctx, "filesSent": [Self.file]])
        #expect(ConvergenceCheck.differences(phone: p, watch: w).isEmpty)
    }

    @Test func aContextTheReceiverForgotIsNamed() {
        let p = Self.node("aa", peer: "bb", ["contextSent": ["version": 3, "sha256": "c3"]])
        let w = Self.node("bb", peer: "aa")
        let d = ConvergenceCheck.differences(phone: p, watch: w)
        #expect(d == ["application context: the phone set v3 (c3…), the watch received none"])
    }

    @Test func aFileWithOtherContentIsADifferenceEvenAfterStoreDamage() {
        let p = Self.node("aa", peer: "bb", ["filesReceived": [Self.file.with("peer", "bb").with("sha256", "ff")]])
        let w = Self.node("bb", peer: "aa", ["filesSent": [Self.file]])
        let d = ConvergenceCheck.differences(phone: p, watch: w, damagedAtMs: [.phone: 10_000])
        #expect(d.count == 1 && d[0].hasPrefix("file 1: the watch delivered w.plist"))
    }

    @Test func aFileLostWithADamagedStoreIsExcusedOnlyWhenTheDamageCameAfterIt() {
        let p = Self.node("aa", peer: "bb")
        let w = Self.node("bb", peer: "aa", ["filesSent": [Self.file]])
        #expect(ConvergenceCheck.differences(phone: p, watch: w, damagedAtMs: [.phone: 600]).isEmpty)
        #expect(ConvergenceCheck.differences(phone: p, watch: w, damagedAtMs: [.phone: 400]).count == 1)
        #expect(ConvergenceCheck.differences(phone: p, watch: w).count == 1)
    }

    @Test func filesOfAnEarlierPeerStoreAreNotCompared() {
        let p = Self.node("aa", peer: "bb")
        let w = Self.node("bb", peer: "aa", ["filesSent": [Self.file.with("peer", "old")]])
        #expect(ConvergenceCheck.differences(phone: p, watch: w).isEmpty)
    }

    @Test func aComplicationPayloadTheWatchDoesNotHoldIsNamed() {
        let p = Self.node("aa", peer: "bb", ["complicationSent": ["sha256": "c2", "atMs": 900]])
        let w = Self.node("bb", peer: "aa", ["complicationReceived": ["sha256": "c1", "atMs": 800]])
        #expect(ConvergenceCheck.differences(phone: p, watch: w).first?.hasPrefix("complication payload:") == true)
        #expect(ConvergenceCheck.differences(phone: p, watch: w, damagedAtMs: [.watch: 950]).isEmpty)
    }

    @Test func somethingOutstandingOnEitherSideIsNamed() {
        let p = Self.node("aa", peer: "bb", ["outstanding": ["userInfo": 0, "replicaDelta": false, "files": 1, "context": true, "messages": 0]])
        let w = Self.node("bb", peer: "aa")
        #expect(ConvergenceCheck.differences(phone: p, watch: w) == ["the phone still has outstanding: 1 files, an unacknowledged application context"])
    }

    @Test func differentDigestsAreNamed() {
        let p = Self.node("aa", peer: "bb"), w = Self.node("bb", peer: "aa", ["digest": "d2"])
        #expect(ConvergenceCheck.differences(phone: p, watch: w) == ["replica digests differ (phone d1…, watch d2…)"])
    }
}

extension PlistValue {
    func with(_ key: String, _ value: PlistValue) -> PlistValue {
        var d = dictionaryValue ?? [:]
        d[key] = value
        return .dictionary(d)
    }
}
