import PeerLinkCore
import FitnessDomain

/// The store's bytes as the app writes them after every sample, without re-encoding what did
/// not change: `headBytes` and `chunkBytes` (WorkoutSnapshotStore+Bytes.swift) give the same
/// bytes from scratch, and cost most of a sample's persisting in a long workout.
///
/// - The head: between two samples only `energy`, `hrCount`, `hrSum`, `sampleCount` and
///   `savedAt` change. The rest (id, configuration, state, start/stop, collection times,
///   events, the empty sample columns) is encoded once per shape into a template; each write
///   copies the template's parts and encodes the five values between them.
/// - The last chunk: samples never change once kept, so its four columns are kept encoded and
///   each new sample is appended to them; a write assembles the chunk from the columns.
///
/// Every write is a complete, fresh value (the snapshot stays durable after every sample), and
/// MUST equal `headBytes` / `chunkBytes` (tested: `WorkoutSnapshotIncrementalTests`).
struct WorkoutSnapshotEncoder {
    // MARK: - Head

    /// What the head's constant parts were encoded from (`hasShape` false before the first head).
    private var hasShape = false
    private var workoutID = ""
    private var configuration = WorkoutConfiguration(activity: .running, location: .outdoor)
    private var state = WorkoutSessionState.notStarted
    private var startMs: EpochMs?
    private var stopMs: EpochMs?
    private var collectionStartMs: EpochMs?
    private var collectionEndMs: EpochMs?
    private var events: [WorkoutEvent] = []
    /// The head's bytes without its five changing values, and where each goes: `energy`
    /// (double), `hrCount` (int), `hrSum` (double), `sampleCount` (int), `savedAt` (int).
    private var template: [UInt8] = []
    private var energyAt = 0, hrCountAt = 0, hrSumAt = 0, sampleCountAt = 0, savedAtAt = 0

    // MARK: - Last chunk

    /// The workout and index of the chunk whose columns are kept, and its key.
    private var chunkWorkoutID: String?
    private var chunkIndex = -1
    private(set) var chunkKey = ""
    /// The kept chunk's samples so far, the last of them, and its encoded columns (values
    /// only, without their headers).
    private var chunkCount = 0
    private var lastSample: WorkoutSnapshot.Sample?
    private var previousStart: EpochMs = 0
    private var durations: [UInt8] = []
    private var kinds: [UInt8] = []
    private var starts: [UInt8] = []
    private var values: [UInt8] = []

    init() {}

    // MARK: - Writing

    /// The head's bytes for `session` and `builder` at `nowMs`: `headBytes` of
    /// `WorkoutSnapshot(headOf:builder:at:)` with `sampleCount` the builder's sample count.
    mutating func headBytes(session: WorkoutSession, builder: LiveWorkoutBuilder, at nowMs: EpochMs) -> [UInt8] {
        if !hasShape || workoutID != session.id || configuration != session.configuration || state != session.state
            || startMs != session.startMs || stopMs != session.stopMs || collectionStartMs != builder.collectionStartMs
            || collectionEndMs != builder.collectionEndMs || events != session.events
        {
            encodeShape(session: session, builder: builder)
        }
        let hrCount = Int64(builder.heartRate.count)
        let sampleCount = Int64(builder.samples.count)
        let size = template.count + 9 + CanonicalBytes.intSize(hrCount) + 9 + CanonicalBytes.intSize(sampleCount)
            + CanonicalBytes.intSize(nowMs)
        let holes = (energyAt, hrCountAt, hrSumAt, sampleCountAt, savedAtAt, template.count)
        return template.withUnsafeBufferPointer { t in
            [UInt8](smallUninitializedCapacity: size) { buffer, initialized in
                let t = t.baseAddress!
                var out = CanonicalBytes(buffer.baseAddress!)
                out.raw(t, count: holes.0)
                out.double(builder.activeEnergy.sum)
                out.raw(t + holes.0, count: holes.1 - holes.0)
                out.int(hrCount)
                out.raw(t + holes.1, count: holes.2 - holes.1)
                out.double(builder.heartRate.sum)
                out.raw(t + holes.2, count: holes.3 - holes.2)
                out.int(sampleCount)
                out.raw(t + holes.3, count: holes.4 - holes.3)
                out.int(nowMs)
                out.raw(t + holes.4, count: holes.5 - holes.4)
                initialized = out.written(from: buffer.baseAddress!)
                precondition(initialized == size, "head size")
            }
        }
    }

    /// Encodes the head's constant parts (the layout of `headBytes`).
    private mutating func encodeShape(session: WorkoutSession, builder: LiveWorkoutBuilder) {
        hasShape = true
        workoutID = session.id
        configuration = session.configuration
        state = session.state
        startMs = session.startMs
        stopMs = session.stopMs
        collectionStartMs = builder.collectionStartMs
        collectionEndMs = builder.collectionEndMs
        events = session.events
        let optionals = [collectionEndMs, collectionStartMs, startMs, stopMs].reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        var w = CanonicalBytes.Growing()
        w.dictionaryHeader(count: 17 + optionals)
        w.key("activity"); w.string(configuration.activity.rawValue)
        w.key("chunkSize"); w.int(Int64(WorkoutSnapshotStore.samplesPerChunk))
        if let v = collectionEndMs { w.key("collEnd"); w.int(v) }
        if let v = collectionStartMs { w.key("collStart"); w.int(v) }
        w.key("energy")
        energyAt = w.count
        w.key("eventKinds"); w.data(events.map { $0.kind == .pause ? 0 : 1 })
        w.key("eventTimes"); w.arrayHeader(count: events.count)
        for d in WorkoutSnapshot.deltas(events.map(\.atMs), from: collectionStartMs ?? 0) { w.int(d) }
        w.key("hrCount")
        hrCountAt = w.count
        w.key("hrSum")
        hrSumAt = w.count
        w.key("id"); w.string(workoutID)
        w.key("location"); w.string(configuration.location.rawValue)
        w.key("sampleCount")
        sampleCountAt = w.count
        w.key("sampleDurations"); w.arrayHeader(count: 0)
        w.key("sampleKinds"); w.data([])
        w.key("sampleStarts"); w.arrayHeader(count: 0)
        w.key("sampleValues"); w.arrayHeader(count: 0)
        w.key("savedAt")
        savedAtAt = w.count
        if let v = startMs { w.key("start"); w.int(v) }
        w.key("state"); w.string(state.rawValue)
        if let v = stopMs { w.key("stop"); w.int(v) }
        w.key("v"); w.int(WorkoutSnapshot.formatVersion)
        template = w.take()
    }

    /// Selects chunk `index` of `workoutID` (its key becomes `chunkKey`) and returns its bytes
    /// holding `samples[range]`: `chunkBytes` of those samples. The kept columns are extended
    /// when they hold a prefix of `range` (checked by its count and its last sample), else
    /// encoded afresh.
    mutating func chunkBytes(workoutID: String, index: Int, samples: [HealthSample], range: Range<Int>) -> [UInt8] {
        if chunkIndex != index || chunkWorkoutID != workoutID || chunkCount > range.count
            || (chunkCount > 0 && !Self.same(lastSample, samples[range.lowerBound + chunkCount - 1]))
        {
            resetChunk(workoutID: workoutID, index: index)
        }
        while chunkCount < range.count { append(WorkoutSnapshot.Sample(samples[range.lowerBound + chunkCount])) }
        let n = UInt64(chunkCount)
        let header = 1 + CanonicalBytes.varintSize(n)
        let size = Self.keys.count + 4 * header + durations.count + kinds.count + starts.count + values.count
        let k = Self.keyEnds
        return Self.keys.withUnsafeBufferPointer { keys in
            [UInt8](smallUninitializedCapacity: size) { buffer, initialized in
                let keys = keys.baseAddress!
                var out = CanonicalBytes(buffer.baseAddress!)
                out.raw(keys, count: k.0)
                out.arrayHeader(count: n)
                out.bytes(durations)
                out.raw(keys + k.0, count: k.1 - k.0)
                out.dataHeader(count: n)
                out.bytes(kinds)
                out.raw(keys + k.1, count: k.2 - k.1)
                out.arrayHeader(count: n)
                out.bytes(starts)
                out.raw(keys + k.2, count: k.3 - k.2)
                out.arrayHeader(count: n)
                out.bytes(values)
                initialized = out.written(from: buffer.baseAddress!)
                precondition(initialized == size, "chunk size")
            }
        }
    }

    /// True when `kept` is `sample` (the value compared by its bits).
    private static func same(_ kept: WorkoutSnapshot.Sample?, _ sample: HealthSample) -> Bool {
        guard let kept else { return false }
        return kept.kind == sample.kind && kept.startMs == sample.startMs && kept.endMs == sample.endMs
            && kept.value.bitPattern == sample.value.bitPattern
    }

    private mutating func resetChunk(workoutID: String, index: Int) {
        chunkWorkoutID = workoutID
        if chunkIndex != index {
            chunkIndex = index
            chunkKey = WorkoutSnapshotStore.chunkKey(index)
        }
        chunkCount = 0
        lastSample = nil
        previousStart = 0
        durations.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ s: WorkoutSnapshot.Sample) {
        CanonicalBytes.appendInt(s.endMs - s.startMs, to: &durations)
        kinds.append(WorkoutSnapshot.kindCode(s))
        CanonicalBytes.appendInt(s.startMs &- previousStart, to: &starts)
        CanonicalBytes.appendDouble(s.value, to: &values)
        previousStart = s.startMs
        lastSample = s
        chunkCount += 1
    }

    /// A chunk's dictionary header and its four keys (byte order), and where each key ends:
    /// each column follows its key.
    private static let keys: [UInt8] = {
        var w = CanonicalBytes.Growing()
        w.dictionaryHeader(count: 4)
        for key in ["durations", "kinds", "starts", "values"] { w.key(key) }
        return w.take()
    }()
    private static let keyEnds: (Int, Int, Int, Int) = {
        var w = CanonicalBytes.Growing()
        w.dictionaryHeader(count: 4)
        var ends: [Int] = []
        for key in ["durations", "kinds", "starts", "values"] {
            w.key(key)
            ends.append(w.count)
        }
        return (ends[0], ends[1], ends[2], ends[3])
    }()
}

/// The canonical encoding's bytes (`CanonicalEncoding`) for the few shapes the store writes,
/// written through a pointer into a buffer sized beforehand.
struct CanonicalBytes {
    static let stringTag: UInt8 = 0x01
    static let intTag: UInt8 = 0x02
    static let doubleTag: UInt8 = 0x03
    static let dataTag: UInt8 = 0x07
    static let arrayTag: UInt8 = 0x08
    static let dictionaryTag: UInt8 = 0x09

    private var p: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) { p = start }

    /// Bytes written since `start`.
    func written(from start: UnsafeMutablePointer<UInt8>) -> Int { p - start }

    @inline(__always) mutating func byte(_ b: UInt8) {
        p.pointee = b
        p += 1
    }

    @inline(__always) mutating func raw(_ src: UnsafePointer<UInt8>, count n: Int) {
        guard n > 0 else { return }
        p.update(from: src, count: n)
        p += n
    }

    @inline(__always) mutating func bytes(_ a: [UInt8]) {
        a.withUnsafeBufferPointer { b in
            guard let src = b.baseAddress, b.count > 0 else { return }
            p.update(from: src, count: b.count)
            p += b.count
        }
    }

    @inline(__always) mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            byte(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        byte(UInt8(v))
    }

    mutating func int(_ i: Int64) {
        byte(Self.intTag)
        varint(ByteWriter.zigzag(i))
    }

    mutating func double(_ d: Double) {
        byte(Self.doubleTag)
        UnsafeMutableRawPointer(p).storeBytes(of: Self.bits(d).bigEndian, as: UInt64.self)
        p += 8
    }

    mutating func arrayHeader(count n: UInt64) {
        byte(Self.arrayTag)
        varint(n)
    }

    mutating func dataHeader(count n: UInt64) {
        byte(Self.dataTag)
        varint(n)
    }

    // MARK: - Sizes

    /// The bytes of a varint of `v`.
    @inline(__always) static func varintSize(_ v: UInt64) -> Int { v == 0 ? 1 : (70 - v.leadingZeroBitCount) / 7 }

    /// The bytes of `.int(i)`.
    @inline(__always) static func intSize(_ i: Int64) -> Int { 1 + varintSize(ByteWriter.zigzag(i)) }

    /// A double's canonical bits (one NaN).
    @inline(__always) static func bits(_ d: Double) -> UInt64 { d.isNaN ? 0x7FF8_0000_0000_0000 : d.bitPattern }

    // MARK: - Appending to arrays

    static func appendVarint(_ value: UInt64, to a: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            a.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        a.append(UInt8(v))
    }

    static func appendInt(_ i: Int64, to a: inout [UInt8]) {
        a.append(intTag)
        appendVarint(ByteWriter.zigzag(i), to: &a)
    }

    static func appendDouble(_ d: Double, to a: inout [UInt8]) {
        a.append(doubleTag)
        withUnsafeBytes(of: bits(d).bigEndian) { a.append(contentsOf: $0) }
    }

    /// A writer that grows an array (for the parts encoded once per shape).
    struct Growing {
        private var out: [UInt8] = []

        /// Bytes written since the last `take`.
        var count: Int { out.count }

        /// The bytes written since the last `take`.
        mutating func take() -> [UInt8] {
            defer { out = [] }
            return out
        }

        static func keyBytes(_ key: String) -> [UInt8] {
            var w = Growing()
            w.key(key)
            return w.take()
        }

        mutating func dictionaryHeader(count n: Int) {
            out.append(CanonicalBytes.dictionaryTag)
            CanonicalBytes.appendVarint(UInt64(n), to: &out)
        }

        mutating func arrayHeader(count n: Int) {
            out.append(CanonicalBytes.arrayTag)
            CanonicalBytes.appendVarint(UInt64(n), to: &out)
        }

        mutating func key(_ key: String) {
            CanonicalBytes.appendVarint(UInt64(key.utf8.count), to: &out)
            out.append(contentsOf: key.utf8)
        }

        mutating func string(_ s: String) {
            out.append(CanonicalBytes.stringTag)
            key(s)
        }

        mutating func int(_ i: Int64) { CanonicalBytes.appendInt(i, to: &out) }

        mutating func data(_ bytes: [UInt8]) {
            out.append(CanonicalBytes.dataTag)
            CanonicalBytes.appendVarint(UInt64(bytes.count), to: &out)
            out.append(contentsOf: bytes)
        }
    }
}
