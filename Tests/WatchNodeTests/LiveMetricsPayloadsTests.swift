import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// The live-metrics payloads made from the previous one (`LiveMetricsPayloads`) equal the ones
/// made afresh (`MirrorPayload.make`), and their sizes the canonical encoding's; the link log
/// records them as it records any message.
@Suite struct LiveMetricsPayloadsTests {
    func expectSame(_ m: WorkoutManager, _ payloads: inout LiveMetricsPayloads, at now: EpochMs, _ note: String = "") {
        guard let s = m.session, let b = m.builder else {
            Issue.record("no session")
            return
        }
        let reference = MirrorPayload.make(session: s, builder: b, at: now)
        let made = payloads.make(session: s, builder: b, at: now)
        #expect(made.payload == reference, "\(note)")
        #expect(made.bytes == MirrorPayload.canonicalSize(reference), "\(note)")
        #expect(made.bytes == CanonicalEncoding.encode(made.payload).count, "\(note)")
        #expect(made.canonical == CanonicalEncoding.encode(reference), "\(note)")
        #expect(made.canonical.count == made.bytes, "\(note)")
    }

    @Test func throughSamplesPausesEnergyAndAnotherWorkout() {
        var payloads = LiveMetricsPayloads()
        var kept: [(made: PlistValue, reference: PlistValue, canonical: [UInt8])] = []
        for (n, id) in ["w1", "w2"].enumerated() {
            var m = WorkoutManager()
            let t0: EpochMs = 1_000 + EpochMs(n) * 500_000
            _ = m.start(workoutID: id, configuration: n == 0 ? runOutdoor : WorkoutConfiguration(activity: .cycling, location: .indoor), at: t0)
            expectSame(m, &payloads, at: t0, "start")
            expectSame(m, &payloads, at: t0, "the same instant again")
            for i in 1...300 {
                let t = t0 + EpochMs(i) * 1_000
                _ = m.addHeartRate(bpm: i % 7 == 0 ? 120 : 100 + Double(i % 50) * 0.5, at: t)
                if i % 11 == 0 { _ = m.addActiveEnergy(kcal: 0.25 * Double(i), fromMs: t - 900, toMs: t) }
                if i == 100 { _ = m.pause(at: t + 10) }
                if i == 130 { _ = m.resume(at: t + 20) }
                // Times whose integers change size (varints of 1…9 bytes).
                let now = t + (i == 200 ? 1 << 45 : 0)
                expectSame(m, &payloads, at: now, "\(id) sample \(i)")
                let again = payloads.make(session: m.session!, builder: m.builder!, at: now)
                kept.append((again.payload, MirrorPayload.make(session: m.session!, builder: m.builder!, at: now), again.canonical))
            }
            _ = m.stop(at: t0 + 400_000)
            expectSame(m, &payloads, at: t0 + 400_001, "stopped")
        }
        // The payloads handed out earlier were not changed by the later ones.
        #expect(kept.count == 600)
        for (i, k) in kept.enumerated() {
            #expect(k.made == k.reference, "payload \(i)")
            #expect(k.canonical == CanonicalEncoding.encode(k.reference), "payload \(i)")
        }
    }

    /// Integers of every varint length in each of the three integer holes, doubles of every
    /// kind (NaN, infinities, -0) in the two double holes, and the payload without a heart rate.
    @Test func theCanonicalBytesHoldValuesOfEverySize() {
        var payloads = LiveMetricsPayloads()
        var m = WorkoutManager()
        let t0: EpochMs = 5_000
        _ = m.start(workoutID: "wide", configuration: runOutdoor, at: t0)
        expectSame(m, &payloads, at: t0, "no heart rate yet")
        expectSame(m, &payloads, at: t0 + (1 << 50), "no heart rate, a late time")
        let bpms: [Double] = [0, -0.0, .nan, .infinity, -.infinity, 1e-300, 99.5, 250]
        for shift in 0..<62 {
            let t = t0 + (EpochMs(1) << EpochMs(shift))
            _ = m.addHeartRate(bpm: bpms[shift % bpms.count], at: t)
            if shift % 5 == 0 { _ = m.addActiveEnergy(kcal: Double(shift) * 1.5, fromMs: t - 1, toMs: t) }
            expectSame(m, &payloads, at: t, "shift \(shift)")
            expectSame(m, &payloads, at: t0 - (EpochMs(1) << EpochMs(shift)), "before the start, shift \(shift)")
        }
    }

    @Test func theLinkLogRecordsALiveMetricsMessageAsAnyMessage() {
        var m = WorkoutManager()
        _ = m.start(workoutID: "w1", configuration: runOutdoor, at: 0)
        _ = m.addHeartRate(bpm: 140, at: 1_000)
        let payload = MirrorPayload.make(session: m.session!, builder: m.builder!, at: 1_500)
        var viaRecord = WatchLinkLog()
        var direct = WatchLinkLog()
        for _ in 0..<(WatchLinkLog.maxRecent + 3) {
            viaRecord.record(.sendMessage(payload))
            direct.recordLiveMetrics(payload, bytes: MirrorPayload.canonicalSize(payload))
        }
        #expect(viaRecord == direct)
        #expect(direct.recent.count == WatchLinkLog.maxRecent)
    }
}

/// The link log's ring of recent entries keeps the last `maxRecent` in order, like the array
/// it replaced, and compares by them.
@Suite struct RecentRingTests {
    @Test func theRingKeepsTheLastEntriesInOrder() {
        var ring = WatchLinkLog.RecentRing()
        var plain: [WatchLinkLog.RecentEffect] = []
        for i in 0..<(3 * WatchLinkLog.maxRecent + 5) {
            let e: WatchLinkLog.RecentEffect = i % 5 == 0 ? .other(summary: "file \(i)") : .message(type: i % 7 == 0 ? nil : "t", bytes: i)
            ring.append(e)
            plain.append(e)
            if plain.count > WatchLinkLog.maxRecent { plain.removeFirst(plain.count - WatchLinkLog.maxRecent) }
            #expect(ring.ordered == plain, "after \(i + 1)")
        }
    }

    @Test func ringsWithTheSameEntriesInOrderAreEqual() {
        var a = WatchLinkLog.RecentRing(), b = WatchLinkLog.RecentRing()
        for i in 0..<WatchLinkLog.maxRecent { a.append(.message(type: "t", bytes: i)) }
        for i in 0..<(WatchLinkLog.maxRecent + 7) { b.append(.message(type: "t", bytes: i - 7)) }
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        b.append(.message(type: "t", bytes: 99))
        #expect(a != b)
    }
}
