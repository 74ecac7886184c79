import Foundation
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkSim

/// The data one scenario's section of the HTML report is drawn from, as JSON: compact arrays
/// (thousands of frames), times in epoch milliseconds for the page's script, which shows them
/// as local date-times of the scenario's zone (`offsets`) and offsets from its start. Screens
/// are indices into one table of distinct SVG documents (`SVGTable`), so a screen that does not
/// change between moments is stored once.
enum HTMLReportData {
    /// `FrameFate` as the page's index (order of its styles).
    static let fates: [FrameFate] = [.delivered, .dropped, .duplicated, .reordered, .tampered]

    /// The scenario's data; `id` names its section (`s0`, `s1`…).
    static func scenario(_ r: ScenarioResult, id: String, svgs: inout SVGTable, title: String? = nil) -> PlistValue {
        let rec = r.recording
        let start = rec?.startMs ?? 0
        var d: [String: PlistValue] = [
            "id": .string(id), "name": .string(title ?? r.name), "file": .string(r.file), "mode": .string(r.mode), "passed": .bool(r.passed),
            "startMs": .int(start), "endMs": .int(rec?.endMs ?? start), "zone": .string(rec?.timeZone ?? "UTC"),
            "steps": .int(Int64(r.stepsRun)), "virtualMs": .int(r.virtualMs), "wallMs": .int(r.wallMs),
            "phoneDigest": .string(r.phoneDigest ?? ""), "watchDigest": .string(r.watchDigest ?? ""),
            "error": .string(r.error ?? ""), "notes": .array(r.notes.map { .string($0) }),
        ]
        if let h = r.traceHash { d["traceHash"] = .string(h) }
        d["offsets"] = offsets(rec)
        d["frames"] = .array((rec?.frames ?? []).map(frame))
        d["faults"] = .array((rec?.faults ?? []).map { .array([.int($0.fromMs), .int($0.toMs), .string($0.text)]) })
        d["marks"] = .array((rec?.marks ?? []).map {
            .array([.int($0.atMs), .string($0.kind.rawValue), .int($0.role.map { $0 == .phone ? 0 : 1 } ?? -1), .string($0.text)])
        })
        let times = rec?.checkTimesMs ?? []
        d["checks"] = .array(r.checks.enumerated().map { i, c in
            .array([.int(i < times.count ? times[i] : -1), .bool(c.passed), .string(c.description), .string(c.detail),
                    .string(c.location?.description ?? "")])
        })
        // Screens enter the table in the order of their names, not of the dictionary's hashing
        // (which differs from process to process): the same run gives the same page.
        d["moments"] = .array((rec?.moments ?? []).map { m in
            var shown: [String: PlistValue] = [:]
            for (name, svg) in m.screens.sorted(by: { $0.key < $1.key }) { shown[name] = .int(Int64(svgs.index(svg))) }
            return .array([.int(m.atMs), .string(m.reason), .dictionary(shown)])
        })
        d["screens"] = .array((rec?.screens ?? []).map { .string($0) })
        d["logs"] = .array(r.logs.map { line in
            let (at, text) = logLine(line)
            return .array([.int(at ?? -1), .string(text)])
        })
        return .dictionary(d)
    }

    /// `[sentMs, arrivalMs or -1, from (0 phone, 1 watch), label, bytes, fate index, second arrival or -1]`.
    static func frame(_ f: FrameRecord) -> PlistValue {
        .array([
            .int(f.sentMs), .int(f.arrivalsMs.first ?? -1), .int(f.from == .phone ? 0 : 1), .string(f.label), .int(Int64(f.bytes)),
            .int(Int64(fates.firstIndex(of: f.fate) ?? 0)), .int(f.arrivalsMs.count > 1 ? f.arrivalsMs[1] : -1),
        ])
    }

    /// `[[fromMs, utcOffsetMs], …]`: the zone's offset at the start and at each change during
    /// the run (found hour by hour, then to the millisecond), so the page shows local times
    /// across a DST change without a time-zone database of its own.
    static func offsets(_ rec: RunRecording?) -> PlistValue {
        guard let rec, let cal = LocalCalendar(identifier: rec.timeZone) else { return .array([.array([.int(0), .int(0)])]) }
        func offset(_ ms: EpochMs) -> Int64 { Int64(cal.timeZone.secondsFromGMT(for: Date(epochMs: ms))) * 1000 }
        var out: [PlistValue] = [.array([.int(0), .int(offset(rec.startMs))])]
        var t = rec.startMs, current = offset(t)
        let end = max(rec.endMs, rec.frames.last?.arrivalsMs.last ?? rec.endMs) + 3_600_000
        while t < end {
            let next = min(end, t + 3_600_000)
            if offset(next) != current {
                var lo = t, hi = next
                while hi - lo > 1 {
                    let mid = lo + (hi - lo) / 2
                    if offset(mid) == current { lo = mid } else { hi = mid }
                }
                current = offset(hi)
                out.append(.array([.int(hi), .int(current)]))
            }
            t = next
        }
        return .array(out)
    }

    /// A log line's time and text: sim-mode lines start with the virtual epoch milliseconds,
    /// process-mode lines with an ISO date-time (the node's wall clock); the time is taken off
    /// the text so the page can show it as a local date-time.
    static func logLine(_ line: String) -> (EpochMs?, String) {
        guard let space = line.firstIndex(of: " ") else { return (nil, line) }
        let head = String(line[..<space]), rest = String(line[line.index(after: space)...])
        if let ms = Int64(head) { return (ms, rest) }
        if head.count >= 20, head.contains("T"), let ms = ISOInstant.parseOrEpochMs(head) { return (ms, rest) }
        return (nil, line)
    }
}

/// Distinct SVG documents of a report, each stored once.
struct SVGTable {
    private(set) var documents: [String] = []
    private var indices: [String: Int] = [:]

    /// The index of `svg`, added when new.
    mutating func index(_ svg: String) -> Int {
        if let i = indices[svg] { return i }
        documents.append(svg)
        indices[svg] = documents.count - 1
        return documents.count - 1
    }
}
