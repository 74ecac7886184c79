import PeerLinkCore

/// The reference model of the countdown workload: plain last-writer-wins over the operations
/// really issued, by the hybrid clock's stamps (the nodes' own), with a delete beating every
/// edit whatever its stamp (docs/PHONE.md: a delete wins over a concurrent edit). Checked on
/// both nodes after they converged: each workload goal is gone or live as the operations say,
/// with the title and date of its last writer, in the replicated record and on the app's list.
enum CountdownModel {
    static func check(_ run: WorkloadRun, driver: ScenarioDriver) throws -> [String] {
        var problems: [String] = []
        for (name, id) in run.reusedIDs.sorted(by: { $0.key < $1.key }) {
            // Legitimate only when a store of the node that added the goal was damaged after the
            // add and before the id went again: it may have lost the goal, or its id counter
            // (the goal's id handed out again once its grave went).
            let add = run.entries.first { e in if case .goalAdd(name, _) = e.op.action { e.accepted } else { false } }
            let reusedByARolledBackStore = run.collidingAdds.contains { newer in run.ids[newer] == id || run.reusedIDs[newer] == id }
            if let add, !run.wasDamaged(add.op.role, from: add.atMs, through: run.reusedAtMs[name] ?? .max), !reusedByARolledBackStore {
                problems.append("goal \(name): its id \(id) was given to another goal, though no damaged store can have lost it")
            }
        }
        // The later of the two nodes' wall clocks now, for the graves' 90 days.
        let endWallMs = try DeviceRole.allCases.compactMap { try WorkloadRun.value(driver, $0, "clock")?["wall"]?.intValue }.max()
        // A goal whose id collided with an older one's (a rolled-back store) is not checked: it
        // may have merged into the old goal, or gone with its delete.
        for (name, id) in run.ids.sorted(by: { $0.key < $1.key }) where !run.collidingAdds.contains(name) {
            let ofGoal: (WorkloadOp) -> Bool = { op in
                switch op.action {
                case .goalAdd(let n, _), .goalTitle(let n, _), .goalDate(let n, _), .goalDelete(let n): n == name
                default: false
                }
            }
            let mine = run.entries.filter { $0.accepted && ofGoal($0.op) }
            guard let add = mine.first(where: { if case .goalAdd = $0.op.action { true } else { false } }) else { continue }
            let deletes = mine.filter { if case .goalDelete = $0.op.action { true } else { false } }
            let certainDelete = deletes.contains { run.isCertain($0.op.role, atMs: $0.atMs) } || (run.foreign["goal/\(id)#deleted"] ?? []).contains { run.isCertain($0.role, atMs: $0.atMs) }
            let mayBeGone = deletes.contains { !run.isCertain($0.op.role, atMs: $0.atMs) } || !run.isCertain(add.op.role, atMs: add.atMs)
            // A store that went back to before a delete brings the goal back once the delete's
            // grave is gone, 90 days on by the nodes' clocks (docs/SCENARIOS.md, *Graves*).
            let mayBeBack = certainDelete && deletes.contains { d in
                run.rollbacks.contains { $0.1 >= d.atMs } && (endWallMs ?? .min) - d.wallMs >= ReplicaState.graveLifetimeMs
            }
            if mayBeBack { continue }
            for role in DeviceRole.allCases {
                let record = try WorkloadRun.value(driver, role, "query record goal \(id)")
                let gone = record == nil || record?["deleted"] == true
                let shown = try WorkloadRun.value(driver, role, "query goal \(id) title")
                let what = "goal \(name) (\(id)) on the \(role)"
                if certainDelete {
                    if !gone { problems.append("\(what): deleted, yet its record is live (\(record?["fields"]?.jsonString() ?? "?"))") }
                    if shown != nil { problems.append("\(what): deleted, yet the app lists it") }
                    continue
                }
                if gone {
                    if !mayBeGone { problems.append("\(what): added \(add.op.description) and never deleted, yet it is gone") }
                    continue
                }
                for field in ["title", "targetDate"] {
                    if let why = WorkloadRun.lastWriterWins(run.writes("goal", id, field: field, of: ofGoal), final: record, field: field) {
                        problems.append("\(what): \(field) \(why)")
                    }
                }
                if record?["fields"]?["isAgeGoal"] != false { problems.append("\(what): became an age goal (\(record?["fields"]?.jsonString() ?? "?"))") }
                if shown != record?["fields"]?["title"] {
                    problems.append("\(what): the app shows \(shown?.jsonString() ?? "nothing"), the record says \(record?["fields"]?["title"]?.jsonString() ?? "nothing")")
                }
            }
        }
        return problems
    }
}
