import Testing
@testable import PeerLinkCore
@testable import CountdownDomain
@testable import PeerLinkScenarios
import PhoneWatch

/// Workloads: the operations, their text, the generators and the sweep's handling of them.
@Suite("Workloads: operations, generators, shrinking and replay")
struct WorkloadTests {
    static let scenario = """
        scenario "w"
        start 2026-06-01T07:00:00+09:00
        timezone Asia/Tokyo
        07:00:00 phone settings step-goal 9000
        07:10:00 expect converged
        """

    @Test func operationsRoundTripThroughTheirText() throws {
        for kind in WorkloadKind.allCases {
            for seed in UInt64(1)...30 {
                let ops = WorkloadGenerator.generate(kind, seed: seed, scenario: try ScenarioParser.parse(Self.scenario, file: "w"))
                #expect(try WorkloadOps.parse(ops.description) == ops, "\(kind) seed \(seed)")
                #expect(!ops.ops.isEmpty)
            }
        }
        #expect(try WorkloadOps.parse("none").ops.isEmpty)
        #expect(throws: ScenarioError.self) { try WorkloadOps.parse("@1m phone fly away") }
        #expect(throws: ScenarioError.self) { try WorkloadOps.parse("@1m tablet step-goal 9000") }
    }

    @Test func theSameSeedGivesTheSameOperationsAndOthersDiffer() throws {
        let s = try ScenarioParser.parse(Self.scenario, file: "w")
        #expect(WorkloadGenerator.generate(.fitness, seed: 4, scenario: s) == WorkloadGenerator.generate(.fitness, seed: 4, scenario: s))
        #expect(WorkloadGenerator.generate(.fitness, seed: 4, scenario: s) != WorkloadGenerator.generate(.fitness, seed: 5, scenario: s))
    }

    @Test func eachAppHasAGeneratorAndAScenarioGetsItsAppsOne() throws {
        let fitness = try ScenarioParser.parse(Self.scenario, file: "w")
        let countdown = try ScenarioParser.parse(Self.scenario + "\n07:11:00 phone goal add Trip --date 2026-08-01\n", file: "w")
        let named = try ScenarioParser.parse("workload countdown\n" + Self.scenario, file: "w")
        #expect(WorkloadKind.default(for: fitness) == .fitness)
        #expect(WorkloadKind.default(for: countdown) == .countdown)
        #expect(WorkloadKind.default(for: named) == .countdown)
        let ops = WorkloadGenerator.generate(.countdown, seed: 3, scenario: fitness).ops
        #expect(ops.contains { if case .goalAdd = $0.action { $0.role == .watch } else { false } })
        #expect(ops.contains { if case .goalAdd = $0.action { $0.role == .phone } else { false } })
    }

    @Test func aWorkloadSweepPassesWhenTheNodesAgreeWithTheModel() throws {
        let s = try ScenarioParser.parse(Self.scenario, file: "w")
        for kind in WorkloadKind.allCases {
            var o = SweepOptions()
            o.workload = kind
            for seed in UInt64(1)...8 {
                let out = SeedSweep.run(s, seed: seed, faults: FaultSchedule.random(seed: seed, spanMs: SeedSweep.spanMs(s, options: o)), options: o)
                #expect(out.passed, "\(kind) seed \(seed): \(out.problems)")
                #expect(out.ops?.ops.isEmpty == false)
            }
        }
    }

    /// A failing seed (here: the recovery is given 1 ms to converge) is shrunk, its workload's
    /// operations with its faults, and the printed minimal schedule and operations fail the
    /// same way again.
    @Test func aFailingSeedsOperationsAreShrunkAndTheReplayReproducesThem() throws {
        let s = try ScenarioParser.parse(Self.scenario, file: "w")
        var o = SweepOptions()
        o.workload = .countdown
        o.convergeWithinMs = 1
        o.recoveryAfterMs = 0
        let out = SeedSweep.sweepSeed(s, seed: 2, options: o)
        #expect(!out.passed)
        let ops = try #require(out.ops), shrunk = try #require(out.shrunkOps)
        #expect(shrunk.ops.count < ops.ops.count, "\(shrunk)")
        let text = SweepSession.failureText(out, file: "w.scenario", workload: .countdown)
        #expect(text.contains("--workload countdown --ops \"\(shrunk)\""))
        #expect(text.contains("replay: sync-sim sweep w.scenario --seed 2 --workload countdown"))
        let replayed = SeedSweep.run(s, seed: 2, faults: try FaultSchedule.parse((out.shrunk ?? out.faults).description),
                                     ops: try WorkloadOps.parse(shrunk.description), options: o)
        #expect(replayed.failureKind == out.failureKind)
    }

    /// An operation for a node a fault took down did not happen: it is recorded as not issued
    /// (the model follows what was issued), and the run still agrees with the model.
    /// Runs `s` with `faults` and the fitness workload's `ops` (network seed 3): the run, what
    /// each operation did, and the sweep options that replay it.
    static func runFitness(_ s: Scenario, faults: FaultSchedule, ops: WorkloadOps) throws
        -> (run: ScenarioResult, entries: [WorkloadRun.Entry], options: SweepOptions)
    {
        var o = SimOptions()
        o.recordsTrace = false
        o.networkSeed = 3
        let runner = ScenarioRunner(driver: PhoneWatchSimDriver(options: o))
        runner.workload = WorkloadRun(kind: .fitness)
        var options = SweepOptions()
        options.workload = .fitness
        let r = runner.run(SeedSweep.faultedScenario(s, faults: faults, ops: ops, options: options))
        return (r, try #require(runner.workload?.entries), options)
    }

    @Test func anOperationForANodeTheFaultsTookDownIsRecordedAsNotIssued() throws {
        let s = try ScenarioParser.parse(Self.scenario, file: "w")
        let faults = try FaultSchedule.parse("@1m kill watch for 5m")
        let ops = try WorkloadOps.parse("@2m watch step-goal 9500; @3m phone step-goal 8000; @8m watch step-goal 7000")
        let (r, entries, options) = try Self.runFitness(s, faults: faults, ops: ops)
        #expect(entries.count == 3)
        #expect(entries[0].skipped == "the watch was down" && entries[0].command == nil, "\(entries[0].summary)")
        #expect(entries[1].skipped == nil && entries[1].accepted)
        #expect(entries[2].skipped == nil && entries[2].accepted)
        let failed = r.checks.filter { !$0.passed }
        #expect(failed.isEmpty, "\(failed)")
        // The watch's last write stands: the one it never made is not expected anywhere.
        let out = SeedSweep.run(s, seed: 3, faults: faults, ops: ops, options: options)
        #expect(out.passed, "\(out.problems)")
    }

    @Test func workloadsSendMessagesFromBothDevicesAndEachEndsInItsReplyOrAWCError() throws {
        let s = try ScenarioParser.parse(Self.scenario, file: "w")
        // Generated: drawn from a stream of their own, from both devices, in both workloads.
        let generated = (UInt64(1)...40).flatMap { seed in
            WorkloadKind.allCases.flatMap { WorkloadGenerator.generate($0, seed: seed, scenario: s).ops }
        }.filter { if case .message = $0.action { true } else { false } }
        #expect(generated.contains { $0.role == .phone } && generated.contains { $0.role == .watch })
        // Run: one while the link is down (refused at once: not reachable), one after.
        let faults = try FaultSchedule.parse("@1m link down for 2m")
        let ops = try WorkloadOps.parse("@2m phone message 1; @4m watch message 2")
        let (r, entries, options) = try Self.runFitness(s, faults: faults, ops: ops)
        #expect(entries.count == 2)
        #expect(entries[0].command == #"message send {"workload": 1}"# && !entries[0].accepted, "\(entries[0].summary)")
        #expect(entries[1].command == #"message send {"workload": 2}"# && entries[1].accepted, "\(entries[1].summary)")
        #expect(r.checks.filter { !$0.passed }.isEmpty, "\(r.checks.filter { !$0.passed })")
        #expect(SeedSweep.run(s, seed: 3, faults: faults, ops: ops, options: options).passed)
    }

    @Test func theShrinkerLeavesOutOperationsAndFaultsAlike() {
        let ops = (1...12).map { WorkloadOp(atMs: Int64($0) * 1000, role: .phone, action: .goalAdd(name: "G\($0)", date: CivilDate(iso: "2026-09-01")!)) }
        let faults = (1...6).map { ScheduledFault(atMs: Int64($0) * 1000, kind: .crash(.watch)) }
        let items = faults.map(SweepItem.fault) + ops.map(SweepItem.op)
        // Fails when the run has G7's add and a crash at 3 s.
        let minimal = Shrinker.minimize(items) { list in
            list.contains { if case .op(let o) = $0 { o == ops[6] } else { false } }
                && list.contains { if case .fault(let f) = $0 { f == faults[2] } else { false } }
        }
        #expect(minimal.count == 2)
    }

    // MARK: - The models' rules

    static func write(_ wall: Int64, _ value: PlistValue, certain: Bool = true) -> FieldWrite {
        FieldWrite(stamp: HLCTimestamp(wallMs: wall, counter: 0, replica: 1), value: value, certain: certain)
    }

    static func record(_ wall: Int64, _ value: PlistValue) -> PlistValue {
        ["deleted": false, "fields": ["f": value], "stamps": ["f": [.int(wall), 0, 1]]]
    }

    @Test func theLastWriterByTheHybridClockMustHoldTheRegister() {
        let writes = [Self.write(10, "a"), Self.write(20, "b")]
        #expect(WorkloadRun.lastWriterWins(writes, final: Self.record(20, "b"), field: "f") == nil)
        #expect(WorkloadRun.lastWriterWins(writes, final: Self.record(10, "a"), field: "f")?.contains("expected \"b\"") == true)
        #expect(WorkloadRun.lastWriterWins(writes, final: Self.record(20, "x"), field: "f")?.contains("the write with that stamp was \"b\"") == true)
        // A later write lost with a damaged store may or may not have won.
        let lost = [Self.write(10, "a"), Self.write(20, "b", certain: false)]
        #expect(WorkloadRun.lastWriterWins(lost, final: Self.record(10, "a"), field: "f") == nil)
        #expect(WorkloadRun.lastWriterWins(lost, final: Self.record(20, "b"), field: "f") == nil)
        #expect(WorkloadRun.lastWriterWins(lost, final: Self.record(5, "z"), field: "f") != nil)
    }

    /// A write stamped no later than what its node already held breaks the hybrid clock's
    /// promise (a write made after seeing another must win over it).
    @Test func aWriteStampedBeforeWhatItsNodeAlreadyHeldIsAClockProblem() {
        let run = WorkloadRun(kind: .fitness)
        var e = WorkloadRun.Entry(op: WorkloadOp(atMs: 0, role: .watch, action: .stepGoal(9000)), command: "x")
        e.accepted = true
        e.before = Self.record(500, 8000).renamed("stepGoal")
        e.record = Self.record(400, 9000).renamed("stepGoal")
        run.append([e])
        #expect(run.clockProblems().count == 1)
        var lost = e
        lost.record = Self.record(500, 8000).renamed("stepGoal")
        let lostRun = WorkloadRun(kind: .fitness)
        lostRun.append([lost])
        #expect(lostRun.clockProblems().first?.contains("its write lost at once") == true)
        e.record = Self.record(600, 9000).renamed("stepGoal")
        let fine = WorkloadRun(kind: .fitness)
        fine.append([e])
        #expect(fine.clockProblems().isEmpty)
    }

    @Test func theDaysStepsCountTheWatchInFullAndThePhoneInItsGaps() {
        let m: Int64 = 60_000
        let samples = [FitnessModel.StepSample(source: .watch, value: 1000, startMs: 0, endMs: 10 * m),
                       FitnessModel.StepSample(source: .phone, value: 600, startMs: 5 * m, endMs: 15 * m)]
        #expect(FitnessModel.dailySteps(samples, dayStart: 0, dayEnd: 24 * 60 * m) == 1300)
        // Only the part inside the day counts, pro rata.
        #expect(FitnessModel.dailySteps(samples, dayStart: 10 * m, dayEnd: 24 * 60 * m) == 300)
        #expect(FitnessModel.dailySteps(samples, dayStart: 20 * m, dayEnd: 30 * m) == nil)
    }

    static func entry(_ at: Int64, _ action: WorkoutOpTest, accepted: Bool = true, reply: PlistValue = [:]) -> WorkloadRun.Entry {
        var e = WorkloadRun.Entry(op: WorkloadOp(atMs: at, role: .watch, action: action.action), command: "x", atMs: at, wallMs: at)
        e.accepted = accepted
        e.reply = reply
        return e
    }

    enum WorkoutOpTest {
        case start, pause, resume, end, hr(Int)
        var action: WorkloadOp.Action {
            switch self {
            case .start: .workout("start")
            case .pause: .workout("pause")
            case .resume: .workout("resume")
            case .end: .workout("end")
            case .hr(let b): .heartRate(b)
            }
        }
    }

    @Test func aWorkoutsElapsedTimeLeavesOutItsPausesAndASecondSessionEndsTheFirst() {
        let run = WorkloadRun(kind: .fitness)
        run.append([Self.entry(1_000, .start, reply: ["id": "w1"]), Self.entry(2_000, .hr(120)), Self.entry(5_000, .pause),
                    Self.entry(6_000, .end, accepted: false), Self.entry(9_000, .resume), Self.entry(10_000, .hr(140)),
                    Self.entry(12_000, .end), Self.entry(20_000, .start, reply: ["id": "w2"]), Self.entry(25_000, .pause),
                    Self.entry(30_000, .start, reply: ["id": "w3"]), Self.entry(31_000, .end)])
        let (problems, saved, active) = FitnessModel.workouts(run)
        #expect(problems.isEmpty, "\(problems)")
        #expect(!active)
        #expect(saved.map(\.id) == ["w1", "w2", "w3"])
        #expect(saved.map(\.elapsedMs) == [7_000, 5_000, 1_000])
        #expect(saved[0].heartRates == [120, 140])
    }

    @Test func aSessionCallTheWatchShouldHaveRefusedIsAProblem() {
        let run = WorkloadRun(kind: .fitness)
        run.append([Self.entry(1_000, .start, reply: ["id": "w1"]), Self.entry(2_000, .pause), Self.entry(3_000, .hr(120))])
        let (problems, _, _) = FitnessModel.workouts(run)
        #expect(problems.count == 1 && problems[0].contains("accepted it") && problems[0].contains("was paused"))
    }

    @Test func aPushGoesAsComplicationUserInfoWhileTheBudgetLasts() {
        let run = WorkloadRun(kind: .fitness)
        var ok = WorkloadRun.Entry(op: WorkloadOp(atMs: 0, role: .phone, action: .complicationPush), command: "x")
        ok.accepted = true
        ok.remainingBefore = 3
        ok.reply = ["outcome": "complication", "remaining": 2]
        var wrong = ok
        wrong.reply = ["outcome": "userInfo", "remaining": 3]
        var spent = ok
        spent.remainingBefore = 0
        spent.reply = ["outcome": "userInfo", "remaining": 0]
        run.append([ok, spent])
        #expect(FitnessModel.complication(run).isEmpty)
        run.append([wrong])
        #expect(FitnessModel.complication(run).count == 1)
    }
}

extension PlistValue {
    /// The test record with its field `f` named `name`.
    func renamed(_ name: String) -> PlistValue {
        ["deleted": false, "fields": [name: self["fields"]!["f"]!], "stamps": [name: self["stamps"]!["f"]!]]
    }
}

extension WorkloadRun {
    /// Adds entries as if they had been issued (for the models' tests).
    func append(_ more: [Entry]) { for e in more { appendEntry(e) } }
}
