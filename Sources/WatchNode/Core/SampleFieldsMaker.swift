import PeerLinkCore
import FitnessDomain

/// `HealthSample.fields` for a run of samples (a finished workout's thousands), each made from
/// the previous one: a copy of the previous dictionary keeps its layout (no key is hashed) and
/// `start`, `end` and `value` are replaced through indices found once. Made afresh whenever the
/// kind or the source differs. MUST equal `HealthSample.fields` (tested: `SampleFieldsMakerTests`).
struct SampleFieldsMaker {
    private struct Previous {
        var fields: [String: PlistValue]
        var kind: HealthSampleKind
        var source: DeviceRole
        var start: Dictionary<String, PlistValue>.Index
        var end: Dictionary<String, PlistValue>.Index
        var value: Dictionary<String, PlistValue>.Index
    }

    private var previous: Previous?

    init() {}

    /// `sample.fields`.
    mutating func fields(of sample: HealthSample) -> [String: PlistValue] {
        guard var p = previous, p.kind == sample.kind, p.source == sample.source else {
            let fields = sample.fields
            if let start = fields.index(forKey: "start"), let end = fields.index(forKey: "end"), let value = fields.index(forKey: "value") {
                previous = Previous(fields: fields, kind: sample.kind, source: sample.source, start: start, end: end, value: value)
            } else {
                previous = nil
            }
            return fields
        }
        previous = nil  // `p` holds the only reference kept here
        p.fields.values[p.start] = .int(sample.startMs)
        p.fields.values[p.end] = .int(sample.endMs)
        p.fields.values[p.value] = .double(sample.value)
        previous = p
        return p.fields
    }
}
