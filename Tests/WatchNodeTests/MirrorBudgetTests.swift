import PeerLinkCore
import Testing

@testable import WatchNode

@Suite struct MirrorBudgetTests {
    @Test func exactlyOneHundredKilobytesIsAllowedAndOneByteMoreIsSkipped() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: 60_000, now: 0) == .send)
        #expect(b.consider(bytes: 40_000, now: 1_000) == .send, "exactly 100,000 bytes in the window")
        #expect(b.consider(bytes: 1, now: 2_000) == .skip(.overBudget(usedBytes: 100_000, retryAtMs: 10_000)))
        #expect(b.usedBytes(at: 2_000) == 100_000, "a skip records nothing")
    }

    @Test func singlePayloadAtTheLimitGoesAndOneByteMoreNever() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: MirrorBudget.maxBytesPerWindow + 1, now: 0) == .skip(.payloadTooLarge(bytes: 100_001)))
        #expect(b.consider(bytes: MirrorBudget.maxBytesPerWindow, now: 0) == .send)
    }

    @Test func windowSlidesAndFreesBudget() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: 60_000, now: 0) == .send)
        #expect(b.consider(bytes: 40_000, now: 5_000) == .send)
        #expect(!b.consider(bytes: 1, now: 9_999).isSend, "the first send is still in the window 1 ms before it leaves")
        #expect(b.consider(bytes: 60_000, now: 10_000) == .send, "the first send left the window at 10 s")
        #expect(b.consider(bytes: 1, now: 10_000) == .skip(.overBudget(usedBytes: 100_000, retryAtMs: 15_000)))
        #expect(b.consider(bytes: 40_000, now: 15_000) == .send)
    }

    @Test func slidingWindowRefusesABurstAcrossAFixedBoundary() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: 100_000, now: 9_999) == .send)
        #expect(!b.consider(bytes: 100_000, now: 10_000).isSend, "a fixed window would have let 200 KB through")
    }

    @Test func mirroringStopsWhenTheWorkoutEnds() {
        var b = MirrorBudget()
        b.stopMirroring()
        #expect(b.consider(bytes: 10, now: 0) == .skip(.notMirroring))
        b.startMirroring()
        #expect(b.consider(bytes: 10, now: 0) == .send)
    }

    @Test func clockSteppingBackDoesNotFreeBudget() {
        var b = MirrorBudget()
        #expect(b.consider(bytes: 100_000, now: 50_000) == .send)
        #expect(!b.consider(bytes: 1, now: 0).isSend)
    }

    @Test func mirrorPayloadSizeIsItsCanonicalEncoding() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        guard let s = m.session, let bl = m.builder else {
            Issue.record("no session")
            return
        }
        let payload = MirrorPayload.make(session: s, builder: bl, at: 1_000)
        #expect(MirrorPayload.canonicalSize(payload) == CanonicalEncoding.encode(payload).count)
        #expect(payload["heartRateBpm"] == nil, "absent before the first sample")
        #expect(payload["elapsedMs"] == .int(1_000) && payload["state"] == "running")
    }
}
