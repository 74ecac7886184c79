import PeerLinkCore

/// Why shard reports cannot be merged: one line naming the files and seeds at fault.
public struct ShardMergeRefusal: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// `sync-sim merge`: shard reports of one sweep into one report, as if one machine had run
/// every seed. Refused when the shards cannot be one sweep: different scenario texts (by
/// SHA-256), builds (commit, version) or options; a shard that holds other seeds than it
/// declares (cut short); seeds in more than one shard; seeds missing between the lowest and the
/// highest (what is missing is named, and the shard when a set of `i/n` shards lacks one).
public enum ShardMerge {
    /// Seeds named in a refusal before `… (N in all)`.
    static let namedSeeds = 6

    public static func merge(_ shards: [(file: String, report: SweepReport)]) throws(ShardMergeRefusal) -> SweepReport {
        guard let first = shards.first else { throw ShardMergeRefusal("no shard reports to merge") }
        // The text decides (its full SHA-256); the path is only shown: the same file under
        // another path is the same scenario.
        try same(shards, "scenario files (by SHA-256)", key: { $0.scenario.sha256 }) { sha, reports in
            names(reports.map(\.scenario.file).reduce(into: []) { paths, p in if !paths.contains(p) { paths.append(p) } }) + " sha256 \(sha.prefix(12))…"
        }
        try same(shards, "versions", key: { $0.version })
        try same(shards, "commits", key: { $0.commit })
        try same(shards, "options", key: { $0.options.commandLine })
        var owner: [UInt64: String] = [:]
        var overlaps: [String: [UInt64]] = [:]
        for (file, r) in shards {
            let declared = r.seeds.list
            let held = r.outcomes.map(\.seed)
            if held != declared {
                let missing = Set(declared).subtracting(held).sorted()
                let extra = Set(held).subtracting(declared).sorted()
                throw ShardMergeRefusal("\(file) declares \(r.seeds.description), \(declared.count) seeds, but holds \(held.count) outcomes"
                    + (missing.isEmpty ? "" : ": no outcome for \(seedList(missing))") + (extra.isEmpty ? "" : ": outcomes for \(seedList(extra)), which it does not declare")
                    + (missing.isEmpty && extra.isEmpty ? ": a seed twice" : "") + " (a shard cut short or edited: run it again)")
            }
            for s in held {
                if let other = owner[s] { overlaps["\(other) and \(file)", default: []].append(s) } else { owner[s] = file }
            }
        }
        if let (pair, seeds) = overlaps.min(by: { $0.value[0] < $1.value[0] }) {
            let n = overlaps.count - 1
            let more = n == 0 ? "" : n == 1 ? " (1 more pair of shards overlaps)" : " (\(n) more pairs of shards overlap)"
            throw ShardMergeRefusal("overlapping shards: \(pair) both hold \(seedList(seeds))\(more)")
        }
        let all = owner.keys.sorted()
        guard !all.isEmpty else { throw ShardMergeRefusal("the shards hold no seeds: \(names(shards.map(\.file))) (each shard has more shards than seeds)") }
        var gaps: [ClosedRange<UInt64>] = []
        for (a, b) in zip(all, all.dropFirst()) where b > a + 1 { gaps.append(a + 1...b - 1) }
        // The ends of the declared ranges count too: the last shard of a set can be the one missing.
        let declaredLow = shards.map(\.report.seeds.from).min()!, declaredHigh = shards.map { $0.report.seeds.from &+ UInt64(max(0, $0.report.seeds.count - 1)) }.max()!
        if declaredLow < all[0] { gaps.insert(declaredLow...all[0] - 1, at: 0) }
        if declaredHigh > all[all.count - 1] { gaps.append(all[all.count - 1] + 1...declaredHigh) }
        if !gaps.isEmpty {
            let missing = gaps.reduce(UInt64(0)) { $0 &+ ($1.upperBound - $1.lowerBound &+ 1) }
            let low = min(declaredLow, all[0]), high = max(declaredHigh, all[all.count - 1])
            throw ShardMergeRefusal("the shards leave a gap: \(rangeList(gaps)) \(missing == 1 ? "is" : "are") in no shard of seeds \(low)…\(high)"
                + missingShards(shards.map(\.report.seeds)))
        }
        var merged = first.report
        merged.seeds = SweepReport.Seeds(from: all[0], count: all.count)
        merged.outcomes = shards.flatMap(\.report.outcomes).sorted { $0.seed < $1.seed }
        merged.timing = [
            "shards": .array(shards.map { s in .dictionary(["file": .string(s.file), "seeds": .string(s.report.seeds.description)].merging(s.report.timing) { a, _ in a }) }),
            "wallMs": .int(shards.reduce(0) { $0 + ($1.report.timing["wallMs"]?.intValue ?? 0) }),
        ]
        return merged
    }

    /// What a merge of `shards` cannot check, for stderr: a commit of `unknown` or `…-dirty`
    /// is the same string for different builds, so equal commits do not show the shards came
    /// from one build. Such shards still merge (a developer merging their own shards).
    public static func warnings(_ shards: [(file: String, report: SweepReport)]) -> [String] {
        guard shards.count > 1, let commit = shards.first?.report.commit else { return [] }
        let why = commit == "unknown" ? "no commit was found: set PEERLINK_COMMIT" : commit.hasSuffix("-dirty") ? "built from a checkout with changes" : nil
        return why.map { ["commit \(commit): cannot tell the shards came from the same build (\($0))"] } ?? []
    }

    /// Refuses when `key` differs between shards: each value (as `shown` of it and the reports
    /// that have it) with the files that have it.
    static func same(_ shards: [(file: String, report: SweepReport)], _ what: String, key: (SweepReport) -> String,
                     shown: (String, [SweepReport]) -> String = { k, _ in k }) throws(ShardMergeRefusal) {
        var order: [String] = []
        var groups: [String: [(file: String, report: SweepReport)]] = [:]
        for shard in shards {
            let k = key(shard.report)
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(shard)
        }
        guard order.count > 1 else { return }
        let lines = order.map { k in "\(names(groups[k]!.map(\.file))): \(shown(k, groups[k]!.map(\.report)))" }
        throw ShardMergeRefusal("shards of different \(what): " + lines.joined(separator: "; "))
    }

    static func names(_ files: [String]) -> String {
        files.count <= 3 ? files.joined(separator: ", ") : files.prefix(3).joined(separator: ", ") + " and \(files.count - 3) more"
    }

    /// `seed 5` / `seeds 5, 9, 13` / `seeds 5, 9, … (40 in all)`.
    static func seedList(_ seeds: [UInt64]) -> String {
        let shown = seeds.prefix(namedSeeds).map(String.init).joined(separator: ", ")
        return (seeds.count == 1 ? "seed " : "seeds ") + shown + (seeds.count > namedSeeds ? ", … (\(seeds.count) in all)" : "")
    }

    /// `seeds 4, 8…11, 16` (the first few ranges).
    static func rangeList(_ gaps: [ClosedRange<UInt64>]) -> String {
        let shown = gaps.prefix(namedSeeds).map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)…\($0.upperBound)" }
        let single = gaps.count == 1 && gaps[0].lowerBound == gaps[0].upperBound
        return (single ? "seed " : "seeds ") + shown.joined(separator: ", ") + (gaps.count > namedSeeds ? ", … (\(gaps.count) gaps)" : "")
    }

    /// ` (shard 4/4 of seeds 1…16 is missing)` when shards of one range were given with some
    /// of their indices absent.
    static func missingShards(_ ranges: [SweepReport.Seeds]) -> String {
        var sets: [String: (Set<Int>, Int, SweepReport.Seeds)] = [:]
        for r in ranges {
            guard let s = r.shard else { continue }
            let key = "\(r.from) \(r.count) \(s.of)"
            sets[key, default: ([], s.of, r)].0.insert(s.index)
        }
        let lacking = sets.values.compactMap { (indices, of, r) -> String? in
            let absent = (1...of).filter { !indices.contains($0) }
            guard !absent.isEmpty else { return nil }
            var whole = r
            whole.shard = nil
            return (absent.count == 1 ? "shard " : "shards ") + absent.prefix(namedSeeds).map { "\($0)/\(of)" }.joined(separator: ", ")
                + (absent.count > namedSeeds ? ", …" : "") + " of \(whole.description) \(absent.count == 1 ? "is" : "are") missing"
        }.sorted()
        return lacking.isEmpty ? "" : " (" + lacking.joined(separator: "; ") + ")"
    }
}
