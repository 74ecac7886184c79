import PeerLinkCore
import FitnessDomain

/// `WorkoutSampleFile.encode()` written straight from the samples into a buffer sized
/// beforehand: the file of a finished workout holds every sample, and building a property-list
/// value of thousands of elements only to walk and encode it cost several times the bytes.
/// MUST equal `encode()` (tested: `WorkoutSampleFileBytesTests`); the layout is the one
/// `WorkoutSampleFile.encode()` defines, with the keys in byte order.
enum WorkoutSampleFileBytes {
    static func encode(_ file: WorkoutSampleFile) -> [UInt8] {
        let samples = file.samples
        let n = UInt64(samples.count)
        let record = CanonicalEncoding.encode(.dictionary(file.record.fields))
        var w = CanonicalBytes.Growing()
        w.dictionaryHeader(count: 8)
        w.key("durations")
        let head = w.take()
        w.key("kinds")
        let kindsKey = w.take()
        w.key("record")
        let recordKey = w.take()
        w.key("starts")
        let startsKey = w.take()
        w.key("type"); w.string(WorkoutSampleFile.type)
        w.key("v"); w.int(WorkoutSampleFile.formatVersion)
        w.key("values")
        let middle = w.take()
        w.key("workoutID"); w.string(file.record.id)
        let tail = w.take()

        let header = 1 + CanonicalBytes.varintSize(n)
        var size = head.count + header + kindsKey.count + header + samples.count + recordKey.count + record.count
            + startsKey.count + header + middle.count + header + 9 * samples.count + tail.count
        var previous = file.record.startMs
        for s in samples {
            size += CanonicalBytes.intSize(s.endMs - s.startMs) + CanonicalBytes.intSize(s.startMs &- previous)
            previous = s.startMs
        }
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var out = CanonicalBytes(buffer.baseAddress!)
            out.bytes(head)
            out.arrayHeader(count: n)
            for s in samples { out.int(s.endMs - s.startMs) }
            out.bytes(kindsKey)
            out.dataHeader(count: n)
            for s in samples { out.byte(code(of: s.kind)) }
            out.bytes(recordKey)
            out.bytes(record)
            out.bytes(startsKey)
            out.arrayHeader(count: n)
            var previous = file.record.startMs
            for s in samples {
                out.int(s.startMs &- previous)
                previous = s.startMs
            }
            out.bytes(middle)
            out.arrayHeader(count: n)
            for s in samples { out.double(s.value) }
            out.bytes(tail)
            initialized = out.written(from: buffer.baseAddress!)
            precondition(initialized == size, "sample file size")
        }
    }

    /// The file's kind codes (`WorkoutSampleFile`: 0 heart rate, 1 active energy, 2 steps, 255 sleep).
    static func code(of kind: HealthSampleKind) -> UInt8 {
        switch kind {
        case .heartRate: 0
        case .activeEnergy: 1
        case .steps: 2
        case .sleep: 255
        }
    }
}
