import Testing
import PeerLinkCore
import CountdownDomain
import PeerLinkScenarios
import PhoneWatch

/// `sync-sim merge`'s core: shards of one sweep make the report of the whole range; shards
/// that cannot be one sweep are refused with a line naming the files and seeds at fault.
@Suite("Sweep reports: merging shards")
struct ShardMergeTests {
    /// `n` shards of seeds 1…16, each run for real.
    static func run(_ n: Int) throws -> [(file: String, report: SweepReport)] {
        try (1...n).map { ("shard-\($0).json", try SweepFixture.report(shard: SweepShard(index: $0, of: n))) }
    }

    /// `n` shards of seeds 1…16 cut from the one run of all 16 (for the refusals: cheap).
    static func shards(_ n: Int) throws -> [(file: String, report: SweepReport)] {
        let whole = try SweepFixture.sixteen.get()
        return (1...n).map { i in
            var r = whole
            r.seeds.shard = SweepShard(index: i, of: n)
            let keep = Set(r.seeds.list)
            r.outcomes = whole.outcomes.filter { keep.contains($0.seed) }
            return ("shard-\(i).json", r)
        }
    }

    static func refusal(_ shards: [(file: String, report: SweepReport)]) -> String {
        do { _ = try ShardMerge.merge(shards); return "merged" } catch { return error.description }
    }

    @Test func shardsInAnyOrderMergeToTheUnshardedSweepSeedForSeed() throws {
        let whole = try SweepFixture.sixteen.get()
        let merged = try ShardMerge.merge(try Self.run(4).reversed())
        #expect(merged == whole)
        #expect(merged.jsonText(includingTiming: false) == whole.jsonText(includingTiming: false))
        #expect(merged.seeds == SweepReport.Seeds(from: 1, count: 16))
        // Each shard's timing is kept, under its file.
        let shards = merged.timing["shards"]?.arrayValue?.compactMap { $0.dictionaryValue?["file"]?.stringValue }
        #expect(shards == ["shard-4.json", "shard-3.json", "shard-2.json", "shard-1.json"])
        #expect(merged.timing["wallMs"] == 80)
        // A merged report merges again with the next range.
        let next = try SweepFixture.report(from: 17, count: 4)
        #expect(try ShardMerge.merge([("night.json", merged), ("more.json", next)]) == SweepFixture.report(count: 20))
    }

    @Test func shardsOfTheSameScenarioTextUnderAnotherPathMergeUnderTheFirstPath() throws {
        let whole = try SweepFixture.sixteen.get()
        let first = try SweepFixture.report(shard: SweepShard(index: 1, of: 2))
        let moved = try SweepFixture.report(shard: SweepShard(index: 2, of: 2), file: "elsewhere/tiny.scenario")
        #expect(moved.scenario.sha256 == first.scenario.sha256 && moved.scenario.file != first.scenario.file)
        let merged = try ShardMerge.merge([("shard-1.json", first), ("shard-2.json", moved)])
        #expect(merged.scenario == whole.scenario, "the merged report names the first shard's path")
        #expect(merged.outcomes.map(\.seed) == Array(1...16) && merged.failed == 2)
        // Each seed keeps the lines its shard wrote: seed 6 ran in shard 2, under its path.
        #expect(merged.outcomes[5].replay == "sync-sim sweep elsewhere/tiny.scenario --seed 6")
        #expect(merged.outcomes[10].replay == "sync-sim sweep tiny.scenario --seed 11")
    }

    @Test func shardsOfAnotherScenarioTextAreRefusedNamingBothFiles() throws {
        var s = try Self.shards(3)
        s[1].report = try SweepFixture.report(shard: SweepShard(index: 2, of: 3), text: SweepFixture.text + "# edited\n", file: "edited/tiny.scenario")
        let a = s[0].report.scenario.sha256.prefix(12), b = s[1].report.scenario.sha256.prefix(12)
        #expect(a != b)
        #expect(Self.refusal(s) == "shards of different scenario files (by SHA-256): shard-1.json, shard-3.json: tiny.scenario sha256 \(a)…; "
            + "shard-2.json: edited/tiny.scenario sha256 \(b)…")
    }

    @Test func shardsOfAnotherCommitVersionOrOptionsAreRefused() throws {
        var s = try Self.shards(3)
        s[2].report.commit = "ffff0000"
        #expect(Self.refusal(s) == "shards of different commits: shard-1.json, shard-2.json: 0123abcd; shard-3.json: ffff0000")
        s = try Self.shards(3)
        s[0].report.version = "0.19.0"
        #expect(Self.refusal(s) == "shards of different versions: shard-1.json: 0.19.0; shard-2.json, shard-3.json: \(PeerLinkVersion.string)")
        s = try Self.shards(3)
        s[1].report.options.workload = .fitness
        #expect(Self.refusal(s) == "shards of different options: shard-1.json, shard-3.json: the defaults; shard-2.json: --workload fitness")
    }

    /// `unknown` and `…-dirty` are the same string for any two builds: the shards still merge
    /// (a developer's own shards), with a warning that the build cannot be told.
    @Test func anUnknownOrDirtyCommitMergesWithAWarning() throws {
        var s = try Self.shards(2)
        #expect(ShardMerge.warnings(s).isEmpty)
        for commit in ["unknown", "0123abcd-dirty"] {
            for i in s.indices { s[i].report.commit = commit }
            #expect(try ShardMerge.merge(s).commit == commit)
            #expect(ShardMerge.warnings(s) == ["commit \(commit): cannot tell the shards came from the same build"
                + (commit == "unknown" ? " (no commit was found: set PEERLINK_COMMIT)" : " (built from a checkout with changes)")])
        }
        #expect(ShardMerge.warnings([s[0]]).isEmpty, "one shard: nothing to tell apart")
    }

    @Test func overlappingShardsAreRefusedNamingTheFilesAndSeeds() throws {
        var s = try Self.shards(4)
        s.append(("again.json", s[1].report))
        #expect(Self.refusal(s) == "overlapping shards: shard-2.json and again.json both hold seeds 2, 6, 10, 14")
        let whole = try SweepFixture.sixteen.get()
        #expect(Self.refusal(try Self.shards(2) + [("all.json", whole)])
            == "overlapping shards: shard-1.json and all.json both hold seeds 1, 3, 5, 7, 9, 11, … (8 in all) (1 more pair of shards overlaps)")
    }

    @Test func aMissingShardIsAGapThatIsNamed() throws {
        var s = try Self.shards(4)
        s.remove(at: 3)
        #expect(Self.refusal(s) == "the shards leave a gap: seeds 4, 8, 12, 16 are in no shard of seeds 1…16 (shard 4/4 of seeds 1…16 is missing)")
        s = try Self.shards(4)
        s.remove(at: 0)
        #expect(Self.refusal(s).hasPrefix("the shards leave a gap: seeds 1, 5, 9, 13 are in no shard of seeds 1…16 (shard 1/4"))
        let first = try SweepFixture.report(count: 4), later = try SweepFixture.report(from: 9, count: 4)
        #expect(Self.refusal([("a.json", first), ("b.json", later)]) == "the shards leave a gap: seeds 5…8 are in no shard of seeds 1…12")
    }

    @Test func aShardCutShortIsRefused() throws {
        var s = try Self.shards(2)
        s[1].report.outcomes.removeLast()
        #expect(Self.refusal(s) == "shard-2.json declares seeds 1…16 (shard 2/2), 8 seeds, but holds 7 outcomes: no outcome for seed 16 (a shard cut short or edited: run it again)")
        s = try Self.shards(2)
        s[0].report.outcomes[0].seed = 99
        #expect(Self.refusal(s).contains("no outcome for seed 1: outcomes for seed 99, which it does not declare"))
    }

    @Test func nothingToMergeIsRefused() throws {
        #expect(Self.refusal([]) == "no shard reports to merge")
        let empty = try SweepFixture.report(count: 2, shard: SweepShard(index: 3, of: 3))
        #expect(empty.outcomes.isEmpty)
        #expect(Self.refusal([("e.json", empty)]) == "the shards hold no seeds: e.json (each shard has more shards than seeds)")
    }
}
