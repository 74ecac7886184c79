import PeerLinkCore
import FitnessDomain

/// The live-metrics payloads of one workout (`MirrorPayload.make`) with their canonical
/// encodings (`CanonicalEncoding.encode`) and sizes, made from the previous payload: between
/// two samples only a few of its eleven values change, so an earlier dictionary of the same
/// shape is reused (rewritten in place, or copied when it is still held elsewhere: a copy keeps
/// its layout, no key is hashed) and the changed values are replaced through indices found once.
/// The encoding is written from a template of the payload's constant parts (encoded once per
/// shape: the header, every key, the constant values) with the five changing values
/// (`atMs`, `elapsedMs`, `energyKcal`, `heartRateBpm`, `hrCount`) written into its holes, so
/// the link sends it without sorting and encoding the dictionary again.
///
/// A payload is made afresh (`MirrorPayload.make`) whenever the workout, its configuration,
/// state or start, or whether a heart rate is known, differs from the previous one's. Payloads,
/// encodings and sizes MUST equal `MirrorPayload.make`, `CanonicalEncoding.encode` and
/// `canonicalSize` (tested: `LiveMetricsPayloadsTests`).
struct LiveMetricsPayloads {
    /// The previous payload and where its changing values are.
    private struct Previous {
        var payload: [String: PlistValue]
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

        /// Replaces the values that differ.
        mutating func update(energy: Double, elapsedMs elapsed: Int64, atMs at: EpochMs, hrCount count: Int64, hr: Double?) {
            if energy.bitPattern != energyBits {
                payload.values[energyIndex] = .double(energy)
                energyBits = energy.bitPattern
            }
            if elapsed != elapsedMs {
                payload.values[elapsedIndex] = .int(elapsed)
                elapsedMs = elapsed
            }
            if at != atMs {
                payload.values[atIndex] = .int(at)
                atMs = at
            }
            if count != hrCount {
                payload.values[hrCountIndex] = .int(count)
                hrCount = count
            }
            if let hr, let i = hrIndex, hr.bitPattern != hrBits {
                payload.values[i] = .double(hr)
                hrBits = hr.bitPattern
            }
        }
    }

    /// A changing value of the payload, by its key.
    private enum Field {
        case energy, elapsed, at, hrCount, hr

        init?(key: String) {
            switch key {
            case "energyKcal": self = .energy
            case "elapsedMs": self = .elapsed
            case "atMs": self = .at
            case "hrCount": self = .hrCount
            case "heartRateBpm": self = .hr
            default: return nil
            }
        }
    }

    /// The last payload made, and the one before it. The link keeps the last payload sent
    /// (`WatchLinkLog.lastMessage`) until the next one, so the one before it is usually held
    /// here only and is rewritten in place: no dictionary is copied or freed per payload.
    private var previous: Previous?
    private var spare: Previous?
    /// The canonical encoding of `previous`'s shape without its changing values, and where
    /// each of those goes (in key order, offsets into `template`).
    private var template: [UInt8] = []
    private var holes: [(at: Int, field: Field)] = []
    /// The last encoding made (`encode`).
    private var last: [UInt8] = []

    init() {}

    /// `MirrorPayload.make(session:builder:at:)`, its canonical encoding and its size.
    mutating func make(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs)
        -> (payload: PlistValue, bytes: Int, canonical: [UInt8])
    {
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
        let canonical = encode(previous!)
        return (.dictionary(previous!.payload), canonical.count, canonical)
    }

    private mutating func makeAfresh(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs)
        -> (payload: PlistValue, bytes: Int, canonical: [UInt8])
    {
        let value = MirrorPayload.make(session: session, builder: builder, at: nowMs)
        spare = nil
        guard let d = value.dictionaryValue, let energy = d.index(forKey: "energyKcal"), let elapsed = d.index(forKey: "elapsedMs"),
              let at = d.index(forKey: "atMs"), let hrCount = d.index(forKey: "hrCount")
        else {
            previous = nil
            let canonical = CanonicalEncoding.encode(value)
            return (value, canonical.count, canonical)
        }
        let hr = builder.heartRate.mostRecent
        let fresh = Previous(
            payload: d, workoutID: session.id, configuration: session.configuration, state: session.state,
            startMs: session.startMs, energyBits: builder.totalEnergyKcal.bitPattern, elapsedMs: builder.elapsedMs(at: nowMs),
            atMs: nowMs, hrCount: Int64(builder.heartRate.count), hrBits: hr?.bitPattern, energyIndex: energy,
            elapsedIndex: elapsed, atIndex: at, hrCountIndex: hrCount, hrIndex: hr == nil ? nil : d.index(forKey: "heartRateBpm"))
        previous = fresh
        makeTemplate(d)
        let canonical = encode(fresh)
        return (value, canonical.count, canonical)
    }

    /// Encodes `payload`'s constant parts as `CanonicalEncoding` does (entries in the keys'
    /// UTF-8 byte order), leaving a hole for each changing value.
    private mutating func makeTemplate(_ payload: [String: PlistValue]) {
        var t: [UInt8] = [CanonicalBytes.dictionaryTag]
        CanonicalBytes.appendVarint(UInt64(payload.count), to: &t)
        holes = []
        for key in payload.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            t.append(contentsOf: CanonicalBytes.Growing.keyBytes(key))
            if let field = Field(key: key) {
                holes.append((t.count, field))
            } else {
                t.append(contentsOf: CanonicalEncoding.encode(payload[key]!))
            }
        }
        template = t
    }

    /// The canonical encoding of `p` (of the template's shape): the template's parts with
    /// `p`'s changing values between them. Written over the last encoding when it has the
    /// same size and is held here only (the link copies it into its frame and lets it go), so
    /// no buffer is allocated or freed per payload; otherwise into a new one.
    private mutating func encode(_ p: Previous) -> [UInt8] {
        var size = template.count
        for h in holes {
            switch h.field {
            case .energy, .hr: size += 9
            case .elapsed: size += CanonicalBytes.intSize(p.elapsedMs)
            case .at: size += CanonicalBytes.intSize(p.atMs)
            case .hrCount: size += CanonicalBytes.intSize(p.hrCount)
            }
        }
        let (template, holes) = (template, holes)
        if last.count == size {
            last.withUnsafeMutableBufferPointer { buffer in
                let n = Self.write(p, template: template, holes: holes, to: buffer.baseAddress!)
                assert(n == size, "live metrics size")
            }
        } else {
            last = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                initialized = Self.write(p, template: template, holes: holes, to: buffer.baseAddress!)
                assert(initialized == size, "live metrics size")
            }
        }
        return last
    }

    /// Writes the encoding of `p` (`template` with `p`'s values in its `holes`) at `start`;
    /// returns its size.
    private static func write(_ p: Previous, template: [UInt8], holes: [(at: Int, field: Field)],
                              to start: UnsafeMutablePointer<UInt8>) -> Int {
        template.withUnsafeBufferPointer { t in
            holes.withUnsafeBufferPointer { holes in
                let t0 = t.baseAddress!
                var out = CanonicalBytes(start)
                var from = 0
                for h in holes {
                    out.raw(t0 + from, count: h.at - from)
                    from = h.at
                    switch h.field {
                    case .energy: out.double(Double(bitPattern: p.energyBits))
                    case .hr: out.double(Double(bitPattern: p.hrBits ?? 0))
                    case .elapsed: out.int(p.elapsedMs)
                    case .at: out.int(p.atMs)
                    case .hrCount: out.int(p.hrCount)
                    }
                }
                out.raw(t0 + from, count: t.count - from)
                return out.written(from: start)
            }
        }
    }
}
