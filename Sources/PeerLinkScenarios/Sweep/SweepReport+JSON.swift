import PeerLinkCore

/// Why a file is not a sweep report this sync-sim can read.
public struct SweepReportError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

extension SweepReport {
    /// `format` of every sweep report, and the layout version this code writes and reads.
    public static let format = "peerlink-sweep-report"
    public static let formatVersion: Int64 = 1

    /// The report as JSON: keys sorted (byte order), one top-level key a line and one seed a
    /// line, so two reports of the same seeds are the same bytes but for their `timing` line.
    public func jsonText(includingTiming: Bool = true) -> String {
        var top = jsonFields()
        if includingTiming { top["timing"] = .dictionary(timing) }
        var lines: [String] = []
        for key in (Array(top.keys) + ["outcomes"]).sorted(by: CanonicalEncoding.utf8Less) {
            let name = PlistValue.string(key).jsonString()
            if key == "outcomes" {
                var items = ""
                for (i, o) in outcomes.enumerated() { items += (i == 0 ? "  " : ",\n  ") + o.jsonValue.jsonString() }
                lines.append(outcomes.isEmpty ? "\(name):[]" : "\(name):[\n" + items + "\n]")
            } else {
                lines.append("\(name):" + top[key]!.jsonString())
            }
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// The top-level fields but `outcomes` (written a seed a line) and `timing`.
    func jsonFields() -> [String: PlistValue] {
        var opts: [String: PlistValue] = [
            "classes": .array(options.classes.map { .string($0.rawValue) }), "shrink": .bool(options.shrink),
            "checkDeterminism": .bool(options.checkDeterminism),
        ]
        if let w = options.workload { opts["workload"] = .string(w.rawValue) }
        if let f = options.faults { opts["faults"] = .string(f) }
        if let o = options.ops { opts["ops"] = .string(o) }
        var range: [String: PlistValue] = ["from": Self.seedValue(seeds.from), "count": .int(Int64(seeds.count))]
        if let s = seeds.shard { range["shard"] = ["index": .int(Int64(s.index)), "of": .int(Int64(s.of))] }
        return [
            "format": .string(Self.format), "formatVersion": .int(Self.formatVersion),
            "scenario": ["name": .string(scenario.name), "file": .string(scenario.file), "sha256": .string(scenario.sha256), "text": .string(scenario.text)],
            "commit": .string(commit), "version": .string(version), "options": .dictionary(opts), "seeds": .dictionary(range),
            "passed": .int(Int64(passed)), "failed": .int(Int64(failed)),
        ]
    }

    /// A seed as a JSON number (a string beyond the range JSON readers take as integers).
    static func seedValue(_ s: UInt64) -> PlistValue { s <= UInt64(Int64.max) ? .int(Int64(s)) : .string(String(s)) }

    /// Reads a report `jsonText` wrote; the error says what is wrong with it.
    public static func parse(_ text: String) throws(SweepReportError) -> SweepReport {
        let value: PlistValue
        do { value = try PlistValue.parseJSON(text) } catch { throw SweepReportError("not JSON: \(error)") }
        let top = Fields(value, "the report")
        guard value.dictionaryValue != nil, (try? top.string("format")) == format else {
            throw SweepReportError("not a sweep report (no \"format\": \"\(format)\"; sync-sim sweep --json writes one)")
        }
        let version = try top.int("formatVersion")
        guard version == formatVersion else { throw SweepReportError("report format \(version); this sync-sim reads format \(formatVersion)") }
        let s = try top.object("scenario")
        var scenario = ScenarioFile(name: try s.string("name"), file: try s.string("file"), text: try s.string("text"))
        let sha = try s.string("sha256")
        guard sha == scenario.sha256 else { throw SweepReportError("its scenario text does not match its sha256 \(sha) (the file was edited)") }
        scenario.sha256 = sha
        let o = try top.object("options")
        var settings = Settings(workload: nil, classes: FaultClass.allCases, shrink: true, checkDeterminism: false)
        let w = try o.optionalString("workload")
        settings.workload = try w.map { name throws(SweepReportError) in
            guard let k = WorkloadKind(rawValue: name) else { throw SweepReportError("options: unknown workload \"\(name)\"") }
            return k
        }
        settings.classes = []
        for name in try o.strings("classes") {
            guard let c = FaultClass(rawValue: name) else { throw SweepReportError("options: unknown fault class \"\(name)\"") }
            settings.classes.append(c)
        }
        settings.shrink = try o.bool("shrink")
        settings.checkDeterminism = try o.bool("checkDeterminism")
        settings.faults = try o.optionalString("faults")
        settings.ops = try o.optionalString("ops")
        let r = try top.object("seeds")
        var seeds = Seeds(from: try r.seed("from"), count: Int(try r.int("count")))
        guard seeds.count >= 1 else { throw SweepReportError("seeds: \"count\" is \(seeds.count), not a count of at least 1") }
        if r.dict["shard"] != nil {
            let sh = try r.object("shard")
            let shard = SweepShard(index: Int(try sh.int("index")), of: Int(try sh.int("of")))
            guard shard.of >= 1, shard.index >= 1, shard.index <= shard.of else { throw SweepReportError("seeds: shard \(shard) is not i/n with 1 ≤ i ≤ n") }
            seeds.shard = shard
        }
        var outcomes: [Seed] = []
        for (i, item) in try top.array("outcomes").enumerated() {
            outcomes.append(try Seed(json: Fields(item, "outcome \(i + 1)")))
        }
        let report = SweepReport(scenario: scenario, commit: try top.string("commit"), version: try top.string("version"), options: settings,
                                 seeds: seeds, outcomes: outcomes, timing: top.dict["timing"]?.dictionaryValue ?? [:])
        guard try top.int("passed") == report.passed, try top.int("failed") == report.failed else {
            throw SweepReportError("its \"passed\" and \"failed\" counts do not match its outcomes (the file was edited)")
        }
        return report
    }
}

extension SweepReport.Seed {
    var jsonValue: PlistValue {
        var v: [String: PlistValue] = [
            "seed": SweepReport.seedValue(seed), "passed": .bool(passed), "classes": .array(classes.map { .string($0) }),
            "problems": .array(problems.map { .string($0) }), "virtualMs": .int(virtualMs),
            "expectationsSkipped": .int(Int64(expectationsSkipped)),
        ]
        let optional: [(String, String?)] = [("faults", faults), ("ops", ops), ("kind", kind), ("shrunk", shrunk), ("shrunkOps", shrunkOps),
                                             ("failure", failure), ("replay", replay), ("minimal", minimal)]
        for (key, value) in optional { if let value { v[key] = .string(value) } }
        if !traceHashes.isEmpty { v["traceHashes"] = .array(traceHashes.map { .string($0) }) }
        return .dictionary(v)
    }

    init(json f: SweepReport.Fields) throws(SweepReportError) {
        seed = try f.seed("seed")
        passed = try f.bool("passed")
        classes = try f.strings("classes")
        faults = try f.optionalString("faults")
        ops = try f.optionalString("ops")
        problems = try f.strings("problems")
        kind = try f.optionalString("kind")
        shrunk = try f.optionalString("shrunk")
        shrunkOps = try f.optionalString("shrunkOps")
        failure = try f.optionalString("failure")
        replay = try f.optionalString("replay")
        minimal = try f.optionalString("minimal")
        virtualMs = try f.int("virtualMs")
        expectationsSkipped = Int(try f.int("expectationsSkipped"))
        traceHashes = f.dict["traceHashes"] == nil ? [] : try f.strings("traceHashes")
        guard passed == problems.isEmpty else { throw SweepReportError("seed \(seed): \"passed\" is \(passed) with \(problems.count) problems") }
    }
}

extension SweepReport {
    /// Typed fields of one JSON object; each miss names the field and where it is.
    struct Fields {
        let dict: [String: PlistValue]
        let place: String
        init(_ v: PlistValue, _ place: String) { dict = v.dictionaryValue ?? [:]; self.place = place }

        func field(_ k: String) throws(SweepReportError) -> PlistValue {
            guard let v = dict[k] else { throw SweepReportError("\(place): no \"\(k)\"") }
            return v
        }
        func bad(_ k: String, _ what: String) -> SweepReportError { SweepReportError("\(place): \"\(k)\" is not \(what)") }
        func string(_ k: String) throws(SweepReportError) -> String {
            guard let s = try field(k).stringValue else { throw bad(k, "a string") }
            return s
        }
        func optionalString(_ k: String) throws(SweepReportError) -> String? { dict[k] == nil ? nil : try string(k) }
        func int(_ k: String) throws(SweepReportError) -> Int64 {
            guard case .int(let i) = try field(k) else { throw bad(k, "an integer") }
            return i
        }
        func bool(_ k: String) throws(SweepReportError) -> Bool {
            guard let b = try field(k).boolValue else { throw bad(k, "true or false") }
            return b
        }
        func seed(_ k: String) throws(SweepReportError) -> UInt64 {
            switch try field(k) {
            case .int(let i) where i >= 0: return UInt64(i)
            case .string(let s): if let u = UInt64(s) { return u }
            default: break
            }
            throw bad(k, "a seed (an unsigned integer)")
        }
        func array(_ k: String) throws(SweepReportError) -> [PlistValue] {
            guard let a = try field(k).arrayValue else { throw bad(k, "an array") }
            return a
        }
        func strings(_ k: String) throws(SweepReportError) -> [String] {
            let items = try array(k).compactMap(\.stringValue)
            guard items.count == (try array(k)).count else { throw bad(k, "an array of strings") }
            return items
        }
        func object(_ k: String) throws(SweepReportError) -> Fields {
            let v = try field(k)
            guard v.dictionaryValue != nil else { throw bad(k, "an object") }
            return Fields(v, place == "the report" ? k : "\(place).\(k)")
        }
    }
}
