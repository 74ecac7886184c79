import PeerLinkCore

/// A write to one replicated field, as the node that made it stamped it.
struct FieldWrite: Sendable {
    var stamp: HLCTimestamp
    var value: PlistValue
    /// False when the node's store was damaged after the write (it may be lost with it).
    var certain: Bool
}

/// What a workload really issued in one run, and what the nodes answered: the reference
/// model's input. An operation for a node that was down, or for a goal whose `goal-add`
/// never happened, was not issued; each issued one keeps its reply, the node's wall time,
/// and the records it wrote as the node stamped them.
public final class WorkloadRun {
    public let kind: WorkloadKind
    /// One entry per operation of the schedule, in the order run.
    public private(set) var entries: [Entry] = []
    /// The node id of each workload goal (from its `goal-add`).
    var ids: [String: String] = [:]
    /// Goals whose id a later `goal-add`, or the scenario's own `goal add`, was given again
    /// (their goal gone from every store, or deleted with its grave dropped), with that id.
    var reusedIDs: [String: String] = [:]
    /// When each of `reusedIDs` was handed out again (virtual ms).
    var reusedAtMs: [String: EpochMs] = [:]
    /// Goals whose `goal-add` got an id an earlier goal had, on a node whose store had been
    /// rolled back: a rolled-back store hands out ids the peer used (docs/PHONE.md's known
    /// limitation), so the new goal may merge into the old one or go with its delete.
    var collidingAdds: Set<String> = []
    /// The rollbacks of the run: role and time.
    var rollbacks: [(DeviceRole, EpochMs)] = []
    /// The last time an operation found both nodes connected with nothing outstanding: a node
    /// rolled back before then has had its handshake and the peer's complete resend.
    var lastSyncedMs: EpochMs?
    /// Writes the scenario's own commands made to the records the workload follows: the node,
    /// when, the stamp and the value (whether a damage may have lost it is decided at the end).
    var foreign: [String: [(role: DeviceRole, atMs: EpochMs, stamp: HLCTimestamp, value: PlistValue)]] = [:]
    /// Every store damage of the run: role and virtual time.
    var damage: [(DeviceRole, EpochMs)] = []

    public struct Entry: Sendable {
        public var op: WorkloadOp
        public var command: String?
        /// Why it was not issued (`nil`: it was).
        public var skipped: String?
        public var accepted = false
        public var reply: PlistValue = .dictionary([:])
        public var atMs: EpochMs = 0
        /// The node's wall clock when it ran.
        public var wallMs: EpochMs = 0
        /// The record it wrote, before and after it ran (`query record …`).
        public var before: PlistValue?
        public var record: PlistValue?
        /// `complication remaining` just before a push.
        public var remainingBefore: Int64?

        /// `@5m phone goal-add G3 2026-09-14 → goal add … at 1780… (wall …): ok {"id":"goal-3",…}`.
        public var summary: String {
            guard let c = command else { return "\(op) → not issued: \(skipped ?? "?")" }
            if let s = skipped { return "\(op) → not issued: \(s)" }
            let reply = reply.jsonString()
            return "\(op) → `\(c)` at \(atMs) (wall \(wallMs)): \(accepted ? "ok" : "refused") \(reply.prefix(160))"
                + (record.map { " record \($0.jsonString().prefix(240))" } ?? "")
        }
    }

    public init(kind: WorkloadKind) { self.kind = kind }

    /// Records an entry (what `issue` does once it ran an operation).
    func appendEntry(_ e: Entry) { entries.append(e) }

    /// The record an operation writes (collection, id), if any.
    func recordKey(_ op: WorkloadOp) -> (String, String)? {
        switch op.action {
        case .goalAdd(let n, _), .goalTitle(let n, _), .goalDate(let n, _), .goalDelete(let n): ids[n].map { ("goal", $0) }
        case .stepGoal, .setting: ("settings", "settings")
        default: nil
        }
    }

    // MARK: - Running

    /// Issues `op` on its node (if it runs) and records what happened.
    func issue(_ op: WorkloadOp, driver: ScenarioDriver, nowMs: EpochMs) throws {
        var e = Entry(op: op, atMs: nowMs)
        defer { entries.append(e) }
        guard driver.isRunning(op.role) else { e.skipped = "the \(op.role) was down"; return }
        guard let command = op.command(ids: ids) else { e.skipped = "its goal was never added"; return }
        e.command = command
        let quiet = try driver.settle()
        if quiet.phoneConnected && quiet.watchConnected && quiet.nothingOutstanding { lastSyncedMs = nowMs }
        if case .success(let c) = try driver.call(op.role, "clock") { e.wallMs = c["wall"]?.intValue ?? 0 }
        if op.action == .complicationPush, case .success(let r) = try driver.call(op.role, "query complication remaining") {
            e.remainingBefore = r.intValue
        }
        if Self.writtenField(op) != nil, let (c, id) = recordKey(op) { e.before = try Self.value(driver, op.role, "query record \(c) \(id)") }
        switch try driver.call(op.role, command) {
        case .success(let v):
            e.accepted = true
            e.reply = v
            if case .goalAdd(let n, _) = op.action, let id = v["id"]?.stringValue {
                // A node hands out an id again only when no store holds the goal that had it
                // (lost with a damaged store before it synced): that goal's name follows no id now.
                // A rolled-back store may hand out ids the peer holds until its next handshake
                // and the peer's complete resend (docs/PHONE.md): such an add collides.
                let rolledBack = rollbacks.contains { r in r.0 == op.role && lastSyncedMs.map { r.1 >= $0 } ?? true }
                for (other, old) in ids.merging(reusedIDs, uniquingKeysWith: { a, _ in a }) where old == id && other != n {
                    ids[other] = nil
                    reusedIDs[other] = id
                    reusedAtMs[other] = nowMs
                    if rolledBack { collidingAdds.insert(n) }
                }
                // The id may be one the peer holds for a goal the workload does not follow (the
                // scenario's own, live, deleted or a grave): asked of the peer as it is now (a
                // peer that is down cannot be asked, and the add is checked as any other).
                if rolledBack, !collidingAdds.contains(n), try Self.hasUsed(driver, op.role.peer, "goal", id) { collidingAdds.insert(n) }
                ids[n] = id
            }
        case .failure(let err):
            e.reply = .string(err.message)
        }
        if e.accepted, let (c, id) = recordKey(op), case .success(let r) = try driver.call(op.role, "query record \(c) \(id)") {
            e.record = r
        }
    }

    /// Runs a scenario command of `role`, noting the writes it made to the records the
    /// workload follows (so the model knows every writer of them).
    func aroundScenarioCommand(_ role: DeviceRole, _ command: NodeCommand, driver: ScenarioDriver, nowMs: EpochMs,
                               _ run: () throws -> [CheckOutcome]) throws -> [CheckOutcome] {
        let keys: [(String, String)]
        switch (kind, command.words.first) {
        case (.countdown, "goal"?): keys = ids.values.sorted().map { ("goal", $0) }
        case (.fitness, "settings"?): keys = [("settings", "settings")]
        default: return try run()
        }
        func read() throws -> [PlistValue?] {
            try keys.map { k in if case .success(let v) = try driver.call(role, "query record \(k.0) \(k.1)") { v } else { nil } }
        }
        let before = try read()
        let out = try run()
        let after = try read()
        for (i, k) in keys.enumerated() {
            let name = "\(k.0)/\(k.1)"
            if kind == .countdown, command.words.dropFirst().first == "add", before[i] == nil, let now = after[i], now["deleted"] != true {
                // The scenario's own `goal add` was given a workload goal's id the node held in no
                // form: the goal deleted, its grave dropped after 90 days and the node's id counter
                // lost with a damaged store (docs/SCENARIOS.md, *Graves*), or the goal lost with
                // it. As when a workload `goal-add` is given one, that goal's name follows no id
                // now, and the model asks whether a damaged store can have lost the id. (A node
                // never gives out an id it holds, even deleted: that would be the goal back, and
                // is checked as such.)
                for (other, old) in ids where old == k.1 {
                    ids[other] = nil
                    reusedIDs[other] = old
                    reusedAtMs[other] = nowMs
                }
            }
            if after[i]?["deleted"] == true, before[i]?["deleted"] != true {
                foreign[name + "#deleted", default: []].append((role, nowMs, HLCTimestamp(wallMs: 0, counter: 0, replica: 0), true))
            }
            for (field, stamp) in after[i]?["stamps"]?.dictionaryValue ?? [:] where before[i]?["stamps"]?[field] != stamp {
                guard let s = Self.stamp(stamp), let v = after[i]?["fields"]?[field] else { continue }
                foreign[name + "." + field, default: []].append((role, nowMs, s, v))
            }
        }
        return out
    }

    /// A store was damaged (corrupt, rollback) at `atMs`.
    func storeDamaged(_ role: DeviceRole, atMs: EpochMs, rollback: Bool = false) {
        damage.append((role, atMs))
        if rollback { rollbacks.append((role, atMs)) }
    }

    // MARK: - For the models

    /// The model's verdict after the recovery: what does not match, one line each.
    func check(scenario: Scenario?, driver: ScenarioDriver) throws -> [String] {
        _ = try driver.settle()
        switch kind {
        case .countdown: return try clockProblems() + CountdownModel.check(self, driver: driver)
        case .fitness:
            guard let scenario else { return clockProblems() }
            return try clockProblems() + FitnessModel.check(self, scenario: scenario, driver: driver)
        }
    }

    /// The field an operation writes in a record that may already hold it (nil: none, or a new record).
    static func writtenField(_ op: WorkloadOp) -> String? {
        switch op.action {
        case .goalTitle: "title"
        case .goalDate: "targetDate"
        case .stepGoal: "stepGoal"
        case .setting(let name, _): WorkloadOp.settingFields[name]
        default: nil
        }
    }

    /// The value an operation writes into `writtenField`.
    static func writtenValue(_ op: WorkloadOp) -> PlistValue? {
        switch op.action {
        case .goalTitle(_, let t): .string(t)
        case .goalDate(_, let d): .string(d.description)
        case .stepGoal(let g): .int(Int64(g))
        case .setting(_, let on): .bool(on)
        default: nil
        }
    }

    /// The hybrid clock's promise the model rests on: an accepted write takes (its node's
    /// record holds it at once), and a change is stamped after every write of that field its
    /// node already held (so a write made after seeing another wins over it).
    func clockProblems() -> [String] {
        entries.compactMap { e in
            guard e.accepted, let field = Self.writtenField(e.op), let value = Self.writtenValue(e.op), let after = e.record else { return nil }
            if after["fields"]?[field] != value {
                return "\(e.op): accepted, yet the \(e.op.role)'s record holds \(after["fields"]?[field]?.jsonString() ?? "nothing") (its write lost at once)"
            }
            guard e.before?["fields"]?[field] != value, let held = Self.stamp(e.before?["stamps"]?[field]),
                  let made = Self.stamp(after["stamps"]?[field]), made <= held else { return nil }
            return "\(e.op): the \(e.op.role) stamped its write of \(field) \(made), not after the \(held) it already held"
        }
    }

    /// True when `role`'s replica holds `collection/id` (live or deleted) or its grave; false
    /// also when the node is down (its store cannot be asked).
    static func hasUsed(_ driver: ScenarioDriver, _ role: DeviceRole, _ collection: String, _ id: String) throws -> Bool {
        guard driver.isRunning(role) else { return false }
        return try value(driver, role, "query record \(collection) \(id)") != nil || value(driver, role, "query grave \(collection) \(id)") != nil
    }

    /// A command's value, nil when the node refused it (or has no such value).
    static func value(_ driver: ScenarioDriver, _ role: DeviceRole, _ command: String) throws -> PlistValue? {
        if case .success(let v) = try driver.call(role, command) { return v }
        return nil
    }

    /// False when `role`'s store was damaged at or after `atMs`: what it did then may be lost.
    func isCertain(_ role: DeviceRole, atMs: EpochMs) -> Bool {
        !damage.contains { $0.0 == role && $0.1 >= atMs }
    }

    /// True when `role`'s store was damaged (corrupt, rollback) between `from` and `through`.
    func wasDamaged(_ role: DeviceRole, from: EpochMs, through: EpochMs) -> Bool {
        damage.contains { $0.0 == role && $0.1 >= from && $0.1 <= through }
    }

    /// `[wallMs, counter, replica]` → a stamp.
    static func stamp(_ v: PlistValue?) -> HLCTimestamp? {
        guard let a = v?.arrayValue, a.count == 3, let w = a[0].intValue, let c = a[1].intValue, let r = a[2].intValue else { return nil }
        return HLCTimestamp(wallMs: w, counter: UInt32(clamping: c), replica: UInt16(clamping: r))
    }

    /// The writes issued to field `field` of the record `collection/id`: the workload's own
    /// (from the records after each accepted operation) and the scenario's.
    func writes(_ collection: String, _ id: String, field: String, of ops: (WorkloadOp) -> Bool) -> [FieldWrite] {
        var out = (foreign["\(collection)/\(id).\(field)"] ?? []).map { FieldWrite(stamp: $0.stamp, value: $0.value, certain: isCertain($0.role, atMs: $0.atMs)) }
        for e in entries where e.accepted && e.skipped == nil && ops(e.op) {
            guard let s = Self.stamp(e.record?["stamps"]?[field]), let v = e.record?["fields"]?[field] else { continue }
            out.append(FieldWrite(stamp: s, value: v, certain: isCertain(e.op.role, atMs: e.atMs)))
        }
        return out
    }

    /// The model's verdict on one final register: last writer wins by the hybrid clock. The
    /// register must hold one of the writes made, as it was written, at least as late as every
    /// certain write (a later one lost with a damaged store may or may not have won). Nil when
    /// it does; else what is wrong.
    static func lastWriterWins(_ writes: [FieldWrite], final record: PlistValue?, field: String) -> String? {
        guard !writes.isEmpty else { return nil }
        let stamp = stamp(record?["stamps"]?[field]), value = record?["fields"]?[field]
        func shown(_ v: PlistValue?) -> String { v?.jsonString() ?? "nothing" }
        if let w = writes.first(where: { $0.stamp == stamp }), w.value != value {
            return "holds \(shown(value)) stamped \(stamp!), but the write with that stamp was \(w.value.jsonString())"
        }
        guard let newestCertain = writes.filter(\.certain).map(\.stamp).max() else { return nil }
        if let s = stamp, s >= newestCertain, writes.contains(where: { $0.stamp == s }) { return nil }
        let expected = writes.filter { $0.stamp >= newestCertain }.max { $0.stamp < $1.stamp }!
        return "holds \(shown(value)) (stamp \(stamp.map(\.description) ?? "none")), expected \(expected.value.jsonString()) (stamp \(expected.stamp): the last writer)"
    }
}
