import PeerLinkCore

/// One shard of a sweep (`--shard i/n`): every n-th seed of the range, from the i-th.
public struct SweepShard: Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var of: Int
    public init(index: Int, of: Int) { self.index = index; self.of = of }
    public var description: String { "\(index)/\(of)" }
}

/// What a sweep ran and what came of every seed: `sync-sim sweep … --json PATH` writes it for
/// one shard, `sync-sim merge` reads shards and writes their union. It names everything a seed's
/// outcome depends on — the scenario (its text and SHA-256), the build (commit and version), the
/// options — so a failure found on any machine replays on any other from its seed, the commit
/// and the replay command it carries. `timing` (wall time, threads, host) is the only part that
/// differs between two runs of the same seeds; equality leaves it out.
public struct SweepReport: Sendable, Equatable {
    public struct ScenarioFile: Sendable, Equatable {
        public var name: String
        /// The path the sweep was given (its replay commands name it).
        public var file: String
        /// SHA-256 of the file's text, hex.
        public var sha256: String
        public var text: String

        public init(name: String, file: String, text: String) {
            self.name = name
            self.file = file
            self.text = text
            sha256 = hexString(SHA256.hash(Array(text.utf8)))
        }
    }

    /// The options a seed's outcome depends on (not `--jobs`: it does not change outcomes).
    public struct Settings: Sendable, Equatable {
        public var workload: WorkloadKind?
        /// The fault classes drawn from, in `FaultClass.allCases` order.
        public var classes: [FaultClass]
        public var shrink: Bool
        public var checkDeterminism: Bool
        /// `--faults` and `--ops`, when given (replays).
        public var faults: String?
        public var ops: String?

        public init(_ o: SweepOptions, faults: String? = nil, ops: String? = nil) {
            self.init(workload: o.workload, classes: FaultClass.allCases.filter(o.classes.contains), shrink: o.shrinks,
                      checkDeterminism: o.checksDeterminism, faults: faults, ops: ops)
        }

        public init(workload: WorkloadKind?, classes: [FaultClass], shrink: Bool, checkDeterminism: Bool, faults: String? = nil, ops: String? = nil) {
            self.workload = workload
            self.classes = classes
            self.shrink = shrink
            self.checkDeterminism = checkDeterminism
            self.faults = faults
            self.ops = ops
        }

        /// The options of the sweep these settings describe, running `apps`.
        public func sweepOptions(apps: SimApps) -> SweepOptions {
            var o = SweepOptions(apps: apps)
            o.workload = workload
            o.classes = Set(classes)
            o.shrinks = shrink
            o.checksDeterminism = checkDeterminism
            return o
        }

        /// As `sync-sim sweep` options (`--workload fitness --without tamper --no-shrink`), or
        /// `the defaults`.
        public var commandLine: String {
            var words: [String] = []
            if let w = workload { words.append("--workload \(w.rawValue)") }
            let left = FaultClass.allCases.filter { !classes.contains($0) }.map(\.rawValue)
            if !left.isEmpty { words.append("--without \(left.joined(separator: ","))") }
            if !shrink { words.append("--no-shrink") }
            if checkDeterminism { words.append("--check-determinism") }
            if let f = faults { words.append("--faults \"\(f)\"") }
            if let o = ops { words.append("--ops \"\(o)\"") }
            return words.isEmpty ? "the defaults" : words.joined(separator: " ")
        }
    }

    /// The seeds asked for: `count` from `from`, or one shard of them.
    public struct Seeds: Sendable, Equatable {
        public var from: UInt64
        public var count: Int
        public var shard: SweepShard?
        public init(from: UInt64, count: Int, shard: SweepShard? = nil) { self.from = from; self.count = count; self.shard = shard }

        /// The seeds themselves, as the sweep runs them.
        public var list: [UInt64] { SeedSweep.seeds(from: from, count: count, shard: shard.map { (index: $0.index, of: $0.of) }) }

        /// `seeds 1…100 (shard 2/4)`.
        public var description: String {
            (count == 1 ? "seed \(from)" : "seeds \(from)…\(from &+ UInt64(count - 1))") + (shard.map { " (shard \($0))" } ?? "")
        }
    }

    /// One seed's outcome, as text a person reads and the commands that replay it.
    public struct Seed: Sendable, Equatable {
        public var seed: UInt64
        public var passed: Bool
        /// The fault classes the seed drew (on).
        public var classes: [String]
        /// A failure's schedule (`--faults` syntax) and workload operations. A passing seed's
        /// are left out (a report of a million seeds stays small): `sync-sim sweep FILE --seed S`
        /// prints them.
        public var faults: String?
        public var ops: String?
        public var problems: [String]
        /// The problem class the shrinker kept (`convergence`, `model`…), when failed.
        public var kind: String?
        public var shrunk: String?
        public var shrunkOps: String?
        /// The block `sync-sim sweep` prints for the failure, and its two replay commands.
        public var failure: String?
        public var replay: String?
        public var minimal: String?
        public var virtualMs: Int64
        public var expectationsSkipped: Int
        /// Both runs' trace hashes under `--check-determinism`.
        public var traceHashes: [String]
    }

    public var scenario: ScenarioFile
    public var commit: String
    public var version: String
    public var options: Settings
    public var seeds: Seeds
    /// In seed order.
    public var outcomes: [Seed]
    /// Wall time, threads, host (and for a merge each shard's): left out of equality.
    public var timing: [String: PlistValue] = [:]

    public var failed: Int { outcomes.filter { !$0.passed }.count }
    public var passed: Int { outcomes.count - failed }

    /// `N passed, M failed`, as every run of sync-sim ends.
    public var summaryLine: String { "\(passed) passed, \(failed) failed" }

    public init(scenario: ScenarioFile, commit: String, version: String = PeerLinkVersion.string, options: Settings, seeds: Seeds,
                outcomes: [Seed], timing: [String: PlistValue] = [:]) {
        self.scenario = scenario
        self.commit = commit
        self.version = version
        self.options = options
        self.seeds = seeds
        self.outcomes = outcomes
        self.timing = timing
    }

    /// The report of a sweep of `scenario` (read from `file`, whose text is `text`) that gave
    /// `outcomes`, as `sync-sim sweep` writes it.
    public init(scenario: Scenario, file: String, text: String, commit: String, options: SweepOptions, faults: String? = nil, ops: String? = nil,
                seeds: Seeds, outcomes: [SeedOutcome], timing: [String: PlistValue] = [:]) {
        self.init(scenario: ScenarioFile(name: scenario.name, file: file, text: text), commit: commit,
                  options: Settings(options, faults: faults, ops: ops), seeds: seeds,
                  outcomes: outcomes.map { Seed($0, file: file, options: options, scenario: scenario) }, timing: timing)
    }

    public static func == (a: SweepReport, b: SweepReport) -> Bool {
        a.scenario == b.scenario && a.commit == b.commit && a.version == b.version && a.options == b.options
            && a.seeds == b.seeds && a.outcomes == b.outcomes
    }
}

extension SweepReport.Seed {
    /// The record of `o`, with the failure block `sync-sim sweep` prints for it.
    public init(_ o: SeedOutcome, file: String, options: SweepOptions, scenario: Scenario) {
        seed = o.seed
        passed = o.passed
        classes = o.faults.classes.map(\.rawValue)
        faults = o.passed ? nil : o.faults.description
        ops = o.passed ? nil : o.ops?.description
        problems = o.problems
        kind = o.failureKind
        shrunk = o.shrunk?.description
        shrunkOps = o.shrunkOps?.description
        if o.passed {
            failure = nil
            replay = nil
            minimal = nil
        } else {
            failure = SweepSession.failureText(o, file: file, classes: options.classes, workload: options.workload, scenario: scenario)
            (replay, minimal) = SweepSession.replayCommands(o, file: file, classes: options.classes, workload: options.workload)
        }
        virtualMs = o.virtualMs
        expectationsSkipped = o.expectationsSkipped
        traceHashes = o.traceHashes
    }

    /// The outcome again (for the HTML report, which runs the first failing seeds again).
    public func outcome() throws(ScenarioError) -> SeedOutcome {
        var schedule = try faults.map { s throws(ScenarioError) in try FaultSchedule.parse(s) } ?? FaultSchedule(faults: [])
        schedule.classes = classes.compactMap(FaultClass.init(rawValue:))
        var o = SeedOutcome(seed: seed, faults: schedule, problems: problems, shrunk: try shrunk.map { s throws(ScenarioError) in try FaultSchedule.parse(s) },
                            virtualMs: virtualMs)
        o.ops = try ops.map { s throws(ScenarioError) in try WorkloadOps.parse(s) }
        o.shrunkOps = try shrunkOps.map { s throws(ScenarioError) in try WorkloadOps.parse(s) }
        o.expectationsSkipped = expectationsSkipped
        o.traceHashes = traceHashes
        return o
    }
}

extension SweepReport {
    /// What `sync-sim merge` prints for a failed seed: the block its sweep printed, or, for a
    /// report without one (written by hand or by an older build), its first problem with the
    /// time read as a local date-time, as the block would give it.
    public func failureText(_ s: Seed) -> String {
        if let block = s.failure { return block }
        let scenario = try? ScenarioParser.parse(self.scenario.text, file: self.scenario.file)
        return "FAIL seed \(s.seed): " + (s.problems.first.map { SweepSession.readableTime($0, scenario: scenario) } ?? "?")
    }
}
