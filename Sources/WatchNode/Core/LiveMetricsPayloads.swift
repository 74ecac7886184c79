import PeerLinkCore
import FitnessDomain

/// The live-metrics payloads of one workout (`MirrorPayload.make`) and their canonical sizes
/// (`MirrorPayload.canonicalSize`), made from the previous payload: between two samples only
/// a few of its eleven values change, so an earlier dictionary of the same shape is reused
/// (rewritten in place, or copied when it is still held elsewhere: a copy keeps its layout, no
/// key is hashed) and the changed values are replaced through indices found once; the size is
/// adjusted by the changed integers' sizes instead of walking the payload.
///
/// A payload is made afresh (`MirrorPayload.make`) whenever the workout, its configuration,
/// state or start, or whether a heart rate is known, differs from the previous one's. Payloads
/// and sizes MUST equal `MirrorPayload.make` and `canonicalSize` (tested: `LiveMetricsPayloadsTests`).
struct LiveMetricsPayloads {
    /// The previous payload and where its changing values are.
    private struct Previous {
        var payload: [String: PlistValue]
        var bytes: Int
        var workoutID: String
        var configuration: WorkoutConfiguration
        var state: WorkoutSessionState
        var startMs: EpochMs?
        var energyBits: UInt64
        var elapsedMs: Int64
        var atMs: EpochMs
        var hrCount: Int64
        /// The heart rate's bits, nil when the payload has none.
        var hrBits: UInt64?
        var energyIndex: Dictionary<String, PlistValue>.Index
        var elapsedIndex: Dictionary<String, PlistValue>.Index
        var atIndex: Dictionary<String, PlistValue>.Index
        var hrCountIndex: Dictionary<String, PlistValue>.Index
        var hrIndex: Dictionary<String, PlistValue>.Index?

        /// True when a payload for `session` has this one's keys and constant values.
        func hasShape(of session: WorkoutSession, heartRateKnown: Bool) -> Bool {
            workoutID == session.id && configuration == session.configuration && state == session.state
                && startMs == session.startMs && (hrBits != nil) == heartRateKnown
        }

        /// Replaces the values that differ, and adjusts the size by the integers' sizes.
        mutating func update(energy: Double, elapsedMs elapsed: Int64, atMs at: EpochMs, hrCount count: Int64, hr: Double?) {
            if energy.bitPattern != energyBits {
                payload.values[energyIndex] = .double(energy)
                energyBits = energy.bitPattern
            }
            if elapsed != elapsedMs {
                bytes += CanonicalBytes.intSize(elapsed) - CanonicalBytes.intSize(elapsedMs)
                payload.values[elapsedIndex] = .int(elapsed)
                elapsedMs = elapsed
            }
            if at != atMs {
                bytes += CanonicalBytes.intSize(at) - CanonicalBytes.intSize(atMs)
                payload.values[atIndex] = .int(at)
                atMs = at
            }
            if count != hrCount {
                bytes += CanonicalBytes.intSize(count) - CanonicalBytes.intSize(hrCount)
                payload.values[hrCountIndex] = .int(count)
                hrCount = count
            }
            if let hr, let i = hrIndex, hr.bitPattern != hrBits {
                payload.values[i] = .double(hr)
                hrBits = hr.bitPattern
            }
        }
    }

    /// The last payload made, and the one before it. The link keeps the last payload sent
    /// (`WatchLinkLog.lastMessage`) until the next one, so the one before it is usually held
    /// here only and is rewritten in place: no dictionary is copied or freed per payload.
    private var previous: Previous?
    private var spare: Previous?

    init() {}

    /// `MirrorPayload.make(session:builder:at:)` and its canonical size.
    mutating func make(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs) -> (payload: PlistValue, bytes: Int) {
        let hr = builder.heartRate.mostRecent
        guard previous?.hasShape(of: session, heartRateKnown: hr != nil) == true else {
            return makeAfresh(session: session, builder: builder, at: nowMs)
        }
        // The spare (the payload before the last one) has the same shape: it was made after the
        // last fresh one. It becomes the new payload, the last one the spare; without a spare,
        // the last one is copied when it is written.
        if spare == nil { spare = previous }
        swap(&previous, &spare)
        previous!.update(
            energy: builder.totalEnergyKcal, elapsedMs: builder.elapsedMs(at: nowMs), atMs: nowMs,
            hrCount: Int64(builder.heartRate.count), hr: hr)
        return (.dictionary(previous!.payload), previous!.bytes)
    }

    private mutating func makeAfresh(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs) -> (payload: PlistValue, bytes: Int) {
        let value = MirrorPayload.make(session: session, builder: builder, at: nowMs)
        let bytes = MirrorPayload.canonicalSize(value)
        spare = nil
        guard let d = value.dictionaryValue, let energy = d.index(forKey: "energyKcal"), let elapsed = d.index(forKey: "elapsedMs"),
              let at = d.index(forKey: "atMs"), let hrCount = d.index(forKey: "hrCount")
        else {
            previous = nil
            return (value, bytes)
        }
        let hr = builder.heartRate.mostRecent
        previous = Previous(
            payload: d, bytes: bytes, workoutID: session.id, configuration: session.configuration, state: session.state,
            startMs: session.startMs, energyBits: builder.totalEnergyKcal.bitPattern, elapsedMs: builder.elapsedMs(at: nowMs),
            atMs: nowMs, hrCount: Int64(builder.heartRate.count), hrBits: hr?.bitPattern, energyIndex: energy,
            elapsedIndex: elapsed, atIndex: at, hrCountIndex: hrCount, hrIndex: hr == nil ? nil : d.index(forKey: "heartRateBpm"))
        return (value, bytes)
    }
}
