import PeerLinkCore
import FitnessDomain

/// The live-metrics payloads of one workout (`MirrorPayload.make`) and their canonical sizes
/// (`MirrorPayload.canonicalSize`), made from the previous payload: between two samples only
/// a few of its eleven values change, so the previous dictionary is copied (a copy keeps its
/// layout, no key is hashed) and the changed values are replaced through indices found once;
/// the size is adjusted by the changed integers' sizes instead of walking the payload.
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
    }

    private var previous: Previous?

    init() {}

    /// `MirrorPayload.make(session:builder:at:)` and its canonical size.
    mutating func make(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs) -> (payload: PlistValue, bytes: Int) {
        let hr = builder.heartRate.mostRecent
        guard var p = previous, p.workoutID == session.id, p.configuration == session.configuration,
              p.state == session.state, p.startMs == session.startMs, (p.hrBits != nil) == (hr != nil)
        else { return makeAfresh(session: session, builder: builder, at: nowMs) }
        previous = nil  // `p` holds the only reference kept here
        let energy = builder.totalEnergyKcal
        if energy.bitPattern != p.energyBits {
            p.payload.values[p.energyIndex] = .double(energy)
            p.energyBits = energy.bitPattern
        }
        let elapsed = builder.elapsedMs(at: nowMs)
        if elapsed != p.elapsedMs {
            p.bytes += CanonicalBytes.intSize(elapsed) - CanonicalBytes.intSize(p.elapsedMs)
            p.payload.values[p.elapsedIndex] = .int(elapsed)
            p.elapsedMs = elapsed
        }
        if nowMs != p.atMs {
            p.bytes += CanonicalBytes.intSize(nowMs) - CanonicalBytes.intSize(p.atMs)
            p.payload.values[p.atIndex] = .int(nowMs)
            p.atMs = nowMs
        }
        let count = Int64(builder.heartRate.count)
        if count != p.hrCount {
            p.bytes += CanonicalBytes.intSize(count) - CanonicalBytes.intSize(p.hrCount)
            p.payload.values[p.hrCountIndex] = .int(count)
            p.hrCount = count
        }
        if let hr, let i = p.hrIndex, hr.bitPattern != p.hrBits {
            p.payload.values[i] = .double(hr)
            p.hrBits = hr.bitPattern
        }
        previous = p
        return (.dictionary(p.payload), p.bytes)
    }

    private mutating func makeAfresh(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs) -> (payload: PlistValue, bytes: Int) {
        let value = MirrorPayload.make(session: session, builder: builder, at: nowMs)
        let bytes = MirrorPayload.canonicalSize(value)
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
