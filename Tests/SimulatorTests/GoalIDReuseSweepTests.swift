import Testing
@testable import PeerLinkCore
@testable import PeerLinkScenarios
import PeerLinkSim
import PhoneWatch

/// A goal id handed out again by the scenario's own `goal add` (docs/SCENARIOS.md, *Graves*):
/// found by a 300-seed countdown sweep of `graves-expire-after-90-days.scenario` from seed
/// 900001, beyond the seeds CI runs. The phone adds a workload goal (goal-3), the watch deletes
/// it, the phone's store is found corrupt and rebuilt from the watch (its id counter starts
/// over), both clocks move 101 days on and both graves are dropped; the scenario's `phone goal
/// add Latest` then takes goal-3 again. The model read that as the deleted goal come back.
@Suite("Goal ids handed out again, found by sweeps")
struct GoalIDReuseSweepTests {
    static let file = SimTest.repositoryRoot + "/scenarios/graves-expire-after-90-days.scenario"
    static let ops = "@1m43s phone goal-add G3 2026-09-26; @1m47s watch goal-delete G3"

    static func options() -> SweepOptions {
        var o = SweepOptions()
        o.workload = .countdown
        return o
    }

    /// Runs the scenario with `faults` and `ops` as the sweep does (seed 900132), keeping the
    /// workload's record of the run.
    static func run(faults: String) throws -> (outcome: SeedOutcome, workload: WorkloadRun) {
        let scenario = try SimTest.load(file)
        let f = try FaultSchedule.parse(faults), w = try WorkloadOps.parse(ops)
        let outcome = SeedSweep.run(scenario, seed: 900132, faults: f, ops: w, options: options())
        return (outcome, try SimTest.runWorkload(scenario, seed: 900132, faults: f, ops: w, options: options()).workload)
    }

    /// Replay: `sync-sim sweep scenarios/graves-expire-after-90-days.scenario --seed 900132
    /// --faults "@1m49s kill phone for 2m40s; @5m5s corrupt phone" --workload countdown --ops
    /// "@1m43s phone goal-add G3 2026-09-26; @1m47s watch goal-delete G3"`. Before the model
    /// knew the scenario's adds could be given a workload goal's id, it failed with "goal G3
    /// (goal-3) on the phone: deleted, yet its record is live".
    @Test func aDeletedGoalsIDGivenAgainAfterItsGraveAndTheCounterWentIsNotTheGoalBack() throws {
        let (outcome, workload) = try Self.run(faults: "@1m49s kill phone for 2m40s; @5m5s corrupt phone")
        #expect(outcome.passed, "\(outcome.problems)")
        // The model saw the id go to another goal, and let it be: the store that had handed
        // out goal-3 was damaged after it did.
        #expect(workload.reusedIDs == ["G3": "goal-3"], "\(workload.reusedIDs)")
        #expect(workload.ids["G3"] == nil)
    }

    /// Without the damaged store the phone keeps its id counter: the scenario's later goals
    /// take new ids, the workload goal stays deleted and the model checks it as such.
    @Test func withItsCounterKeptTheNodeGivesNoDeletedGoalsIDAgain() throws {
        let (outcome, workload) = try Self.run(faults: "@1m49s kill phone for 2m40s")
        #expect(outcome.passed, "\(outcome.problems)")
        #expect(workload.reusedIDs.isEmpty, "\(workload.reusedIDs)")
        #expect(workload.ids["G3"] == "goal-3")
    }
}

/// A rolled-back store hands out ids the peer used (docs/WATCH.md, docs/PHONE.md: the known
/// limitation); the goal given one merges into the old goal or goes with its delete, and the
/// model does not check it. Found by a 300-seed countdown sweep of
/// `goal-added-on-reset-watch.scenario`: seed 293, shrunk to the watch's store rolled back
/// right after its reset (the commit that kept the reset's id suffix lost) and a workload goal
/// added on the watch with the link down. It took goal-w2, the id of the scenario's goal "Old",
/// deleted before and a grave on both devices, and went with that delete. The model knew only
/// collisions with the workload's own goals, and reported "never deleted, yet it is gone".
@Suite("Goal ids a rolled-back store hands out again, found by sweeps")
struct RolledBackGoalIDSweepTests {
    @Test func aGoalGivenAnIDThePeerHeldAfterItsStoreWentBackIsNotChecked() throws {
        let scenario = try SimTest.load(SimTest.repositoryRoot + "/scenarios/goal-added-on-reset-watch.scenario")
        let f = try FaultSchedule.parse("@3m2s rollback watch"), w = try WorkloadOps.parse("@4m28s watch goal-add G4 2027-01-18")
        let outcome = SeedSweep.run(scenario, seed: 293, faults: f, ops: w, options: GoalIDReuseSweepTests.options())
        #expect(outcome.passed, "\(outcome.problems)")
        let (driver, workload) = try SimTest.runWorkload(scenario, seed: 293, faults: f, ops: w, options: GoalIDReuseSweepTests.options())
        #expect(workload.ids["G4"] == "goal-w2" && workload.collidingAdds == ["G4"], "\(workload.ids) \(workload.collidingAdds)")
        // The phone holds goal-w2 as a grave (what told the model as the goal was added).
        #expect(try WorkloadRun.value(driver, .phone, "query record goal goal-w2") == nil)
        #expect(try WorkloadRun.value(driver, .phone, "query grave goal goal-w2") != nil)
        #expect(try WorkloadRun.hasUsed(driver, .phone, "goal", "goal-w2"))
        #expect(try !WorkloadRun.hasUsed(driver, .phone, "goal", "goal-w9"))
    }

    /// Without the rollback the watch's store keeps the reset's suffix: the workload goal takes
    /// an id of its own and is checked as any other.
    @Test func withoutTheRollbackTheGoalTakesANewIDAndIsChecked() throws {
        let scenario = try SimTest.load(SimTest.repositoryRoot + "/scenarios/goal-added-on-reset-watch.scenario")
        let f = try FaultSchedule.parse("@11m30s link down for 4m23s"), w = try WorkloadOps.parse("@4m28s watch goal-add G4 2027-01-18")
        let workload = try SimTest.runWorkload(scenario, seed: 293, faults: f, ops: w, options: GoalIDReuseSweepTests.options()).workload
        #expect(workload.collidingAdds.isEmpty && workload.ids["G4"]?.hasPrefix("goal-w") == true && workload.ids["G4"] != "goal-w2", "\(workload.ids)")
        #expect(SeedSweep.run(scenario, seed: 293, faults: f, ops: w, options: GoalIDReuseSweepTests.options()).passed)
    }
}

/// `query grave COLLECTION ID`: a collected delete's stamp, while its grave is kept.
@Suite("query grave")
struct GraveQueryTests {
    @Test func aCollectedDeleteAnswersItsStampAndNothingElseDoes() throws {
        let (result, driver) = try SimTest.run("""
            07:00:00 phone goal add Trip --date 2026-12-01
            07:01:00 expect converged
            07:02:00 phone goal delete goal-1 --confirm
            07:03:00 expect converged
            +0s expect phone graves == 1
            +0s expect watch graves == 1
            """)
        let failed = result.checks.filter { !$0.passed }
        #expect(failed.isEmpty, "\(failed)")
        for role in DeviceRole.allCases {
            let stamp = try #require(try WorkloadRun.value(driver, role, "query grave goal goal-1"), "\(role)")
            // The delete's: made on the phone (replica 1) at 07:02.
            let a = try #require(stamp.arrayValue, "\(role): \(stamp)")
            #expect(a.count == 3 && (a[0].intValue ?? 0) >= 1780264920000 && a[2].intValue == 1, "\(role): \(stamp)")
            #expect(try WorkloadRun.value(driver, role, "query record goal goal-1") == nil, "\(role)")
            #expect(try WorkloadRun.value(driver, role, "query grave goal goal-2") == nil, "\(role)")
            #expect(try WorkloadRun.value(driver, role, "query grave goal") == nil, "\(role)")
        }
    }
}

/// The model's side of it, on a run built by hand: the scenario's `goal add` on the phone is
/// given the id of a workload goal the phone added and the watch deleted, which the phone held
/// in no form any more. That is the goal's id handed out again, not the goal back; it is a
/// problem unless the phone's store was damaged after the goal was added and before its id went
/// again (the id counter lost). Had the phone still held the goal as deleted, the add would be
/// the goal back.
@Suite("Goal ids handed out again: the countdown model")
struct GoalIDReuseModelTests {
    static let deleted: PlistValue = ["deleted": true, "stamp": [107_000, 0, 2]]
    static let latest: PlistValue = [
        "deleted": false, "fields": ["title": "Latest", "targetDate": "2026-12-24", "isAgeGoal": false],
        "stamps": ["title": [8_726_880_000, 0, 1], "targetDate": [8_726_880_000, 0, 1], "isAgeGoal": [8_726_880_000, 0, 1]],
    ]

    /// The problems the model finds once the scenario's `goal add Latest` took goal-3 at 10 min,
    /// with the store damages `damage` (role, virtual ms) noted, the phone holding `before`
    /// under goal-3 until then.
    static func problems(damage: [(DeviceRole, EpochMs)], before: PlistValue? = nil) throws -> (problems: [String], run: WorkloadRun) {
        let run = WorkloadRun(kind: .countdown)
        var add = WorkloadRun.Entry(op: WorkloadOp(atMs: 103_000, role: .phone, action: .goalAdd(name: "G3", date: CivilDate(year: 2026, month: 9, day: 26))), atMs: 103_000)
        add.accepted = true
        var delete = WorkloadRun.Entry(op: WorkloadOp(atMs: 107_000, role: .watch, action: .goalDelete(name: "G3")), atMs: 107_000)
        delete.accepted = true
        run.append([add, delete])
        run.ids["G3"] = "goal-3"
        for (role, at) in damage { run.storeDamaged(role, atMs: at) }
        let driver = ScriptedDriver()
        driver.records["goal-3"] = before
        _ = try run.aroundScenarioCommand(.phone, try #require(NodeCommand(line: "goal add Latest --date 2026-12-24")), driver: driver, nowMs: 600_000) {
            driver.records["goal-3"] = latest
            return []
        }
        return (try CountdownModel.check(run, driver: driver), run)
    }

    @Test func theIDGivenAgainAfterThePhonesStoreWasDamagedIsAccepted() throws {
        let (problems, run) = try Self.problems(damage: [(.phone, 305_000)])
        #expect(problems.isEmpty, "\(problems)")
        #expect(run.reusedIDs == ["G3": "goal-3"] && run.ids["G3"] == nil)
    }

    @Test func theIDGivenAgainWithNoDamagedStoreIsAProblem() throws {
        // None; the watch's; the phone's, before the add or after the id went again.
        for damage in [[], [(DeviceRole.watch, 305_000)], [(DeviceRole.phone, 50_000)], [(DeviceRole.phone, 700_000)]] as [[(DeviceRole, EpochMs)]] {
            let (problems, _) = try Self.problems(damage: damage)
            #expect(problems == ["goal G3: its id goal-3 was given to another goal, though no damaged store can have lost it"], "\(damage): \(problems)")
        }
    }

    @Test func aDeletedGoalTheNodeStillHeldMadeLiveByAnAddIsTheGoalBack() throws {
        let (problems, run) = try Self.problems(damage: [(.phone, 305_000)], before: Self.deleted)
        #expect(run.reusedIDs.isEmpty && run.ids["G3"] == "goal-3")
        #expect(problems.contains { $0.hasPrefix("goal G3 (goal-3) on the phone: deleted, yet its record is live") }, "\(problems)")
    }
}

/// The window in which a rolled-back node's add may collide: from the rollback until the nodes
/// are next found connected with nothing outstanding (its handshake and the peer's complete
/// resend done). The watch is rolled back at 100 ms and adds a goal at 200 ms that takes
/// goal-w2, which the phone holds as a grave.
@Suite("Goal ids a rolled-back store hands out again: the window")
struct RolledBackGoalIDWindowTests {
    static func colliding(syncedBeforeTheAdd: Bool) throws -> Set<String> {
        let run = WorkloadRun(kind: .countdown)
        run.storeDamaged(.watch, atMs: 100, rollback: true)
        let driver = ScriptedDriver()
        driver.quiet = syncedBeforeTheAdd
        driver.answers["goal add G4 --date 2027-01-18"] = ["id": "goal-w2"]
        driver.answers["query grave goal goal-w2"] = [1, 0, 2]
        try run.issue(WorkloadOp(atMs: 200, role: .watch, action: .goalAdd(name: "G4", date: CivilDate(year: 2027, month: 1, day: 18))), driver: driver, nowMs: 200)
        #expect(run.ids["G4"] == "goal-w2")
        return run.collidingAdds
    }

    @Test func beforeTheNodesSyncedAgainTheAddCollides() throws {
        #expect(try Self.colliding(syncedBeforeTheAdd: false) == ["G4"])
    }

    @Test func onceTheyHaveSyncedTheAddIsCheckedAsAnyOther() throws {
        #expect(try Self.colliding(syncedBeforeTheAdd: true).isEmpty)
    }
}

/// A driver that answers `query record goal ID` from `records` and `query goal ID title` from
/// their titles: what the countdown model asks.
final class ScriptedDriver: ScenarioDriver {
    var records: [String: PlistValue] = [:]
    /// Answers to whole commands, asked before `records`.
    var answers: [String: PlistValue] = [:]
    /// Whether `settle` finds both nodes connected with nothing outstanding.
    var quiet = true
    var modeName: String { "scripted" }
    func call(_ role: DeviceRole, _ command: String) throws -> Result<PlistValue, NodeCallError> {
        if let a = answers[command] { return .success(a) }
        let w = command.split(separator: " ").map(String.init)
        if w.count == 4, w[0] == "query", w[1] == "record", w[2] == "goal", let r = records[w[3]] { return .success(r) }
        if w.count == 4, w[0] == "query", w[1] == "goal", w[3] == "title", let r = records[w[2]], r["deleted"] != true,
           let t = r["fields"]?["title"] { return .success(t) }
        return .failure(NodeCallError(message: "no \(command)"))
    }
    func start(_ scenario: Scenario) throws {}
    func stop(keepState: Bool) -> [String] { [] }
    func settle() throws -> QuietState { QuietState(phoneConnected: quiet, watchConnected: quiet, nothingOutstanding: quiet, nextEventMs: nil) }
    func advanceClocks(to ms: EpochMs, idleLink: Bool) throws {}
    func setWallOffset(_ role: DeviceRole, _ offsetMs: Int64) throws {}
    func setFaults(_ faults: LinkFaults) throws {}
    func resetConnection() throws {}
    func kill(_ role: DeviceRole) throws {}
    func restart(_ role: DeviceRole) throws {}
    func corruptStore(_ role: DeviceRole, seed: UInt64) throws {}
    func rollBackStore(_ role: DeviceRole, seed: UInt64) throws -> Int { 0 }
    func damagePartialFile(_ role: DeviceRole, path: String, committedBytes: Int64, seed: UInt64) throws -> String? { nil }
    func injectStranger(_ bytes: [UInt8]) throws -> [UInt8] { [] }
    func isRunning(_ role: DeviceRole) -> Bool { true }
    func takeTimeline() -> [String] { [] }
}

/// A store that went back to before a delete it had confirmed sends the goal back once the
/// delete's grave is gone, 90 days on (docs/SCENARIOS.md, *Graves*). Found by a 1,000-seed
/// countdown sweep of `graves-expire-after-90-days.scenario` from seed 500001 (seeds 500015,
/// 500073, 500944, replayed below with their shrunk schedules), whose clocks move 101 days on:
/// the model reported "deleted, yet its record is live".
@Suite("A delete undone by a rolled-back store after its grave went, found by sweeps")
struct DeleteUndoneByRollbackSweepTests {
    static let file = SimTest.repositoryRoot + "/scenarios/graves-expire-after-90-days.scenario"

    @Test func aGoalARolledBackStoreSendsBackAfterTheGraveWentMayBeLive() throws {
        let scenario = try SimTest.load(Self.file)
        for (seed, faults, ops) in [
            (UInt64(500015), "@10m15s rollback watch", "@2m12s watch goal-add G3 2027-06-28; @3m31s phone goal-delete G3"),
            (500073, "@7m41s rollback watch", "@3m35s watch goal-add G2 2027-07-04; @3m39s phone goal-delete G2; @5m5s phone goal-add G6 2026-08-30"),
            (500944, "@14m13s rollback phone", "@1m36s phone goal-add G2 2026-11-29; @1m39s phone goal-add G3 2026-11-08; "
                + "@1m41s watch goal-add G4 2026-11-03; @3m3s phone goal-add G5 2026-12-02; @3m6s phone goal-date G5 2026-10-12; "
                + "@3m51s phone goal-title G5 G5r3; @3m51s watch goal-delete G5; @3m57s watch goal-date G4 2026-12-24"),
        ] {
            let o = SeedSweep.run(scenario, seed: seed, faults: try FaultSchedule.parse(faults), ops: try WorkloadOps.parse(ops),
                                  options: GoalIDReuseSweepTests.options())
            #expect(o.passed, "seed \(seed): \(o.problems)")
        }
    }

    /// On a run built by hand: the watch adds G3, the phone deletes it at 200 ms; the goal is
    /// live again at the end. Accepted only with a rollback after the delete and the nodes'
    /// clocks 90 days past it.
    @Test func onlyARollbackAfterTheDeleteAndNinetyDaysExcuseIt() throws {
        let deleteWall: Int64 = 1_780_272_000_000
        for (rollbackAt, daysOn, accepted) in [(EpochMs?(300), 91, true), (300, 89, false), (150, 91, false), (nil, 91, false)] {
            let run = WorkloadRun(kind: .countdown)
            var add = WorkloadRun.Entry(op: WorkloadOp(atMs: 100, role: .watch, action: .goalAdd(name: "G3", date: CivilDate(year: 2027, month: 6, day: 28))), atMs: 100)
            add.accepted = true
            var delete = WorkloadRun.Entry(op: WorkloadOp(atMs: 200, role: .phone, action: .goalDelete(name: "G3")), atMs: 200, wallMs: deleteWall)
            delete.accepted = true
            run.append([add, delete])
            run.ids["G3"] = "goal-w2"
            if let at = rollbackAt { run.storeDamaged(.watch, atMs: at, rollback: true) }
            let driver = ScriptedDriver()
            driver.records["goal-w2"] = GoalIDReuseModelTests.latest
            driver.answers["clock"] = ["wall": .int(deleteWall + Int64(daysOn) * 86_400_000)]
            let problems = try CountdownModel.check(run, driver: driver)
            #expect(problems.isEmpty == accepted, "rollback \(rollbackAt.map(String.init) ?? "none"), \(daysOn) days: \(problems)")
        }
    }
}
